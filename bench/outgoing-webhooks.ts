/**
 * Outgoing webhooks (docs/webhooks-outgoing.md), against a real `packyard serve` (SQLite, one
 * process, its in-process worker) and a receiver in this process:
 *  (a) event-to-delivery latency: CHANGES (default 1,000) grant changes one after another, each
 *      waiting for its POST; the latency is from the change's HTTP answer (the commit is done by
 *      then) to the receiver having the POST, and also from the request's start;
 *  (b) throughput: 10 endpoints, THROUGHPUT_CHANGES (default 200) grant changes over 10 packages
 *      sent back to back; deliveries per second from the first change to the last POST received;
 *  (c) the outbox's price on a grant change: p50/p99 of the change with no endpoint and with one
 *      subscribed endpoint (the commit before the outbox is measured with `npm run bench:writes`
 *      on that commit; see the README).
 * Run with `npm run bench:webhooks`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { send, startServe } from './http.js';

const CHANGES = Number(process.env.CHANGES ?? 1000);
const THROUGHPUT_CHANGES = Number(process.env.THROUGHPUT_CHANGES ?? 200);

const pct = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Counts POSTs by event id; `waitFor(n)` resolves once n POSTs in all have arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let count = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { data: { package: string } };
      const key = `${event.data.package}`;
      if (!arrivals.has(key)) arrivals.set(key, at);
      count += 1;
      res.end();
      if (waiter && count >= waiter.n) {
        waiter.resolve();
        waiter = null;
      }
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get count() {
      return count;
    },
    reset() {
      count = 0;
      arrivals.clear();
    },
    waitFor(n: number) {
      if (count >= n) return Promise.resolve();
      return new Promise<void>((resolve) => (waiter = { n, resolve }));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function main() {
  const receiver = await startReceiver();
  const { server, dataDir } = await startServe('webhooks', { EDITION: 'pro' });
  const api = `${server.url}/api/v1`;
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await send(`${api}${url}`, method, body);
    if (res.status >= 300) throw new Error(`${method} ${url} -> ${res.status} ${res.text}`);
    return res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};
  };
  try {
    const packages = Array.from({ length: 10 }, (_, i) => `bench/hooks-${i}`);
    for (const name of packages) await ok('POST', '/packages', { name, type: 'artifact' });
    const customer = (await ok('POST', '/customers', { name: 'W', email: 'w@example.test' })) as {
      id: string;
    };
    let flip = 0;
    const change = (pkg = packages[0]!) => {
      flip += 1;
      return ok('PUT', `/customers/${customer.id}/packages`, {
        packages: [{ package: pkg, constraint: flip % 2 === 0 ? '^1.0' : '*' }],
      });
    };

    // (c) first half: no endpoint at all.
    const bare: number[] = [];
    for (let i = 0; i < 320; i++) {
      const started = performance.now();
      await change();
      if (i >= 20) bare.push(performance.now() - started);
    }

    // (a) one endpoint.
    const one = (await ok('POST', '/webhook-endpoints', {
      url: receiver.url,
      events: ['access.granted'],
    })) as { id: string };
    const fromAnswer: number[] = [];
    const fromStart: number[] = [];
    const withEndpoint: number[] = [];
    for (let i = 0; i < CHANGES + 20; i++) {
      const expected = receiver.count + 1;
      const started = performance.now();
      await change();
      const answered = performance.now();
      await receiver.waitFor(expected);
      const received = performance.now();
      if (i < 20) continue;
      fromAnswer.push(received - answered);
      fromStart.push(received - started);
      withEndpoint.push(answered - started);
    }
    await ok('DELETE', `/webhook-endpoints/${one.id}`);

    // (b) ten endpoints, changes back to back over ten packages.
    for (let i = 0; i < 10; i++) {
      await ok('POST', '/webhook-endpoints', { url: receiver.url, events: ['access.granted'] });
    }
    receiver.reset();
    const t0 = performance.now();
    for (let i = 0; i < THROUGHPUT_CHANGES; i++) await change(packages[i % packages.length]);
    const written = performance.now();
    await receiver.waitFor(THROUGHPUT_CHANGES * 10);
    const t1 = performance.now();

    console.log(`(a) event-to-delivery latency, 1 endpoint, ${CHANGES} changes:`);
    console.log(
      `    from the change's answer: p50 ${ms(pct(fromAnswer, 0.5))}, p99 ${ms(pct(fromAnswer, 0.99))}`,
    );
    console.log(
      `    from the change's request: p50 ${ms(pct(fromStart, 0.5))}, p99 ${ms(pct(fromStart, 0.99))}`,
    );
    console.log(
      `(b) throughput, 10 endpoints, ${THROUGHPUT_CHANGES} changes over 10 packages: ` +
        `${THROUGHPUT_CHANGES * 10} deliveries in ${((t1 - t0) / 1000).toFixed(2)} s = ` +
        `${((THROUGHPUT_CHANGES * 10 * 1000) / (t1 - t0)).toFixed(0)} deliveries/s ` +
        `(changes written in ${((written - t0) / 1000).toFixed(2)} s)`,
    );
    console.log(
      `(c) grant change: no endpoint p50 ${ms(pct(bare, 0.5))}, p99 ${ms(pct(bare, 0.99))}; ` +
        `one endpoint p50 ${ms(pct(withEndpoint, 0.5))}, p99 ${ms(pct(withEndpoint, 0.99))}`,
    );
  } finally {
    await server.stop();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
