const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export const fmt = {
  int: (n: number) => int.format(n),
  ms: (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`,
  s: (n: number) => `${n.toFixed(2)} s`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  kb: (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`,
  ratio: (n: number) => n.toFixed(2),
  pct: (n: number) => `${n >= 0 ? '+' : ''}${(n * 100).toFixed(1)}%`,
};

/** A plain-text table with left-aligned columns. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(headers), rule, ...rows.map(line)].join('\n');
}

export function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 76 - title.length))}`);
}

/** A labelled value line: `  label ........ value`. */
export function item(label: string, value: string): void {
  console.log(`  ${`${label} `.padEnd(44, '.')} ${value}`);
}

export type Verdict = 'PASS' | 'MISS' | 'n/a';

export const verdict = (ok: boolean | null): Verdict =>
  ok === null ? 'n/a' : ok ? 'PASS' : 'MISS';
