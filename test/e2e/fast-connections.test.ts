import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import zlib from 'node:zlib';
import { basicAuth } from '../helpers.js';
import { GitFixture } from '../fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../factories.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';
import { ComposerProject } from './composer-client.js';

let s: RunningServer;
let repo: GitFixture;
let auth: string;
let plainToken: string;
let port: number;

beforeAll(async () => {
  s = await startServer();
  port = Number(new URL(s.url).port);
  repo = new GitFixture('acme/conn');
  // A long description: the document is larger than what goes out in one buffer with its head.
  repo.release('1.0.0').release('1.1.0', { description: 'x'.repeat(20_000) });
  await addSyncedPackage(s, 'acme/conn', repo.url);
  const customer = await createCustomer(s, 'Conn');
  const api = adminApi(s);
  await api('POST', `/api/v1/customers/${customer.id}/packages`, {
    package: 'acme/conn',
    constraint: '*',
  });
  const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 't' });
  plainToken = token.plain_token;
  auth = basicAuth(plainToken);
  // The first answers fill the response cache (they take the route).
  for (const path of ['/packages.json', '/p2/acme/conn.json']) {
    expect((await fetch(`${s.url}${path}`, { headers: { authorization: auth } })).status).toBe(200);
  }
});
afterAll(async () => {
  await s.close();
  repo.remove();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Every header name, in order, as many times as sent. */
  names: string[];
  body: Buffer;
}

/**
 * Writes `requests` on one new connection (each string sent as its own write, in order, after
 * the answers to the previous ones when `stepwise`) and reads `count` answers.
 */
async function exchange(
  writes: string[],
  count: number,
  /** The answers to wait for after each write before the next, and what to do then. */
  { stepwise = [] as number[], then = [] as (() => Promise<unknown>)[] } = {},
): Promise<{ answers: Answer[]; closed: boolean }> {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  let closed = false;
  const answers: Answer[] = [];
  let wake: () => void = () => {};
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) break;
      const lines = buffer.toString('latin1', 0, end).split('\r\n');
      const headers: Record<string, string> = {};
      const names: string[] = [];
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        names.push(line.slice(0, colon).toLowerCase());
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) break;
      answers.push({
        status: Number(lines[0]!.split(' ')[1]),
        headers,
        names,
        body: buffer.subarray(end + 4, end + 4 + length),
      });
      buffer = buffer.subarray(end + 4 + length);
    }
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${answers.length} of ${n} answers`)), 5000);
      wake = () => {
        if (answers.length >= n || closed) {
          clearTimeout(timer);
          resolve();
        }
      };
      wake();
    });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  for (let i = 0; i < writes.length; i++) {
    socket.write(writes[i]!);
    if (stepwise[i]) await until(stepwise[i]!);
    await then[i]?.();
  }
  await until(count);
  const wasClosed = closed;
  socket.destroy();
  return { answers, closed: wasClosed };
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n${extra}\r\n`;

