import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { describeError } from '../lib/errors';
import type { Pagination } from '../api/types';

/** An API error in words, announced to screen readers, next to what caused it. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/**
 * A labelled field; the label text is the field's accessible name. An `error` (the API's word on
 * this field) is shown under it and joins its description.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="error">
          {error}
        </small>
      )}
    </div>
  );
}

/** Previous/next paging over a list envelope's pagination. */
export function Pager({
  pagination,
  onPage,
  label,
}: {
  pagination: Pagination | undefined;
  onPage: (page: number) => void;
  label: string;
}) {
  if (!pagination) return null;
  const { page, total_pages: pages, total } = pagination;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {page} of {Math.max(pages, 1)} · {total} in all
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/** A table that scrolls sideways on a narrow screen instead of widening the page. */
export function TableWrap({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}

/** An advisory's severity as a coloured badge that also says it in words. */
export function SeverityBadge({ severity }: { severity: string | null }) {
  const level = severity ?? 'unknown';
  return <span className={`badge severity-${level}`}>{severity ?? 'no severity'}</span>;
}

/** A read-only code block with a copy button. */
export function CopyBlock({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  return (
    <figure className="copy-block">
      <figcaption>
        <span>{label}</span>
        <button type="button" onClick={() => void copy()} aria-label={`Copy ${label}`}>
          Copy
        </button>
        <span role="status" className="muted">
          {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select and copy by hand' : ''}
        </span>
      </figcaption>
      <pre tabIndex={0} aria-label={label}>
        <code>{text}</code>
      </pre>
    </figure>
  );
}

/** A page's heading; focused after navigation so keyboard and screen-reader users land on it. */
export function PageTitle({ children }: { children: ReactNode }) {
  return (
    <h1 tabIndex={-1} className="page-title">
      {children}
    </h1>
  );
}
