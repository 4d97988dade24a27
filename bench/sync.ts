import fs from 'node:fs';
import path from 'node:path';
import { createTaggedRepo } from './git-tags.js';
import { AdminApi, startPackyard } from './packyard.js';
import { fmt, item } from './report.js';
import type { Settings } from './settings.js';
import { composerVcsRead, processCpuSeconds } from './sync-repo.js';
import { benchPush, spread, spreadLine, waitTask } from './sync-webhook.js';
import type { PushRun, Spread } from './sync-webhook.js';

export interface SyncRun {
  /** Seconds of each round, and their mean. */
  rounds: number[];
  seconds: number;
  versions: number;
  fromTags: number;
  /** How long the profiled (first) server ran before the sync started. */
  profileSkipMs: number;
  /** Milliseconds of each full sync and of each read of the same repository by Composer. */
  packyard: Spread;
  composer: Spread;
  /** Composer's median over Packyard's median. */
  speedup: number;
  /**
   * The same full sync on a server that has synced before (the package deleted and added again
   * on the round's server: a new mirror, new archives, every version written anew), and
   * Composer's median over its median.
   */
  running: Spread;
  runningSpeedup: number;
  /** CPU seconds used (process and waited-for children: git) per round, by each side. */
  packyardCpu: number[];
  composerCpu: number[];
  /** One new tag announced by webhook (and by the API) on the large and on a 2-tag repository. */
  push: PushRun[];
}

/**
 * (c) A repository with `s.tags` tags: Packyard's full sync (adding the package, on a fresh server
 * and DATA_DIR each round, timed until its sync task is done) and Composer's own VCS driver
 * reading the same repository (`composer show --all`, cold cache), in alternating rounds
 * (BENCH_SYNC_ROUNDS, at least 3), each also in CPU seconds (the process and the git processes it
 * ran); each round's server then syncs the package once more (deleted and added again: what a
 * running registry pays, without a fresh process's first-use costs); then one new tag at a time,
 * from the push to the p2 document listing it (bench/sync-webhook.ts).
 */
export async function benchSync(
  s: Settings,
  work: string,
  adminToken: string,
  profileDir: string | null,
  /** Profile the server of the webhook rounds on the large repository here. */
  pushProfileDir: string | null = null,
): Promise<SyncRun> {
  const name = 'bench/many-tags';
  const repo = createTaggedRepo(name, s.tags);
  const rounds = Math.max(3, Number(process.env.BENCH_SYNC_ROUNDS) || s.rounds);
  const ours: number[] = [];
  const again: number[] = [];
  const theirs: number[] = [];
  const ourCpu: number[] = [];
  const theirCpu: number[] = [];
  let versions = 0;
  let fromTags = 0;
  let profileSkipMs = 0;
  try {
    item(
      'repository (git fast-import)',
      `${fmt.int(repo.tags)} tags built in ${fmt.s(repo.seconds)}`,
    );
    for (let round = 1; round <= rounds; round++) {
      const dataDir = path.join(work, `sync-${round}`);
      const cpuProfDir = round === 1 ? profileDir : null;
      const server = await startPackyard({ dataDir, adminToken, cpuProfDir });
      try {
        const api = new AdminApi(server.url, adminToken);
        const started = performance.now();
        const cpuBefore = processCpuSeconds(server.pid) ?? 0;
        if (round === 1) profileSkipMs = started - server.startedAt;
        const added = await api.request<{ sync_task: { id: string } }>('POST', '/api/v1/packages', {
          name,
          repository_url: repo.url,
          type: 'git',
        });
        const task = await waitTask(api, added.sync_task.id, 20);
        const ms = performance.now() - started;
        ourCpu.push((processCpuSeconds(server.pid) ?? 0) - cpuBefore);
        if (task.status !== 'done') {
          throw new Error(`Sync of ${name} ended ${task.status}: ${task.error ?? ''}`);
        }
        const pkg = await api.waitForSync(name);
        const isDev = (v: string) => v.startsWith('dev-') || v.endsWith('-dev');
        fromTags = pkg.versions.filter((v) => !isDev(v.version)).length;
        versions = pkg.versions.length;
        ours.push(ms);
        item(
          `round ${round}: POST /api/v1/packages -> ok`,
          `${fmt.ms(ms)} (CPU ${fmt.s(ourCpu[ourCpu.length - 1] ?? 0)}), ` +
            `${fmt.int(versions)} versions created ` +
            `(${fmt.int(fromTags)} from tags, ${fmt.int(versions - fromTags)} from branches)`,
        );
        await api.request('DELETE', `/api/v1/packages/${name}`);
        const restarted = performance.now();
        const readded = await api.request<{ sync_task: { id: string } }>(
          'POST',
          '/api/v1/packages',
          { name, repository_url: repo.url, type: 'git' },
        );
        const second = await waitTask(api, readded.sync_task.id, 20);
        if (second.status !== 'done') {
          throw new Error(`Second sync of ${name} ended ${second.status}: ${second.error ?? ''}`);
        }
        again.push(performance.now() - restarted);
        item(
          `round ${round}: the same on that server again`,
          `${fmt.ms(again[again.length - 1]!)} (deleted and added again)`,
        );
      } finally {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      const vcs = await composerVcsRead(repo.url, name);
      theirs.push(vcs.seconds * 1000);
      theirCpu.push(vcs.cpuSeconds);
      item(
        `round ${round}: composer show --all (vcs driver)`,
        `${fmt.ms(vcs.seconds * 1000)} (CPU ${fmt.s(vcs.cpuSeconds)}), ` +
          `${fmt.int(vcs.versions)} versions listed`,
      );
    }
  } finally {
    repo.remove();
  }
  const packyard = spread(ours);
  const composer = spread(theirs);
  const speedup = composer.median / packyard.median;
  item('Packyard full sync', spreadLine(packyard));
  item("Composer's VCS driver, same repository", spreadLine(composer));
  item('Composer / Packyard (medians)', `${fmt.ratio(speedup)}x`);
  const running = spread(again);
  const runningSpeedup = composer.median / running.median;
  item('Packyard full sync, on a server that synced before', spreadLine(running));
  item('Composer / that (medians)', `${fmt.ratio(runningSpeedup)}x`);
  const pairs = ours.map((ms, i) => (theirs[i] ?? 0) / ms);
  item('the same, round by round', pairs.map((r) => `${fmt.ratio(r)}x`).join(', '));
  const cpu = spread(theirCpu).median / spread(ourCpu).median;
  item(
    'CPU seconds, medians (Composer / Packyard)',
    `${fmt.s(spread(theirCpu).median)} / ${fmt.s(spread(ourCpu).median)} = ${fmt.ratio(cpu)}x`,
  );
  const push = await benchPush(work, adminToken, [s.tags, 2], 9, (tags) =>
    tags === s.tags ? pushProfileDir : null,
  );
  const seconds = ours.reduce((a, b) => a + b, 0) / ours.length / 1000;
  return {
    rounds: ours.map((ms) => ms / 1000),
    seconds,
    versions,
    fromTags,
    profileSkipMs,
    packyard,
    composer,
    speedup,
    running,
    runningSpeedup,
    packyardCpu: ourCpu,
    composerCpu: theirCpu,
    push,
  };
}
