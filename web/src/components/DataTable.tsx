import type { ReactNode } from 'react';
import type { Pagination } from '../api/types';
import { Pager } from './Pager';
import { ErrorNote, Loading } from './ui';

export interface Column<T> {
  /** The column's header; on a phone, also the label beside each value in a row's card. */
  header: string;
  cell: (row: T) => ReactNode;
  /** Class of the column's cells, e.g. `break` to wrap long words. */
  className?: string;
}

export interface DataTableProps<T> {
  /** The table's name: its caption and the name of the region around it. */
  caption: string;
  /** The columns in order; `false` leaves one out (e.g. actions for a viewer). */
  columns: readonly (Column<T> | false)[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Said across the table when there is no row. */
  empty?: ReactNode;
  /**
   * On a narrow screen each row becomes a card of label and value, so every cell and button is
   * on the screen (`cards`, the default); `scroll` keeps the table, scrolling sideways in its
   * own region (for a table narrow enough to fit anyway).
   */
  narrow?: 'cards' | 'scroll';
}

/** A table with a header row; never wider than the page (see `narrow`). */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  narrow = 'cards',
}: DataTableProps<T>) {
  const shown = columns.filter((c): c is Column<T> => c !== false);
  const cards = narrow === 'cards';
  return (
    <div
      className={cards ? 'table-wrap cards-on-phone' : 'table-wrap'}
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {shown.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {shown.map((c) => (
                <td
                  key={c.header}
                  className={c.className}
                  data-label={cards ? c.header : undefined}
                >
                  {cards ? <div className="cell">{c.cell(row)}</div> : c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && empty !== undefined && (
            <tr>
              <td colSpan={shown.length}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** What a list query holds: a page of the API's list envelope. */
export interface ListQuery<T> {
  isPending: boolean;
  error: unknown;
  data?: { data: T[]; pagination: Pagination } | undefined;
}

/**
 * A page of a server-side list: the API's error in words, "Loading…" the first time, the table,
 * and the pager under it.
 */
export function PagedTable<T>({
  list,
  what,
  onPage,
  ...table
}: Omit<DataTableProps<T>, 'rows'> & {
  list: ListQuery<T>;
  /** What is loading, in words ("customers"). */
  what: string;
  onPage: (page: number) => void;
}) {
  return (
    <>
      <ErrorNote error={list.error} />
      {list.isPending ? (
        <Loading what={what} />
      ) : (
        list.data && <DataTable {...table} rows={list.data.data} />
      )}
      <Pager pagination={list.data?.pagination} onPage={onPage} label={table.caption} />
    </>
  );
}
