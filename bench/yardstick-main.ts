/**
 * `npm run bench:yardstick`: only section (g) of `npm run bench`, on the 100-package catalogue
 * plus ten packages of 201 versions: nginx, the bare node:http floor and Packyard at
 * WEB_CONCURRENCY under wrk, side by side, on the small and the 50-version p2 documents, each as
 * is and gzipped. BENCH_SECONDS (10) per measured run, BENCH_YARDSTICK_ROUNDS (3) rounds.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { busiestProfile, formatProfile } from './profile.js';
import { heading, item } from './report.js';
import { readSettings } from './settings.js';
import { prepareYardstick } from './yardstick-docs.js';
import { YARDSTICK_CONNECTIONS, benchYardstick } from './yardstick-run.js';
import { ensureYardstickTools } from './yardstick.js';

async function main(): Promise<void> {
  const s = readSettings();
  ensureYardstickTools();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-yardstick-'));
  const adminToken = crypto.randomBytes(24).toString('hex');
  try {
    heading('(g) the yardstick: the documents');
    const prepared = await prepareYardstick(s, path.join(work, 'catalogue'), adminToken);
    const [small, ...more] = prepared.sets;
    heading(`(g) the yardstick: wrk, ${YARDSTICK_CONNECTIONS} connections`);
    item('seconds per run', String(s.seconds));
    item(
      'load average (1, 5, 15 min)',
      os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', '),
    );
    const profiles = s.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-ys-prof-')) : null;
    await benchYardstick(
      {
        dataDir: prepared.dataDir,
        server: prepared.server,
        adminToken,
        paths: small!.paths,
        headers: prepared.headers,
        bodies: small!.bodies,
        more,
      },
      work,
      s.seconds,
      profiles,
    );
    if (profiles) {
      heading('CPU profile of the busiest Packyard process');
      const busiest = busiestProfile(profiles, 0);
      console.log(busiest ? formatProfile(busiest) : '  (no profile was written)');
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
