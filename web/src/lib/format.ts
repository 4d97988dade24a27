/** A timestamp as a short UTC date and time, or a dash. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatNumber(n: number): string {
  return new Intl.NumberFormat('en').format(n);
}

/** yyyy-mm-dd of a date, in UTC (the statistics API's day). */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The last `days` days, today included: the statistics page's default range. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const from = new Date(now.getTime() - (days - 1) * 86_400_000);
  return { from: isoDay(from), to: isoDay(now) };
}

/**
 * Every day from `from` to `to` with its downloads, zero where the API has none, so a chart's
 * x axis does not skip quiet days.
 */
export function fillDays(
  from: string,
  to: string,
  rows: readonly { date: string; downloads: number }[],
): { date: string; downloads: number }[] {
  const byDay = new Map(rows.map((r) => [r.date, r.downloads]));
  const out: { date: string; downloads: number }[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 3660; t += 86_400_000) {
    const date = isoDay(new Date(t));
    out.push({ date, downloads: byDay.get(date) ?? 0 });
  }
  return out;
}

/** The sync state in words, for people and screen readers. */
export function syncLabel(status: string | null | undefined): string {
  switch (status) {
    case 'pending':
      return 'Sync queued';
    case 'running':
      return 'Syncing…';
    case 'ok':
      return 'Synced';
    case 'failed':
      return 'Sync failed';
    default:
      return 'Never synced';
  }
}

export const isSyncing = (status: string | null | undefined): boolean =>
  status === 'pending' || status === 'running';
