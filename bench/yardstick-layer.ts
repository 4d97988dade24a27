/**
 * The connection layer's own cost per answer, in this process: `node --import tsx
 * bench/yardstick-layer.ts`. A request as wrk sends it is fed to the layer of
 * src/http/fast-connections.ts over a socket that swallows what is written, so the figure is the
 * parsing, the fast path (credentials, digest, cache lookups, the rate-limit count) and the
 * answer's bytes, without the kernel or the event loop. Each figure is the median round
 * (BENCH_MICRO_ROUNDS, 9; BENCH_MICRO_CALLS per round, 200,000).
 */
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import type net from 'node:net';
import { createP2FastPath } from '../src/areas/composer-repository/fast-path.js';
import { ResponseCache, render } from '../src/areas/composer-repository/response-cache.js';
import type { Config } from '../src/config/index.js';
import { CacheGeneration } from '../src/infra/cache-generation.js';
import { digest } from '../src/infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { Db } from '../src/infra/db/connection.js';
import { createRateLimiting } from '../src/http/rate-limit.js';
import { answerConnectionsFirst } from '../src/http/fast-connections.js';
import type { FastAnswerer } from '../src/http/fast-answer.js';
import { basicAuth } from './packyard.js';
import { fmt, heading, item } from './report.js';

const ROUNDS = Number(process.env.BENCH_MICRO_ROUNDS) || 9;
const CALLS = Number(process.env.BENCH_MICRO_CALLS) || 200_000;

/** Just enough of a net.Socket for the layer: every write is taken at once and dropped. */
class SinkSocket extends EventEmitter {
  bytes = 0;
  writableNeedDrain = false;
  destroyed = false;
  setNoDelay() {}
  setTimeout() {}
  cork() {}
  uncork() {}
  pause() {}
  resume() {}
  write(chunk: Buffer | string) {
    this.bytes += chunk.length;
    return true;
  }
  end() {}
  destroy() {
    this.destroyed = true;
  }
  unshift() {
    throw new Error('the layer handed the connection over');
  }
}

function cpuNsPerAnswer(answerer: FastAnswerer, request: Buffer): number {
  const server = new EventEmitter() as unknown as http.Server;
  Object.assign(server, {
    keepAliveTimeout: 5000,
    headersTimeout: 60_000,
    listening: true,
    closeIdleConnections: () => {},
  });
  const stats = { answered: 0, handedOver: 0 };
  answerConnectionsFirst(server, answerer, stats);
  const socket = new SinkSocket();
  server.emit('connection', socket as unknown as net.Socket);
  const started = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) socket.emit('data', request);
  const used = process.cpuUsage(started);
  if (stats.answered !== CALLS) throw new Error(`answered ${stats.answered} of ${CALLS}`);
  return ((used.user + used.system) * 1000) / CALLS;
}

async function main(): Promise<void> {
  const docs = {
    small: render({ packages: { 'acme/lib': [] }, filler: 'x'.repeat(4_300) }, new Date()),
    large: render({ packages: { 'acme/lib': [] }, filler: 'x'.repeat(26_700) }, new Date()),
  };
  const secret = 'pkt_micro0benchmark0secret0000000000abcdef';
  const cache = new ResponseCache(new CacheGeneration({} as Db));
  const audience = cache.remember(DEFAULT_TENANT_ID, digest(secret), 'fp', 0, []);
  cache.set(audience, 0, '/p2/acme/small.json', docs.small, []);
  cache.set(audience, 0, '/p2/acme/large.json', docs.large, []);
  const limits = createRateLimiting({
    config: {
      redisUrl: undefined,
      redisKeyPrefix: 'micro:',
      rateLimitAdminPerMinute: 0,
      rateLimitComposerPerMinute: 1_000_000_000,
    } as unknown as Pick<Config, 'redisUrl'>,
  } as Parameters<typeof createRateLimiting>[0]);
  const fastPath = createP2FastPath(cache, limits.fastPathGate);
  // What wrk sends: the request line, Host, the Basic credentials and (gzip runs) Accept-Encoding.
  const request = (path: string, gzip: boolean) =>
    Buffer.from(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: ${basicAuth(secret)}\r\n` +
        (gzip ? 'Accept-Encoding: gzip\r\n' : '') +
        '\r\n',
      'latin1',
    );
  const variants: [string, Buffer][] = [
    ['small, identity', request('/p2/acme/small.json', false)],
    ['small, gzip', request('/p2/acme/small.json', true)],
    ['50-version size, identity', request('/p2/acme/large.json', false)],
  ];
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (const [, req] of variants) cpuNsPerAnswer(fastPath, req); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const [name, req] of order) times.get(name)!.push(cpuNsPerAnswer(fastPath, req));
  }
  heading(`connection layer in process, ${fmt.int(CALLS)} answers x ${ROUNDS} rounds`);
  for (const [name, ns] of times) {
    const sorted = [...ns].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    item(
      name,
      `${(median / 1000).toFixed(2)} µs/answer (rounds ${(sorted[0]! / 1000).toFixed(2)}-${(sorted.at(-1)! / 1000).toFixed(2)})`,
    );
  }
  await limits.close();
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err);
  process.exitCode = 1;
});
