/**
 * `npm run bench:yardstick`: only section (g) of `npm run bench`, on the 100-package catalogue:
 * nginx, the bare node:http floor and Packyard at WEB_CONCURRENCY under wrk, side by side.
 * BENCH_SECONDS (10) per measured run.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedCatalogue } from './catalogue.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import { busiestProfile, formatProfile } from './profile.js';
import { heading, item } from './report.js';
import { readSettings } from './settings.js';
import { YARDSTICK_CONNECTIONS, benchYardstick } from './yardstick-run.js';
import { ensureYardstickTools } from './yardstick.js';

async function main(): Promise<void> {
  const s = readSettings();
  ensureYardstickTools();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-yardstick-'));
  const adminToken = crypto.randomBytes(24).toString('hex');
  try {
    const dataDir = path.join(work, 'catalogue');
    const catalogue = await seedCatalogue({
      dataDir,
      adminToken,
      count: s.smallCatalogue,
      grants: s.grants,
    });
    const server = await startPackyard({ dataDir, adminToken });
    const api = new AdminApi(server.url, adminToken);
    const token = await api.customerWithToken(catalogue.granted, s.constraint);
    const headers = { authorization: basicAuth(token) };
    const paths = catalogue.granted.map((name) => `/p2/${name}.json`);
    const bodies = new Map<string, Buffer>();
    for (const p of paths) {
      const res = await fetch(server.url + p, { headers });
      if (!res.ok) throw new Error(`GET ${p} -> ${res.status}`);
      bodies.set(p, Buffer.from(await res.arrayBuffer()));
    }
    heading(
      `(g) the yardstick: wrk, ${YARDSTICK_CONNECTIONS} connections, ${paths.length} p2 documents`,
    );
    item('seconds per run', String(s.seconds));
    const profiles = s.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-ys-prof-')) : null;
    await benchYardstick(
      { dataDir, server, adminToken, paths, headers, bodies },
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
