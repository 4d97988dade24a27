/**
 * The p2 hit path's own cost per answer, in this process: `node --import tsx
 * bench/yardstick-micro.ts`. Real IncomingMessage and ServerResponse objects over a socket that
 * swallows what is written, so the figure is the fast path (credentials, digest, cache lookups,
 * the rate-limit count, the header list) plus node's ServerResponse down to the socket write,
 * without the kernel, the HTTP parser or the event loop; the same for a bare `writeHead` + `end`
 * (what the node:http floor does) shows node's share. Variants run in alternating rounds and each
 * figure is the median round (BENCH_MICRO_ROUNDS, 9; BENCH_MICRO_CALLS per round, 100,000).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { createP2FastPath } from '../src/areas/composer-repository/fast-path.js';
import { ResponseCache, render } from '../src/areas/composer-repository/response-cache.js';
import type { Config } from '../src/config/index.js';
import { CacheGeneration } from '../src/infra/cache-generation.js';
import { digest } from '../src/infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { Db } from '../src/infra/db/connection.js';
import { createRateLimiting } from '../src/http/rate-limit.js';
import { basicAuth } from './packyard.js';
import { fmt, heading, item } from './report.js';

const ROUNDS = Number(process.env.BENCH_MICRO_ROUNDS) || 9;
const CALLS = Number(process.env.BENCH_MICRO_CALLS) || 100_000;
/** Answers between two turns of the event loop (which runs the writes' callbacks). */
const BATCH = 64;

/** A socket that takes every write at once and keeps nothing. */
function sink(): Socket {
  // As a net.Socket, strings (the head) go to the socket as they are, not first into a Buffer.
  const socket = new Writable({
    decodeStrings: false,
    write: (_chunk, _encoding, done) => done(),
    writev: (_chunks, done) => done(),
  });
  let bytes = 0;
  const write = socket.write.bind(socket);
  socket.write = ((chunk: Buffer | string, ...rest: never[]) => {
    bytes += chunk.length;
    return write(chunk, ...rest);
  }) as typeof socket.write;
  Object.defineProperty(socket, 'bytesWritten', { get: () => bytes });
  return socket as unknown as Socket;
}

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * CPU nanoseconds (this process's user and system time, so a busy machine's preemption does not
 * count) per answer of `answer`.
 */
async function timeIt(answer: Answer, headers: http.IncomingHttpHeaders, url: string) {
  const socket = sink();
  const started = process.cpuUsage();
  for (let done = 0; done < CALLS; done += BATCH) {
    for (let i = 0; i < BATCH; i++) {
      const req = new http.IncomingMessage(socket);
      req.method = 'GET';
      req.url = url;
      req.httpVersionMajor = 1;
      req.httpVersionMinor = 1;
      req.headers = headers;
      const res = new http.ServerResponse(req);
      res.shouldKeepAlive = true;
      res.assignSocket(socket);
      answer(req, res);
      res.detachSocket(socket);
    }
    await tick();
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / CALLS;
}

async function main(): Promise<void> {
  // About the size of the yardstick's 50-version document.
  const doc = render({ packages: { 'acme/lib': [] }, filler: 'x'.repeat(26_000) }, new Date());
  const secret = 'pkt_micro0benchmark0secret0000000000abcdef';
  const url = '/p2/acme/lib.json';
  const cache = new ResponseCache(new CacheGeneration({} as Db));
  const audience = cache.remember(DEFAULT_TENANT_ID, digest(secret), 'fp', 0, []);
  cache.set(audience, 0, url, doc, []);
  const limits = createRateLimiting({
    config: {
      redisUrl: undefined,
      redisKeyPrefix: 'micro:',
      rateLimitAdminPerMinute: 0,
      rateLimitComposerPerMinute: 1_000_000_000,
    } as unknown as Pick<Config, 'redisUrl'>,
  } as Parameters<typeof createRateLimiting>[0]);
  const withLimit = createP2FastPath(cache, limits.fastPathGate);
  const withoutLimit = createP2FastPath(cache);
  const floor: Answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': doc.body.length });
    res.end(doc.body);
  };
  const headers = { authorization: basicAuth(secret), host: '127.0.0.1' };
  const gzipHeaders = { ...headers, 'accept-encoding': 'gzip' };
  const variants: [string, Answer, http.IncomingHttpHeaders][] = [
    ['node:http floor (writeHead + end)', floor, headers],
    ['fast path, identity', withLimit.viaNodeHttp, headers],
    ['fast path, gzip', withLimit.viaNodeHttp, gzipHeaders],
    ['fast path, identity, no rate limit', withoutLimit.viaNodeHttp, headers],
  ];
  // BENCH_MICRO_ONLY=<text>: only the variants whose name contains it (to profile one).
  const only = process.env.BENCH_MICRO_ONLY;
  if (only) variants.splice(0, variants.length, ...variants.filter(([n]) => n.includes(only)));
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (const [, answer, h] of variants) await timeIt(answer, h, url); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const [name, answer, h] of order) times.get(name)!.push(await timeIt(answer, h, url));
  }
  if (withLimit.hits === 0) throw new Error('the fast path answered nothing');
  heading(`p2 hit path in process, ${fmt.int(CALLS)} answers x ${ROUNDS} rounds`);
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
