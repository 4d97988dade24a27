import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TEST_DATABASE, basicAuth, waitFor } from './helpers.js';
import { childrenOf, fresh, startServe } from './cluster-helpers.js';
import type { Serve } from './cluster-helpers.js';
import { packageZip } from '../src/areas/artifacts/test-zips.js';

/** `packyard serve` with WEB_CONCURRENCY=2 on fresh data, once both processes listen. */
const startCluster = (label: string, env: Record<string, string> = {}): Promise<Serve> =>
  startServe({ label, env });

describe.skipIf(TEST_DATABASE !== 'sqlite')('packyard serve with WEB_CONCURRENCY=2', () => {
  let serve: Serve;
  let server: Serve['server'];
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const api = async (method: string, url: string, payload?: unknown) => {
    const res = await fresh(
      `${server.url}/api/v1${url}`,
      { ...admin, 'content-type': 'application/json' },
      method,
      payload === undefined ? undefined : Buffer.from(JSON.stringify(payload)),
    );
    if (res.status >= 400) throw new Error(`${method} ${url} -> ${res.status} ${res.body}`);
    return res.body ? (JSON.parse(res.body) as Record<string, unknown>) : null;
  };

  beforeAll(async () => {
    serve = await startCluster('cluster');
    server = serve.server;
  }, 120_000);

  afterAll(async () => {
    await serve?.stop();
  });

  it('serves a change made through one process from every process at once', async () => {
    await api('POST', '/packages', { name: 'acme/clustered', type: 'artifact' });
    const zip = packageZip({ name: 'acme/clustered', version: '1.0.0' }, { 'a.php': '<?php' });
    const up = await fresh(
      `${server.url}/api/v1/packages/acme/clustered/artifacts`,
      { ...admin, 'content-type': 'application/zip' },
      'POST',
      zip,
    );
    expect(up.status).toBe(201);
    const customer = await api('POST', '/customers', { name: 'C', email: 'c@example.test' });
    const id = String(customer?.id);
    await api('POST', `/customers/${id}/packages`, { package: 'acme/clustered', constraint: '*' });
    const token = String(
      (await api('POST', `/customers/${id}/tokens`, { name: 't', scope: 'download' }))?.plain_token,
    );
    const auth = { authorization: basicAuth(token) };
    const p2 = `${server.url}/p2/acme/clustered.json`;
    // Warm the response cache of both processes, then revoke through one of them.
    for (let i = 0; i < 4; i++) expect((await fresh(p2, auth)).status).toBe(200);
    await api('DELETE', `/customers/${id}/packages/acme/clustered`);
    // The processes take fresh connections in turn: both answer right after the write did.
    const answers = await Promise.all([fresh(p2, auth), fresh(p2, auth)]);
    expect(answers.map((a) => a.status)).toEqual([403, 403]);
  });

  it('replaces a serving process that dies', async () => {
    const [victim, survivor] = childrenOf(server.pid);
    // Requests keep flowing while the process dies, so the primary is relaying rate-limit counts
    // to it at that moment.
    let flowing = true;
    const traffic = (async () => {
      while (flowing)
        await fresh(`${server.url}/p2/acme/clustered.json`, {}).catch(() => undefined);
    })();
    process.kill(victim!, 'SIGKILL');
    const after = await waitFor(
      async () => childrenOf(server.pid),
      (pids) => pids.length === 2 && !pids.includes(victim!),
      // A loaded machine (the whole suite at once) can take many seconds to start a process.
      { timeoutMs: 40_000, intervalMs: 50 },
    )
      .catch((err: unknown) => {
        // Say whether the primary itself is gone, and what it wrote, so a failure can be read.
        let primary = 'alive';
        try {
          process.kill(server.pid, 0);
        } catch {
          primary = 'gone';
        }
        throw new Error(
          `${(err as Error).message}; primary ${primary}; its output:\n${server.recentOutput}`,
        );
      })
      .finally(() => (flowing = false));
    await traffic;
    expect(after).toContain(survivor);
    // Once the new process listens, every connection is answered again.
    await waitFor(
      () =>
        Promise.all(
          Array.from({ length: 6 }, () =>
            fresh(`${server.url}/healthz`, {}).then(
              (r) => r.status,
              () => 0,
            ),
          ),
        ),
      (codes) => codes.every((c) => c === 200),
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  }, 90_000);
});

describe.skipIf(TEST_DATABASE !== 'sqlite')('a WEB_CONCURRENCY=2 cluster without Redis', () => {
  let serve: Serve;
  let server: Serve['server'];
  const LIMIT = 10;

  beforeAll(async () => {
    serve = await startCluster('cluster-rate-limit', {
      RATE_LIMIT_COMPOSER_PER_MINUTE: String(LIMIT),
    });
    server = serve.server;
  }, 120_000);

  afterAll(async () => {
    await serve?.stop();
  });

  it('shares rate-limit counts between its processes through the primary', async () => {
    // Each request on a new connection goes to the next process in turn; counted per process,
    // twice the limit would pass. Windows are whole clock minutes shared by the processes: start
    // well inside one, so the burst is not split by a new window.
    await waitFor(
      async () => Date.now() % 60_000,
      (ms) => ms < 45_000,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const statuses: number[] = [];
    for (let i = 0; i < 3 * LIMIT; i++) {
      statuses.push((await fresh(`${server.url}/packages.json`, {})).status);
    }
    const passed = statuses.filter((s) => s !== 429).length;
    expect(passed).toBeGreaterThanOrEqual(LIMIT);
    expect(passed).toBeLessThan(LIMIT + 3);
    expect(statuses.slice(-LIMIT).every((s) => s === 429)).toBe(true);
  });
});