describe('the connection layer under node:http', () => {
  it('answers cached metadata on a new connection with the routed answer', async () => {
    const routed = await fetch(`${s.url}/p2/acme/conn.json`, {
      headers: { authorization: auth, 'accept-encoding': 'identity' },
    });
    const answered = s.app.fastConnections.answered;
    const { answers } = await exchange([get('/p2/acme/conn.json') + get('/packages.json')], 2);
    expect(s.app.fastConnections.answered).toBe(answered + 2);
    const [p2, root] = answers;
    expect(p2!.status).toBe(200);
    expect(p2!.body.length).toBeGreaterThan(8 * 1024);
    expect(p2!.body.toString()).toBe(await routed.text());
    for (const name of ['etag', 'last-modified', 'content-type', 'vary']) {
      expect(p2!.headers[name], name).toBe(
        routed.headers.get(name)?.replace('; charset=utf-8', ''),
      );
    }
    expect(p2!.headers['date']).toMatch(/GMT$/);
    expect(new Set(p2!.names).size).toBe(p2!.names.length);
    expect(JSON.parse(root!.body.toString())['metadata-url']).toBe('/p2/%package%.json');
  });

  it('answers gzip and 304 as the route does', async () => {
    const { answers } = await exchange(
      [get('/p2/acme/conn.json', 'Accept-Encoding: deflate, gzip, br\r\n')],
      1,
    );
    const gzip = answers[0]!;
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(new Set(gzip.names).size).toBe(gzip.names.length);
    const routed = await fetch(`${s.url}/p2/acme/conn.json`, {
      headers: { authorization: auth, 'accept-encoding': 'identity' },
    });
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(await routed.text());
    expect(gzip.headers['etag']).toBe(routed.headers.get('etag')?.replace(/"$/, '-gz"'));
    const again = await exchange(
      [
        get('/p2/acme/conn.json', `If-None-Match: ${gzip.headers['etag']}\r\n`) +
          get('/p2/acme/conn.json', `If-Modified-Since: ${gzip.headers['last-modified']}\r\n`),
      ],
      2,
    );
    expect(again.answers.map((a) => a.status)).toEqual([304, 304]);
  });

  it('hands the connection to node:http at the first request it does not answer, bytes intact', async () => {
    const handedOver = s.app.fastConnections.handedOver;
    const answered = s.app.fastConnections.answered;
    // Pipelined in one write: two hits, a POST with a body, then a hit node:http answers itself.
    const post = 'POST /downloads/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    const body = '{"downloads":[]}';
    const { answers } = await exchange(
      [
        get('/p2/acme/conn.json') +
          get('/packages.json') +
          `${post}Content-Length: ${body.length}\r\n\r\n${body}` +
          get('/p2/acme/conn.json'),
      ],
      4,
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 204, 200]);
    expect(answers[3]!.body.equals(answers[0]!.body)).toBe(true);
    expect(s.app.fastConnections.answered).toBe(answered + 2);
    expect(s.app.fastConnections.handedOver).toBe(handedOver + 1);
  });

  it('keeps order when the rest of a handed-over request arrives later', async () => {
    const third = get('/p2/acme/conn.json');
    // The miss hands the connection over with the first half of the third request unread.
    const { answers } = await exchange(
      [
        get('/p2/acme/conn.json') + get('/p2/acme/unknown.json') + third.slice(0, 30),
        third.slice(30),
      ],
      3,
      { stepwise: [2, 3] },
    );
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200]);
  });

  it('answers requests split across writes, one by one', async () => {
    const request = get('/p2/acme/conn.json');
    const { answers } = await exchange(
      [request.slice(0, 10), request.slice(10, 40), request.slice(40), get('/p2/acme/conn.json')],
      2,
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
  });

  it('closes after an answer to Connection: close', async () => {
    const { answers, closed } = await exchange(
      [get('/p2/acme/conn.json', 'Connection: close\r\n')],
      1,
    );
    expect(answers[0]!.headers['connection']).toBe('close');
    await expect.poll(() => closed || answers.length === 1).toBe(true);
  });

  it('closes a connection whose head trickles in longer than the headers timeout', async () => {
    const timeout = s.app.server.headersTimeout;
    s.app.server.headersTimeout = 300;
    const socket = net.connect(port, '127.0.0.1');
    const request = get('/p2/acme/conn.json');
    let sent = 0;
    const trickle = setInterval(() => {
      if (sent < request.length - 4) socket.write(request[sent++]!);
    }, 20);
    try {
      const closedAfter = await new Promise<number>((resolve) => {
        const started = Date.now();
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', () => {});
      });
      expect(closedAfter).toBeGreaterThanOrEqual(300);
      expect(sent).toBeLessThan(request.length - 4);
    } finally {
      clearInterval(trickle);
      s.app.server.headersTimeout = timeout;
      socket.destroy();
    }
  });

  it("answers each request of a connection with that request's own credentials", async () => {
    const api = adminApi(s);
    const other = await createCustomer(s, 'Conn other');
    await api('POST', `/api/v1/customers/${other.id}/packages`, {
      package: 'acme/conn',
      constraint: '1.0.*',
    });
    const token = await api('POST', `/api/v1/customers/${other.id}/tokens`, { name: 'o' });
    const otherAuth = basicAuth(token.plain_token);
    const path = '/p2/acme/conn.json';
    // The grant moved the tenant's generation: both answers are cached again first.
    for (const authorization of [auth, otherAuth]) {
      expect((await fetch(`${s.url}${path}`, { headers: { authorization } })).ok).toBe(true);
    }
    const as = (authorization: string) =>
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\n\r\n`;
    const answered = s.app.fastConnections.answered;
    // The other token is revoked between the third request and the fourth, on one connection.
    const { answers } = await exchange([as(auth) + as(otherAuth) + as(auth), as(otherAuth)], 4, {
      stepwise: [3],
      then: [() => api('DELETE', `/api/v1/customers/${other.id}/tokens/${token.token.id}`)],
    });
    const versions = (a: Answer) =>
      (
        JSON.parse(a.body.toString()) as { packages: Record<string, { version: string }[]> }
      ).packages['acme/conn']!.map((v) => v.version).sort();
    expect(versions(answers[0]!)).toEqual(['1.0.0', '1.1.0']);
    expect(versions(answers[1]!)).toEqual(['1.0.0']);
    expect(versions(answers[2]!)).toEqual(['1.0.0', '1.1.0']);
    expect(answers[3]!.status).toBe(401);
    expect(s.app.fastConnections.answered).toBe(answered + 3);
  });

  it('leaves malformed and unusual requests to node:http', async () => {
    const bad = await exchange(['GET /p2/acme/conn.json HTTP/1.1\r\nBad Header: x\r\n\r\n'], 1);
    expect(bad.answers[0]!.status).toBe(400);
    // HTTP/1.1 requires Host: node:http answers 400, whether the answer is cached or not.
    const noHost = await exchange(
      [`GET /p2/acme/conn.json HTTP/1.1\r\nAuthorization: ${auth}\r\n\r\n`],
      1,
    );
    expect(noHost.answers[0]!.status).toBe(400);
    const wrongToken = await exchange(
      [
        `GET /p2/acme/conn.json HTTP/1.1\r\nHost: x\r\nAuthorization: ${basicAuth('pkt_nope')}\r\n\r\n`,
      ],
      1,
    );
    expect(wrongToken.answers[0]!.status).toBe(401);
  });
});

describe('with the real Composer client', () => {
  it("gets a warm registry's metadata answered on the connection, and installs the same", async () => {
    const project = new ComposerProject(s.url, plainToken);
    try {
      const first = await project.run(['require', 'acme/conn:^1.0']);
      expect(first.code, first.output).toBe(0);
      expect(project.lockedVersion('acme/conn')).toBe('1.1.0');
      // A cold Composer cache: packages.json and p2 again, now cache hits from new connections.
      const answered = s.app.fastConnections.answered;
      const again = await project.run(['update']);
      expect(again.code, again.output).toBe(0);
      expect(project.lockedVersion('acme/conn')).toBe('1.1.0');
      expect(s.app.fastConnections.answered).toBeGreaterThanOrEqual(answered + 2);
    } finally {
      project.remove();
    }
  });
});
