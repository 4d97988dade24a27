/**
 * Section (c) of `npm run bench` alone: `node --import tsx bench/sync-main.ts`
 * (BENCH_SYNC_ROUNDS full-sync rounds, 3 by default; BENCH_CPU_PROF=1 to profile the servers of
 * the first full sync and of the one-new-tag rounds on the large repository).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { busiestProfile, formatProfile } from './profile.js';
import { heading } from './report.js';
import { readSettings } from './settings.js';
import { benchSync } from './sync.js';

async function main(): Promise<void> {
  const s = readSettings();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-sync-'));
  const profiles = s.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-prof-')) : null;
  try {
    heading(`(c) sync of a repository with ${s.tags} tags`);
    const push = profiles ? path.join(profiles, 'push') : null;
    if (push) fs.mkdirSync(push);
    const run = await benchSync(s, work, crypto.randomBytes(24).toString('hex'), profiles, push);
    if (profiles && push) {
      heading('CPU profile of the server: first full sync');
      const summary = busiestProfile(profiles, run.profileSkipMs);
      console.log(summary ? formatProfile(summary) : '  (no profile was written)');
      heading('CPU profile of the server: one new tag at a time, 1,000 tags');
      const pushed = busiestProfile(push, run.push[0]?.profileSkipMs ?? 0);
      console.log(pushed ? formatProfile(pushed) : '  (no profile was written)');
      console.log(`\n  profiles kept in ${profiles}`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err);
  process.exitCode = 1;
});
