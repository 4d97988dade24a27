import type http from 'node:http';
import type net from 'node:net';
import type { ConnectionMemo, FastAnswer, FastAnswerer, FastRequest } from './fast-answer.js';

/**
 * The connection layer under node:http for metadata cache hits (docs/composer.md, "Caching and
 * archives"). Every new connection is read here first: a request that is a plain `GET` the fast
 * path answers from memory is answered on the socket directly, without node:http's request and
 * response objects, which cost more than the answer. The first request that is
 * anything else (another method or path, a body, an upgrade, HTTP/1.0, a header this parser does
 * not read plainly, a cache miss) hands the connection, with every byte not yet answered, to
 * node:http for good, at a request boundary and with no answer pending. So the framework sees
 * each request it gets exactly as the client sent it, and this parser never has to be complete:
 * only strict.
 */

/** A head longer than this goes to node:http, which applies its own limit (431). */
const MAX_HEAD_BYTES = 8 * 1024;
const END_OF_HEAD = Buffer.from('\r\n\r\n');
const REASONS: Record<FastAnswer['status'], string> = {
  200: 'OK',
  304: 'Not Modified',
  429: 'Too Many Requests',
};
/**
 * A whole head this parser reads: `GET <origin-form target> HTTP/1.1`, then header lines of a
 * token name, a colon and printable ASCII or tab, separated by CRLF. Anything else (a bare CR or
 * LF, a folded line, a space before the colon, a byte outside printable ASCII) goes to node:http.
 */
const HEAD = /^GET (\/[!-~]*) HTTP\/1\.1((?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e]*)*)$/;
/** The headers the fast path reads; a repeated one goes to node:http (which has its rules). */
const READ_NAMES = [
  'authorization',
  'host',
  'accept-encoding',
  'if-none-match',
  'if-modified-since',
] as const;
const READ = new Set<string>(READ_NAMES);
/** Headers that change how a request is framed or answered: such requests go to node:http. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te']);

interface Head {
  request: FastRequest;
  /** `Connection: close`: the connection ends after the answer. */
  close: boolean;
}

/** The request head (without its final empty line), or null when node:http must read it. */
export function parseHead(text: string, memo?: ConnectionMemo): Head | null {
  const match = HEAD.exec(text);
  if (!match) return null;
  // One shape for every request's headers (the fast path reads them on every answer).
  const headers: Record<(typeof READ_NAMES)[number], string | undefined> = {
    authorization: undefined,
    host: undefined,
    'accept-encoding': undefined,
    'if-none-match': undefined,
    'if-modified-since': undefined,
  };
  let close = false;
  const lines = match[2]!;
  // Each header line starts after a CRLF; the regular expression has checked every byte.
  for (let start = 2; start < lines.length;) {
    let end = lines.indexOf('\r\n', start);
    if (end < 0) end = lines.length;
    const colon = lines.indexOf(':', start);
    const name = lines.slice(start, colon).toLowerCase();
    start = end + 2;
    if (READ.has(name)) {
      const known = name as (typeof READ_NAMES)[number];
      if (headers[known] !== undefined) return null;
      headers[known] = lines.slice(colon + 1, end).trim();
    } else if (FRAMING.has(name)) {
      return null;
    } else if (name === 'connection') {
      const value = lines.slice(colon + 1, end);
      if (/upgrade/i.test(value)) return null;
      if (/(^|[\s,])close([\s,]|$)/i.test(value)) close = true;
    }
  }
  // HTTP/1.1 requires Host; node:http answers its absence with 400.
  if (headers.host === undefined) return null;
  return { request: { method: 'GET', url: match[1]!, headers, memo }, close };
}

let dateSecond = -1;
let dateValue = '';
/** The Date header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(second * 1000).toUTCString();
  }
  return dateValue;
}

function write(socket: net.Socket, answer: FastAnswer, close: boolean): void {
  const { status, headers, body, wire } = answer;
  const own = wire ? (answer.wireAfter ?? 0) : headers.length;
  let head = `HTTP/1.1 ${status} ${REASONS[status]}\r\n`;
  for (let i = 0; i < own; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  head += `date: ${httpDate()}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\n`;
  if (wire) {
    // The rest of the head and the body, prepared with the document: one writev of the two.
    socket.write(head, 'latin1');
    socket.write(wire);
    return;
  }
  // Without a prepared wire: a 304 or a 429, whose bodies (if any) are small.
  head += '\r\n';
  const bytes = Buffer.from(head, 'latin1');
  socket.write(body ? Buffer.concat([bytes, body], bytes.length + body.length) : bytes);
}

/** What the layer did, for tests and benchmarks: answers it wrote, connections it handed over. */
export interface FastConnectionStats {
  answered: number;
  handedOver: number;
}

