import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, basicAuth, createTestApp } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { buildApp } from '../app.js';
import type { App } from './app-types.js';

let t: TestApp;
let app: App;
let lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
  // A second app on the same services, logging JSON lines into the stream as `serve` does.
  app = await buildApp({ services: t.runtime.services, logger: { level: 'info', stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('request logging', () => {
  it('tags every line of a request with its id, echoed in x-request-id', async () => {
    lines = [];
    const res = await app.inject({
      url: '/api/v1/customers',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-request-id': 'lb-7f3a.42' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('lb-7f3a.42');
    const entries = logged();
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) expect(entry.reqId).toBe('lb-7f3a.42');
    expect(entries.map((e) => e.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });

  it('makes up a random id when the incoming one is missing or not sane', async () => {
    const ids = new Set<string>();
    for (const given of [undefined, 'x'.repeat(200), 'has spaces', '<script>']) {
      lines = [];
      const headers: Record<string, string> = given === undefined ? {} : { 'x-request-id': given };
      const res = await app.inject({ url: '/healthz', headers });
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      for (const entry of logged()) expect(entry.reqId).toBe(id);
      ids.add(id);
    }
    expect(ids.size).toBe(4);
  });

  it('never logs a token, whether Bearer or Basic, accepted or refused', async () => {
    lines = [];
    const basic = basicAuth('pyc_not-a-real-token-0123456789');
    const secrets = [ADMIN_TOKEN, basic.slice('Basic '.length), 'pyc_not-a-real-token-0123456789'];
    await app.inject({
      url: '/api/v1/customers',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    await app.inject({
      url: '/api/v1/customers',
      headers: { authorization: 'Bearer wrong-token-abcdef' },
    });
    await app.inject({ url: '/packages.json', headers: { authorization: basic } });
    await app.inject({ url: '/p2/acme/lib.json', headers: { authorization: basic } });
    expect(lines.length).toBeGreaterThanOrEqual(8);
    const text = lines.join('\n');
    for (const secret of [...secrets, 'wrong-token-abcdef']) expect(text).not.toContain(secret);
  });

  it('never logs a credential sent in the URL, and keeps the rest of the URL', async () => {
    lines = [];
    const token = 'pkt_0123456789abcdefghijABCDEFGHIJ012345';
    const team = 'cma_0123456789abcdefghijABCDEFGHIJ012345';
    const res = await app.inject({ url: `/p2/acme/hello.json?token=${token}` });
    expect(res.statusCode).toBe(401);
    await app.inject({ url: `/api/v1/customers?page=2&access_token=${team}&sig=abc123def` });
    await app.inject({ url: `/packages.json?password=hunter2&per_page=5` });
    await app.inject({ url: `/p2/${token}/x.json` });
    const text = lines.join('\n');
    for (const secret of [token, team, 'abc123def', 'hunter2', '0123456789abcdefghij']) {
      expect(text).not.toContain(secret);
    }
    const urls = logged()
      .map((e) => (e.req as { url?: string } | undefined)?.url)
      .filter((url) => url !== undefined);
    expect(urls).toEqual([
      '/p2/acme/hello.json?token=[redacted]',
      '/api/v1/customers?page=2&access_token=[redacted]&sig=[redacted]',
      '/packages.json?password=[redacted]&per_page=5',
      '/p2/pkt_[redacted]/x.json',
    ]);
  });

  it('redacts URL credentials inside logged errors', async () => {
    lines = [];
    app.log.error(
      { err: new Error('fetch https://bob:s3cr3t@git.example.test/a.git?token=t0k3n failed') },
      'sync failed',
    );
    const text = lines.join('\n');
    for (const secret of ['s3cr3t', 'bob:', 't0k3n']) expect(text).not.toContain(secret);
    expect(text).toContain('https://[redacted]@git.example.test/a.git?token=[redacted] failed');
  });

  it('redacts secrets even when code logs headers or bodies carrying them', async () => {
    lines = [];
    app.log.info(
      {
        req: { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, cookie: 'session=s3cr3t' } },
        body: { plain_token: 'pya_plain-secret', password: 'hunter2', name: 'kept' },
      },
      'debugging',
    );
    const text = lines.join('\n');
    for (const secret of [ADMIN_TOKEN, 's3cr3t', 'pya_plain-secret', 'hunter2']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('kept');
    expect(text).toContain('[redacted]');
  });
});
