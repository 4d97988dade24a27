import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Transactions are opened in one place, `transact` (src/unit-of-work.ts), so a mutation's
 * effects (audit, events, the access-change stamp, waking workers) run only after it commits.
 * These files open their own for a reason given beside each.
 */
const ALLOWED = new Map<string, string>([
  ['src/unit-of-work.ts', 'the unit of work itself'],
  ['src/infra/db/migrations/', 'migrations run before the app exists'],
  [
    'src/areas/usage/service.ts',
    "the download counters' group commit: one write for many tenants, with no effects",
  ],
  ['src/areas/proxy/service.ts', 'proxy cache writes with no effects (proxy issue)'],
]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

describe('transactions', () => {
  it('are opened by transact only (effects wait for the commit)', () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(50);
    const opening = files.filter((file) => /\.transaction\(\)/.test(fs.readFileSync(file, 'utf8')));
    expect(opening).toContain('src/unit-of-work.ts');
    const unexpected = opening.filter(
      (file) => ![...ALLOWED.keys()].some((allowed) => file.startsWith(allowed)),
    );
    expect(unexpected).toEqual([]);
  });
});
