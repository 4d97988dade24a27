/**
 * The price of the change log for mirrors (`GET /metadata/changes.json`, docs/composer.md): its
 * latency for a token whose window holds 0 events and EVENTS events (default 10,000, the most an
 * answer reads before it becomes a resync), on a real `packyard serve` over SQLite. The events
 * are another customer's grant changes, so the measured token reads them all and keeps none: the
 * scan's worst case. Run with `node --import tsx bench/change-log.ts`; ROUNDS (default 200)
 * requests per case. Prints p50/p99 in milliseconds.
 */
import fs from 'node:fs';
import { ADMIN_TOKEN, call, startServe } from './http.js';

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

/** An API call's JSON answer (an empty body is `{}`). */
async function json(url: string, method: string, auth: string, body?: unknown) {
  const text = await call(url, method, body, { auth });
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function timed(url: string, auth: string): Promise<string> {
  const times: number[] = [];
  let actions = 0;
  for (let i = 0; i < ROUNDS + 10; i++) {
    const started = performance.now();
    const body = await json(url, 'GET', auth);
    const ms = performance.now() - started;
    actions = (body.actions as unknown[]).length;
    if (i >= 10) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return `p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms (${actions} actions)`;
}

async function main(): Promise<void> {
  const { server, dataDir } = await startServe('changes', { RATE_LIMIT_COMPOSER_PER_MINUTE: '0' });
  try {
    const api = `${server.url}/api/v1`;
    const admin = `Bearer ${ADMIN_TOKEN}`;
    await json(`${api}/packages`, 'POST', admin, { name: 'bench/a', type: 'artifact' });
    await json(`${api}/packages`, 'POST', admin, { name: 'bench/b', type: 'artifact' });
    const churn = (await json(`${api}/customers`, 'POST', admin, {
      name: 'Churn',
      email: 'churn@example.test',
    })) as { id: string };
    const mirror = (await json(`${api}/customers`, 'POST', admin, {
      name: 'Mirror',
      email: 'mirror@example.test',
    })) as { id: string };
    await json(`${api}/customers/${mirror.id}/packages`, 'POST', admin, {
      package: 'bench/a',
      constraint: '*',
    });
    const token = (await json(`${api}/customers/${mirror.id}/tokens`, 'POST', admin, {
      name: 'mirror',
    })) as { plain_token: string };
    const auth = `Basic ${Buffer.from(`token:${token.plain_token}`).toString('base64')}`;
    const since = Date.now() * 10;
    // A grant and its revocation: two events (access.granted, access.revoked).
    for (let i = 0; i < EVENTS / 2; i++) {
      await json(`${api}/customers/${churn.id}/packages`, 'POST', admin, {
        package: 'bench/b',
        constraint: '*',
      });
      await json(`${api}/customers/${churn.id}/packages/bench/b`, 'DELETE', admin);
    }
    const empty = await timed(`${server.url}/metadata/changes.json?since=${Date.now() * 10}`, auth);
    const full = await timed(`${server.url}/metadata/changes.json?since=${since}`, auth);
    console.log(`changes.json, no event in the window: ${empty}`);
    console.log(`changes.json, ${EVENTS} events of another customer in the window: ${full}`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