/**
 * Puts the fast connection layer in front of `server`'s own connection handling. Idle fast
 * connections close with the server's keep-alive timeout and with `closeIdleConnections`.
 */
export function answerConnectionsFirst(
  server: http.Server,
  answerer: FastAnswerer,
  stats: FastConnectionStats,
): void {
  const handlers = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  const handOver = (socket: net.Socket) => {
    for (const handler of handlers) handler.call(server, socket);
  };
  const live = new Set<FastConnection>();
  server.on('connection', (socket: net.Socket) => {
    const connection = new FastConnection(socket, server, answerer, handOver, live, stats);
    live.add(connection);
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const connection of live) connection.closeIfIdle();
    closeIdle();
  };
}

class FastConnection {
  private pending: Buffer | null = null;
  /** An answer waits for a shared counter: nothing else is read or answered meanwhile. */
  private waiting = false;
  private done = false;
  /** When the head still incomplete in `pending` began to arrive (0: none is). */
  private headSince = 0;
  /** What the answerer keeps between this connection's requests. */
  private readonly memo: ConnectionMemo = {};
  private readonly onData = (chunk: Buffer) => {
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.serve();
  };
  private readonly onTimeout = () => {
    if (!this.waiting) this.socket.destroy();
  };
  private readonly onDrain = () => {
    this.socket.resume();
    this.serve();
  };
  private readonly onEnd = () => this.leave();

  constructor(
    private readonly socket: net.Socket,
    private readonly server: http.Server,
    private readonly answerer: FastAnswerer,
    private readonly handOver: (socket: net.Socket) => void,
    private readonly live: Set<FastConnection>,
    private readonly stats: FastConnectionStats,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(server.keepAliveTimeout || 5000);
    socket.on('data', this.onData);
    socket.on('timeout', this.onTimeout);
    socket.on('drain', this.onDrain);
    socket.on('error', this.onEnd);
    socket.on('close', this.onEnd);
  }

  closeIfIdle(): void {
    if (!this.waiting && !this.pending) this.socket.destroy();
  }

  /** Answers the complete requests buffered, in order, until one must go to node:http. */
  private serve(): void {
    const socket = this.socket;
    socket.cork();
    try {
      while (this.pending && !this.waiting && !this.done && !socket.writableNeedDrain) {
        const pending = this.pending;
        const end = pending.indexOf(END_OF_HEAD);
        if (end < 0) {
          if (pending.length > MAX_HEAD_BYTES) return this.handOverNow();
          // A head that trickles in for longer than node:http allows a head to take ends here.
          this.headSince ||= Date.now();
          if (Date.now() - this.headSince > this.server.headersTimeout) socket.destroy();
          return;
        }
        this.headSince = 0;
        if (end > MAX_HEAD_BYTES) return this.handOverNow();
        const head = parseHead(pending.toString('latin1', 0, end), this.memo);
        const result = head ? this.answerer(head.request) : null;
        if (!head || result === null) return this.handOverNow();
        this.pending = end + 4 < pending.length ? pending.subarray(end + 4) : null;
        // The server is closing: this answer is the connection's last, as node:http does.
        const close = head.close || !this.server.listening;
        if (result instanceof Promise) {
          this.waiting = true;
          result.then(
            (answer) => {
              this.waiting = false;
              this.send(answer, close);
              this.serve();
            },
            () => socket.destroy(),
          );
          return;
        }
        this.send(result, close);
      }
      if (socket.writableNeedDrain) socket.pause();
    } finally {
      socket.uncork();
    }
  }

  private send(answer: FastAnswer, close: boolean): void {
    if (this.done || this.socket.destroyed) return;
    this.stats.answered++;
    write(this.socket, answer, close);
    if (close) {
      this.done = true;
      this.socket.end();
    }
  }

  private handOverNow(): void {
    const socket = this.socket;
    this.stats.handedOver++;
    this.leave();
    socket.off('data', this.onData);
    socket.off('timeout', this.onTimeout);
    socket.off('drain', this.onDrain);
    socket.off('error', this.onEnd);
    socket.off('close', this.onEnd);
    socket.setTimeout(0);
    if (this.pending) socket.unshift(this.pending);
    this.pending = null;
    // node:http's 'data' listener gets the bytes unshifted here on the next tick, before any the
    // socket reads later (those come from a later I/O callback), so requests stay in order.
    this.handOver(socket);
  }

  private leave(): void {
    this.live.delete(this);
  }
}
