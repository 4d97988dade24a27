import { useId, useState } from 'react';
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';
import { describeError } from '../lib/errors';

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

/** A labelled text input (any `type`); its hint and the API's error on it describe it. */
export function TextField({
  label,
  hint,
  error,
  value,
  onChange,
  ...input
}: {
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id, describedBy) => (
        <input
          {...input}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A labelled choice among fixed values; `blank` names an empty first choice ("Any status"). */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  blank,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  blank?: string;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)}>
          {blank !== undefined && <option value="">{blank}</option>}
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      )}
    </Field>
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

/**
 * A form in a card: its heading (the form's name), the fields, the submit button with anything
 * that goes beside it, and the API's error under them.
 */
export function FormCard({
  title,
  level = 2,
  submit,
  action,
  beside,
  children,
}: {
  title: string;
  level?: 2 | 3;
  submit: string;
  /** What submitting does (a mutation): the button waits while it runs; its error shows. */
  action: { isPending: boolean; error: unknown; mutate: () => void };
  beside?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const send = (e: FormEvent) => {
    e.preventDefault();
    action.mutate();
  };
  return (
    <form className="card" onSubmit={send} aria-labelledby={titleId}>
      <Heading id={titleId}>{title}</Heading>
      {children}
      <div className="actions">
        <button type="submit" disabled={action.isPending}>
          {submit}
        </button>
        {beside}
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}

/** A secret shown only once (a new token's value): copy it now, gone after "I have copied it". */
export function ShownOnce({
  title,
  level = 2,
  note,
  onDone,
  children,
}: {
  title: string;
  level?: 2 | 3;
  note: string;
  onDone: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="card once" aria-labelledby={titleId}>
      <Heading id={titleId}>{title}</Heading>
      <p>{note}</p>
      {children}
      <button type="button" className="secondary" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
