import fs from 'node:fs';
import path from 'node:path';
import { createTaggedRepo } from './git-tags.js';
import { AdminApi, startPackyard } from './packyard.js';
import { fmt, item } from './report.js';
import type { Settings } from './settings.js';

export interface SyncRun {
  /** Seconds of each round, and their mean. */
  rounds: number[];
  seconds: number;
  versions: number;
  fromTags: number;
  /** How long the profiled (first) server ran before the sync started. */
  profileSkipMs: number;
}

/**
 * Adds a package whose repository has `s.tags` tags and times it until its sync is ok, once per
 * round, each time on a fresh server and DATA_DIR.
 */
export async function benchSync(
  s: Settings,
  work: string,
  adminToken: string,
  profileDir: string | null,
): Promise<SyncRun> {
  const name = 'bench/many-tags';
  const repo = createTaggedRepo(name, s.tags);
  const rounds: number[] = [];
  let versions = 0;
  let fromTags = 0;
  let profileSkipMs = 0;
  try {
    item(
      'repository (git fast-import)',
      `${fmt.int(repo.tags)} tags built in ${fmt.s(repo.seconds)}`,
    );
    for (let round = 1; round <= s.rounds; round++) {
      const dataDir = path.join(work, `sync-${round}`);
      const cpuProfDir = round === 1 ? profileDir : null;
      const server = await startPackyard({ dataDir, adminToken, cpuProfDir });
      try {
        const api = new AdminApi(server.url, adminToken);
        const started = performance.now();
        if (round === 1) profileSkipMs = started - server.startedAt;
        await api.addPackage(name, repo.url);
        const pkg = await api.waitForSync(name);
        const seconds = (performance.now() - started) / 1000;
        if (pkg.sync_status !== 'ok') {
          throw new Error(`Sync of ${name} ended ${pkg.sync_status}: ${pkg.sync_error ?? ''}`);
        }
        const isDev = (v: string) => v.startsWith('dev-') || v.endsWith('-dev');
        fromTags = pkg.versions.filter((v) => !isDev(v.version)).length;
        versions = pkg.versions.length;
        rounds.push(seconds);
        item(
          `round ${round}: POST /api/v1/packages -> ok`,
          `${fmt.s(seconds)}, ${fmt.int(versions)} versions created ` +
            `(${fmt.int(fromTags)} from tags, ${fmt.int(versions - fromTags)} from branches)`,
        );
      } finally {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    repo.remove();
  }
  const seconds = rounds.reduce((a, b) => a + b, 0) / rounds.length;
  item(`mean of ${rounds.length} rounds`, fmt.s(seconds));
  return { rounds, seconds, versions, fromTags, profileSkipMs };
}
