import type { Pagination } from '../api/types';

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
