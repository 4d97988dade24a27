import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTaggedRepo } from './git-tags.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import { sleep } from './processes.js';
import { fmt, item } from './report.js';
import { appendRelease } from './sync-repo.js';

export interface Spread {
  /** Milliseconds of each round, in the order they ran. */
  rounds: number[];
  median: number;
  min: number;
  max: number;
}

export function spread(rounds: number[]): Spread {
  const sorted = [...rounds].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(mid)] ?? 0)
      : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { rounds, median, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

export const spreadLine = (s: Spread) =>
  `median ${fmt.ms(s.median)} (${fmt.ms(s.min)}–${fmt.ms(s.max)} over ${s.rounds.length} rounds)`;

/**
 * Polls the package list (`?q=<name>`, no versions in it, so the poll costs the server little)
 * until the package's sync is neither pending nor running; answers its status and error.
 */
export async function waitSynced(
  api: AdminApi,
  name: string,
  intervalMs = 5,
): Promise<{ sync_status: string; sync_error: string | null }> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const page = await api.request<{
      data: { name: string; sync_status: string; sync_error: string | null }[];
    }>('GET', `/api/v1/packages?q=${encodeURIComponent(name)}&per_page=5`);
    const pkg = page.data.find((p) => p.name === name);
    if (pkg && pkg.sync_status !== 'pending' && pkg.sync_status !== 'running') return pkg;
    if (Date.now() > deadline) throw new Error(`Sync of ${name} did not finish`);
    await sleep(intervalMs);
  }
}

/** Polls a task by id (one row, cheap for the server) until it is done or failed. */
export async function waitTask(
  api: AdminApi,
  id: string,
  intervalMs = 5,
): Promise<{ status: string; error: string | null }> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const task = await api.request<{ status: string; error: string | null }>(
      'GET',
      `/api/v1/tasks/${id}`,
    );
    if (task.status === 'done' || task.status === 'failed') return task;
    if (Date.now() > deadline) throw new Error(`Task ${id} did not finish`);
    await sleep(intervalMs);
  }
}

export interface PushRun {
  tags: number;
  /** How long the (profiled) server ran before the first measured round. */
  profileSkipMs: number;
  /** From the signed delivery's POST to the first p2 answer listing the new tag. */
  webhook: Spread;
  /** From `POST /packages/{name}/sync` to the first p2 answer listing the new tag. */
  manual: Spread;
}

const SECRET = 'bench-webhook-secret';

/**
 * A package with `tags` tags, synced; then, round after round, one more release is pushed to its
 * repository and announced, alternately by a signed GitHub push delivery and by the admin API's
 * sync, and timed until `GET /p2/<name>.json` (a customer's token, polled every 2 ms) lists it.
 */
export async function benchPush(
  work: string,
  adminToken: string,
  tags: number,
  rounds: number,
  cpuProfDir: string | null = null,
): Promise<PushRun> {
  const name = tags > 10 ? 'bench/many-tags' : 'bench/few-tags';
  const repo = createTaggedRepo(name, tags);
  const dataDir = path.join(work, `push-${tags}`);
  const server = await startPackyard({
    dataDir,
    adminToken,
    env: { GITHUB_WEBHOOK_SECRET: SECRET },
    cpuProfDir,
  });
  let profileSkipMs = 0;
  const webhook: number[] = [];
  const manual: number[] = [];
  try {
    const api = new AdminApi(server.url, adminToken);
    await api.addPackage(name, repo.url);
    const first = await waitSynced(api, name, 10);
    if (first.sync_status !== 'ok') throw new Error(`first sync: ${first.sync_error ?? ''}`);
    const token = await api.customerWithToken([name], '*');
    const p2 = `${server.url}/p2/${name}.json`;
    const headers = { authorization: basicAuth(token) };
    // Polled as Composer revalidates: If-Modified-Since, so an unchanged document is a 304.
    let since: string | null = null;
    const lists = async (tag: string) => {
      const res = await fetch(p2, {
        headers: {
          ...headers,
          'accept-encoding': 'gzip',
          ...(since ? { 'if-modified-since': since } : {}),
        },
      });
      const text = await res.text();
      if (res.status === 304) return false;
      if (res.status !== 200) throw new Error(`GET ${p2} -> ${res.status} ${text}`);
      since = res.headers.get('last-modified');
      return text.includes(`"version":"${tag}"`);
    };
    await lists('none');
    // Warm-up: one of each, not counted (first requests of a new process are slower).
    for (let round = 0; round < rounds * 2 + 2; round++) {
      const tag = `v2.${Math.floor(round / 10)}.${round % 10}`;
      const commit = appendRelease(repo.dir, name, tag, tags + round);
      const viaWebhook = round % 2 === 0;
      const started = performance.now();
      if (viaWebhook) await deliverPush(server.url, repo.url, tag, commit);
      else await api.request('POST', `/api/v1/packages/${name}/sync`);
      while (!(await lists(tag))) await sleep(2);
      const ms = performance.now() - started;
      // The sync has published; let it finish (its task row) before the next round.
      const after = await waitSynced(api, name);
      if (after.sync_status !== 'ok') throw new Error(`sync: ${after.sync_error ?? ''}`);
      if (round < 2) {
        profileSkipMs = performance.now() - server.startedAt;
        continue;
      }
      (viaWebhook ? webhook : manual).push(ms);
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    repo.remove();
  }
  const run = { tags, profileSkipMs, webhook: spread(webhook), manual: spread(manual) };
  item(`${fmt.int(tags)} tags: signed push -> p2 lists it`, spreadLine(run.webhook));
  item(`${fmt.int(tags)} tags: POST .../sync -> p2 lists it`, spreadLine(run.manual));
  return run;
}

/** A GitHub `push` of a new tag, signed with X-Hub-Signature-256 as GitHub sends it. */
async function deliverPush(baseUrl: string, repoUrl: string, tag: string, commit: string) {
  const body = JSON.stringify({
    ref: `refs/tags/${tag}`,
    before: '0'.repeat(40),
    after: commit,
    created: true,
    deleted: false,
    repository: { id: 1, name: 'repo', full_name: 'bench/repo', clone_url: repoUrl },
    pusher: { name: 'bench', email: 'bench@packyard.test' },
  });
  const signature = crypto.createHmac('sha256', SECRET).update(body).digest('hex');
  const res = await fetch(`${baseUrl}/api/webhooks/github`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': `sha256=${signature}`,
    },
    body,
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`webhook -> ${res.status} ${text}`);
}
