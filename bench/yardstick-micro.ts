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
import { render } from '../src/areas/composer-repository/rendered-document.js';
import { MICRO_SECRET, fmt, microCache, microRounds } from './micro.js';
import { basicAuth } from './packyard.js';

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
  const url = '/p2/acme/lib.json';
  const { cache, limits } = microCache({ [url]: doc });
  const withLimit = createP2FastPath(cache, limits.fastPathGate);
  const withoutLimit = createP2FastPath(cache);
  const floor: Answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': doc.body.length });
    res.end(doc.body);
  };
  const headers = { authorization: basicAuth(MICRO_SECRET), host: '127.0.0.1' };
  const gzipHeaders = { ...headers, 'accept-encoding': 'gzip' };
  const variants: [string, [Answer, http.IncomingHttpHeaders]][] = [
    ['node:http floor (writeHead + end)', [floor, headers]],
    ['fast path, identity', [withLimit.viaNodeHttp, headers]],
    ['fast path, gzip', [withLimit.viaNodeHttp, gzipHeaders]],
    ['fast path, identity, no rate limit', [withoutLimit.viaNodeHttp, headers]],
  ];
  // BENCH_MICRO_ONLY=<text>: only the variants whose name contains it (to profile one).
  const only = process.env.BENCH_MICRO_ONLY;
  if (only) variants.splice(0, variants.length, ...variants.filter(([n]) => n.includes(only)));
  await microRounds(`p2 hit path in process, ${fmt.int(CALLS)} answers`, variants, ([a, h]) =>
    timeIt(a, h, url),
  );
  if (withLimit.hits === 0 && !only) throw new Error('the fast path answered nothing');
  await limits.close();
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err);
  process.exitCode = 1;
});
