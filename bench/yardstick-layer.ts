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
import { answerConnectionsFirst } from '../src/http/fast-connections.js';
import type { FastAnswerer } from '../src/http/fast-answer.js';
import { render } from '../src/areas/composer-repository/rendered-document.js';
import { MICRO_SECRET, fmt, microCache, microRounds } from './micro.js';
import { basicAuth } from './packyard.js';

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
    '/p2/acme/small.json': render({ filler: 'x'.repeat(4_300) }, new Date()),
    '/p2/acme/large.json': render({ filler: 'x'.repeat(26_700) }, new Date()),
  };
  const { cache, limits } = microCache(docs);
  const fastPath = createP2FastPath(cache, limits.fastPathGate);
  // What wrk sends: the request line, Host, the Basic credentials and (gzip runs) Accept-Encoding.
  const request = (path: string, gzip: boolean) =>
    Buffer.from(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: ${basicAuth(MICRO_SECRET)}\r\n` +
        (gzip ? 'Accept-Encoding: gzip\r\n' : '') +
        '\r\n',
      'latin1',
    );
  await microRounds(
    `connection layer in process, ${fmt.int(CALLS)} answers`,
    [
      ['small, identity', request('/p2/acme/small.json', false)],
      ['small, gzip', request('/p2/acme/small.json', true)],
      ['50-version size, identity', request('/p2/acme/large.json', false)],
    ],
    (req) => cpuNsPerAnswer(fastPath, req),
  );
  await limits.close();
}

main().catch((err: unknown) => {
  console.error('\nbench failed:', err);
  process.exitCode = 1;
});
