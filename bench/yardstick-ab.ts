/**
 * Two versions of Packyard on the yardstick at once, to tell the code from the machine:
 * `YS_OLD_ROOT=/tmp/ys-old node --import tsx bench/yardstick-ab.ts`, where YS_OLD_ROOT is a git
 * worktree of the older commit (node_modules symlinked in) on the same schema. One catalogue
 * (copied for the older tree), nginx, and both trees' clusters at WEB_CONCURRENCY run side by
 * side; wrk loads nginx, this tree and the older one in turn, in alternating order, for
 * BENCH_YARDSTICK_ROUNDS rounds of BENCH_SECONDS on each document set (identity encoding, which
 * both versions serve), and every round's ratios are printed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildServer, freePort } from './processes.js';
import { busiestProfile, formatProfile } from './profile.js';
import { fmt, heading, item } from './report.js';
import { startReference } from './reference-server.js';
import { readSettings } from './settings.js';
import { prepareYardstick } from './yardstick-docs.js';
import { ROOT } from './processes.js';
import { YARDSTICK_CONNECTIONS, wrkLine } from './yardstick-run.js';
import { ensureYardstickTools, runWrk, startNginx } from './yardstick.js';
import type { WrkResult } from './yardstick.js';

/** `packyard serve` of the tree at `root` on DATA_DIR, as bench/packyard.ts starts it. */
export async function startTree(opts: {
  root: string;
  dataDir: string;
  adminToken: string;
  processes: number;
  cpuProfDir?: string | null;
  env?: Record<string, string>;
}): Promise<ChildServer> {
  const port = await freePort();
  const profile = opts.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir] : [];
  return ChildServer.start({
    label: `packyard (${opts.root})`,
    port,
    nodeArgs: [...profile, path.join(opts.root, 'bin/packyard.js'), 'serve'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      ADMIN_TOKEN: opts.adminToken,
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      WORKER: 'on',
      WEB_CONCURRENCY: String(opts.processes),
      RATE_LIMIT_COMPOSER_PER_MINUTE: '100000000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '100000000',
      PROXY_UPSTREAM_URL: 'off',
      ...opts.env,
    },
    // A busy machine takes a while to compile a cluster's processes.
    timeoutMs: 120_000,
    ready: async (url) => {
      const res = await fetch(`${url}/api/v1/packages?per_page=1`, {
        headers: { authorization: `Bearer ${opts.adminToken}` },
      });
      await res.arrayBuffer();
      return res.ok;
    },
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const oldRoot = process.env.YS_OLD_ROOT;
  if (!oldRoot || !fs.existsSync(path.join(oldRoot, 'bin/packyard.js'))) {
    throw new Error('YS_OLD_ROOT must name a worktree of the older commit');
  }
  const s = readSettings();
  const rounds = Number(process.env.BENCH_YARDSTICK_ROUNDS) || 5;
  const processes = Number(process.env.BENCH_WEB_CONCURRENCY) || os.availableParallelism();
  ensureYardstickTools();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-ys-ab-'));
  const adminToken = crypto.randomBytes(24).toString('hex');
  const servers: { stop(): Promise<void> }[] = [];
  const profileDirs: [string, string | null][] = [];
  try {
    heading(`old (${oldRoot}) against new (${ROOT}) on the yardstick`);
    const prepared = await prepareYardstick(s, path.join(work, 'new'), adminToken);
    await prepared.server.stop();
    const oldData = path.join(work, 'old');
    fs.cpSync(prepared.dataDir, oldData, { recursive: true });
    const all = new Map(prepared.sets.flatMap((set) => [...set.bodies]));
    const nginx = await startNginx(work, all, prepared.token);
    servers.push(nginx);
    // BENCH_CPU_PROF=1: both trees' processes write V8 CPU profiles, summarized at the end.
    const prof = (name: string) =>
      s.profile ? fs.mkdtempSync(path.join(os.tmpdir(), `packyard-ab-${name}-`)) : null;
    const profiles = { new: prof('new'), old: prof('old') };
    const tree = (root: string, dataDir: string, cpuProfDir: string | null) =>
      startTree({ root, dataDir, adminToken, processes, cpuProfDir });
    const floor = await startReference('node', all, path.join(work, 'floor.json'));
    servers.push(floor);
    const trees = {
      new: await tree(ROOT, prepared.dataDir, profiles.new),
      old: await tree(oldRoot, oldData, profiles.old),
    };
    profileDirs.push(...Object.entries(profiles));
    servers.push(trees.new, trees.old);
    const load = (url: string, pid: number, paths: string[], seconds = s.seconds) =>
      runWrk({
        url,
        paths,
        headers: prepared.headers,
        seconds,
        connections: YARDSTICK_CONNECTIONS,
        work,
        pid,
      });
    const targets = [
      ['nginx', nginx.url, nginx.pid],
      ['new', trees.new.url, trees.new.pid],
      ['old', trees.old.url, trees.old.pid],
      ['floor', floor.url, floor.pid],
    ] as const;
    for (const set of prepared.sets) {
      // Every process of both clusters answers each path before the measured runs.
      for (const [, url, pid] of targets) await load(url, pid, set.paths, 2);
    }
    for (const set of prepared.sets) {
      heading(`${set.name} documents, ${rounds} rounds of ${s.seconds} s`);
      const got: Record<string, WrkResult[]> = { nginx: [], new: [], old: [], floor: [] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const [name, url, pid] of order) got[name]!.push(await load(url, pid, set.paths));
        const [n, a, b, f] = [got.nginx!, got.new!, got.old!, got.floor!].map((r) => r[round]!);
        const us = (r: WrkResult) => `${(r.cpuUs ?? 0).toFixed(0)}/${(r.sysUs ?? 0).toFixed(0)} µs`;
        item(
          `round ${round + 1} (load ${os.loadavg()[0]!.toFixed(1)})`,
          `nginx ${fmt.int(n!.rps)} ${us(n!)}, new ${fmt.int(a!.rps)} ${us(a!)} ` +
            `(${fmt.ratio(a!.rps / n!.rps)}x), old ${fmt.int(b!.rps)} ${us(b!)} ` +
            `(${fmt.ratio(b!.rps / n!.rps)}x), floor ${fmt.int(f!.rps)} ${us(f!)}, ` +
            `new/old ${fmt.ratio(a!.rps / b!.rps)}`,
        );
      }
      for (const name of ['nginx', 'new', 'old', 'floor']) {
        const rs = got[name]!;
        item(
          `${name}, median round`,
          wrkLine([...rs].sort((x, y) => x.rps - y.rps)[rs.length >> 1]!),
        );
      }
      const ratios = (k: string) => got[k]!.map((r, i) => r.rps / got.nginx![i]!.rps);
      item('new / nginx, median of rounds', fmt.ratio(median(ratios('new'))));
      item('old / nginx, median of rounds', fmt.ratio(median(ratios('old'))));
      for (const name of ['nginx', 'new', 'old', 'floor']) {
        const cpu = got[name]!.map((r) => r.cpuUs ?? 0);
        const sys = got[name]!.map((r) => r.sysUs ?? 0);
        item(
          `${name}: CPU per answer, median`,
          `${median(cpu).toFixed(1)} µs (kernel ${median(sys).toFixed(1)} µs)`,
        );
      }
    }
  } finally {
    await Promise.all(servers.map((x) => x.stop()));
    fs.rmSync(work, { recursive: true, force: true });
  }
  for (const [name, dir] of profileDirs) {
    if (!dir) continue;
    heading(`CPU profile of the busiest process of ${name} (kept in ${dir})`);
    const busiest = busiestProfile(dir, 0);
    console.log(busiest ? formatProfile(busiest) : '  (no profile was written)');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((err: unknown) => {
    console.error('\nbench failed:', err);
    process.exitCode = 1;
  });
}
