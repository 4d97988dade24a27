/**
 * The price of one serve behaving as one process: the latency of a grant change (a write that
 * moves the tenant's access generation) on `packyard serve` with WEB_CONCURRENCY=2, each request
 * on a fresh connection as a new user's curl would send it. Run with `npm run bench:writes`; set
 * CHANGES (default 300) for more. Prints p50/p99 in milliseconds.
 */
import fs from 'node:fs';
import { send, startServe } from './http.js';

const CHANGES = Number(process.env.CHANGES ?? 300);

async function main(): Promise<void> {
  const { server, dataDir } = await startServe('writes', { WEB_CONCURRENCY: '2' });
  try {
    const api = `${server.url}/api/v1`;
    // Every request on a fresh connection, as a new user's curl sends it.
    const fresh = { fresh: true };
    await send(`${api}/packages`, 'POST', { name: 'bench/writes', type: 'artifact' }, fresh);
    const customer = JSON.parse(
      (await send(`${api}/customers`, 'POST', { name: 'W', email: 'w@example.test' }, fresh)).text,
    ) as { id: string };
    const times: number[] = [];
    for (let i = 0; i < CHANGES + 20; i++) {
      const constraint = i % 2 === 0 ? '^1.0' : '*';
      const started = performance.now();
      const res = await send(
        `${api}/customers/${customer.id}/packages`,
        'PUT',
        { packages: [{ package: 'bench/writes', constraint }] },
        fresh,
      );
      if (res.status !== 200) throw new Error(`grant change -> ${res.status} ${res.text}`);
      // The first 20 warm both processes up.
      if (i >= 20) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    console.log(
      `grant change on WEB_CONCURRENCY=2 (${CHANGES} changes, fresh connections): ` +
        `p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`,
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
