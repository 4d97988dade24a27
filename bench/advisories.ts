/**
 * Issue 13's figures: a full import of the real FriendsOfPHP database (the fixture
 * test/fixtures/friendsofphp-advisories.tar.gz, 1,591 YAML files, read by the real git-based source), a no-change re-import, and a match of every advisory against
 * 10,000 held versions, with RSS growth. In-process on SQLite; target: import + match under 10 s.
 * `npm run bench` runs it; `node --import tsx bench/advisories.ts` runs it alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { execFileSync } from 'node:child_process';
import { friendsOfPhpRepository } from '../test/fixtures/friendsofphp.js';
import { friendsOfPhpSource } from '../src/areas/advisories/sources/friendsofphp.js';
import { fmt, heading, item } from './report.js';

export const ADVISORY_TARGETS = { importAndMatchMs: 10_000 };
const HELD_VERSIONS = 10_000;

const rss = () => process.memoryUsage().rss;

export async function benchAdvisories(): Promise<{ importMs: number; matchMs: number } | null> {
  heading('(h) security advisories: FriendsOfPHP import and match (issue 13)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-adv-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
    EDITION: 'pro',
    // The proxy is on (its kept versions are held) but never asked: the bench writes them.
    PROXY_UPSTREAM_URL: 'http://127.0.0.1:9',
    WORKER: 'off',
  });
  const runtime = await openRuntime(config);
  try {
    const { advisories, deps } = runtime.services;
    // The real source over the fixture as a git repository: the figures include git.
    const repo = friendsOfPhpRepository(path.join(dataDir, 'fixture'));
    const source = friendsOfPhpSource(
      { ...config.advisories, friendsOfPhpUrl: repo },
      runtime.services.deps,
    )!;
    advisories.useSources(() => [source]);

    const before = rss();
    let t0 = performance.now();
    const first = await advisories.runImport('default');
    const importMs = performance.now() - t0;
    const count = await deps.db
      .selectFrom('advisories')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', 'default')
      .executeTakeFirst();
    item(
      'full import (parse, merge, store, match)',
      `${fmt.int(Number(count?.n ?? 0))} advisories from ${fmt.int(first.sources[0]?.records ?? 0)} records in ${(importMs / 1000).toFixed(2)} s; ${first.sources[0]?.problems.length ?? 0} problems`,
    );

    // Same content, new fingerprint (an empty commit): every record is read and digested,
    // nothing is written.
    execFileSync(
      'git',
      [
        '-c',
        'user.name=b',
        '-c',
        'user.email=b@example.test',
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'again',
      ],
      { cwd: repo },
    );
    t0 = performance.now();
    const again = await advisories.runImport('default');
    item(
      'no-change re-import (every record digested)',
      `${((performance.now() - t0) / 1000).toFixed(2)} s; ${again.sources[0]?.unchanged ?? 0} unchanged, ${again.advisories_updated} updated`,
    );
    t0 = performance.now();
    await advisories.runImport('default');
    item('unchanged fingerprint re-import', `${((performance.now() - t0) / 1000).toFixed(3)} s`);

    const names = (
      await deps.db
        .selectFrom('advisories')
        .select('package_name')
        .distinct()
        .where('tenant_id', '=', 'default')
        .execute()
    ).map((r) => r.package_name);
    const rows = [];
    for (let i = 0; i < HELD_VERSIONS; i += 1) {
      const name = names[i % names.length]!;
      const n = Math.floor(i / names.length);
      const version = `${n % 7}.${Math.floor(n / 7) % 10}.${n % 5}`;
      rows.push({
        tenant_id: 'default',
        name,
        version,
        version_normalized: `${version}.0`,
        reference: `r${i}`,
        dist_url: `https://example.test/${i}.zip`,
        shasum: null,
        archive_key: null,
        archive_size: null,
        archived_at: null,
      });
    }
    for (let i = 0; i < rows.length; i += 500) {
      await deps.db
        .insertInto('proxy_versions')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    t0 = performance.now();
    const outcome = await advisories.scanner.match('default');
    const matchMs = performance.now() - t0;
    item(
      `match against ${fmt.int(HELD_VERSIONS)} held versions`,
      `${(matchMs / 1000).toFixed(2)} s; ${fmt.int(outcome.matches)} matches`,
    );
    const total = importMs + matchMs;
    item(
      'import + match',
      `${(total / 1000).toFixed(2)} s (target < ${ADVISORY_TARGETS.importAndMatchMs / 1000} s: ${total < ADVISORY_TARGETS.importAndMatchMs ? 'PASS' : 'MISS'}); RSS +${fmt.mb(rss() - before)}`,
    );
    return { importMs, matchMs };
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchAdvisories().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
