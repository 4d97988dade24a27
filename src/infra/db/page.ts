import type { SelectQueryBuilder } from 'kysely';

/** A window of a list: rows `offset` … `offset + limit - 1`. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * One page of a filtered query and the total it is a page of, from the same `base` (table and
 * filters): `rows` selects and orders the page's columns; both queries run at once.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  base: SelectQueryBuilder<DB, TB, {}>,
  rows: (
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    qb: SelectQueryBuilder<DB, TB, {}>,
  ) => SelectQueryBuilder<DB, TB, O>,
  window: PageWindow,
): Promise<{ rows: O[]; total: number }> {
  const [page, count] = await Promise.all([
    rows(base).offset(window.offset).limit(window.limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: page, total: Number((count as { n: number | string }).n) };
}
