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
/** Between two polls of the p2 document: bounds the error of each figure, loads the server little. */
const POLL_MS = 4;

/** One server with one package of `tags` tags, synced, and a customer's token for its p2. */
interface Subject {
  tags: number;
  name: string;
  repo: ReturnType<typeof createTaggedRepo>;
  server: Awaited<ReturnType<typeof startPackyard>>;
  dataDir: string;
  api: AdminApi;
  lists: (tag: string) => Promise<boolean>;
  run: PushRun & { webhookMs: number[]; manualMs: number[] };
}

async function subject(work: string, adminToken: string, tags: number, cpuProfDir: string | null) {
  const name = `bench/push-${tags}`;
  const repo = createTaggedRepo(name, tags);
  const dataDir = path.join(work, `push-${tags}`);
  const server = await startPackyard({
    dataDir,
    adminToken,
    env: { GITHUB_WEBHOOK_SECRET: SECRET },
    cpuProfDir,
  });
  const api = new AdminApi(server.url, adminToken);
  await api.addPackage(name, repo.url);
  const first = await waitSynced(api, name, 10);
  if (first.sync_status !== 'ok') throw new Error(`first sync: ${first.sync_error ?? ''}`);
  const p2 = `${server.url}/p2/${name}.json`;
  const authorization = basicAuth(await api.customerWithToken([name], '*'));
  // Polled as Composer revalidates: If-Modified-Since, so an unchanged document is a 304.
  let since: string | null = null;
  const lists = async (tag: string) => {
    const res = await fetch(p2, {
      headers: {
        authorization,
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
  const run = { tags, profileSkipMs: 0, webhook: spread([]), manual: spread([]) };
  return {
    tags,
    name,
    repo,
    server,
    dataDir,
    api,
    lists,
    run: { ...run, webhookMs: [], manualMs: [] },
  };
}

/**
 * For each of `sizes`, a server with a package of that many tags, synced; then, round after
 * round and server after server (in alternating order, so the machine's drift favours none),
 * one more release is pushed to the repository and announced, alternately by a signed GitHub
 * push delivery and by the admin API's sync, and timed until `GET /p2/<name>.json` (a customer's
 * token, polled every 4 ms with If-Modified-Since, as Composer revalidates) lists it. The first
 * round of each kind is a warm-up.
 */
export async function benchPush(
  work: string,
  adminToken: string,
  sizes: number[],
  rounds: number,
  profileDirOf: (tags: number) => string | null = () => null,
): Promise<PushRun[]> {
  const subjects: Subject[] = [];
  try {
    for (const tags of sizes)
      subjects.push(await subject(work, adminToken, tags, profileDirOf(tags)));
    for (let round = 0; round < rounds * 2 + 2; round++) {
      const order = round % 4 < 2 ? subjects : [...subjects].reverse();
      for (const s of order) {
        const tag = `v2.${Math.floor(round / 10)}.${round % 10}`;
        const commit = appendRelease(s.repo.dir, s.name, tag, s.tags + round);
        const viaWebhook = round % 2 === 0;
        const started = performance.now();
        if (viaWebhook) await deliverPush(s.server.url, s.repo.url, tag, commit);
        else await s.api.request('POST', `/api/v1/packages/${s.name}/sync`);
        while (!(await s.lists(tag))) await sleep(POLL_MS);
        const ms = performance.now() - started;
        // The sync has published; let it finish (its task row) before the next round.
        const after = await waitSynced(s.api, s.name);
        if (after.sync_status !== 'ok') throw new Error(`sync: ${after.sync_error ?? ''}`);
        if (round < 2) s.run.profileSkipMs = performance.now() - s.server.startedAt;
        else (viaWebhook ? s.run.webhookMs : s.run.manualMs).push(ms);
      }
    }
  } finally {
    for (const s of subjects) {
      await s.server.stop();
      fs.rmSync(s.dataDir, { recursive: true, force: true });
      s.repo.remove();
    }
  }
  return subjects.map(({ tags, run }) => {
    const done = {
      tags,
      profileSkipMs: run.profileSkipMs,
      webhook: spread(run.webhookMs),
      manual: spread(run.manualMs),
    };
    item(`${fmt.int(tags)} tags: signed push -> p2 lists it`, spreadLine(done.webhook));
    item(`${fmt.int(tags)} tags: POST .../sync -> p2 lists it`, spreadLine(done.manual));
    return done;
  });
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
