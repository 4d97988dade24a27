/** True for a unique-constraint violation of either database (PostgreSQL 23505, SQLite UNIQUE). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return (
    e?.code === '23505' || /UNIQUE constraint failed|duplicate key value/i.test(e?.message ?? '')
  );
}
