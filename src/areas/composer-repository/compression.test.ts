import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { adminApi, addSyncedPackage, createCustomer } from '../../../test/factories.js';
import { acceptsGzip } from './rendered-document.js';

/** What Composer's curl sends: every encoding libcurl was built with. */
const COMPOSER = 'deflate, gzip, br, zstd';

let t: TestApp;
let base: string;
let authorization: string;
const repo = new GitFixture('acme/zipped');

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request over plain node:http, which leaves the body as it came (no automatic decoding). */
function raw(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  for (const v of ['1.0.0', '1.1.0', '2.0.0']) repo.release(v);
  await addSyncedPackage(t, 'acme/zipped', repo.url);
  const c = await createCustomer(t, 'Zip');
  const api = adminApi(t);
  await api('POST', `/api/v1/customers/${c.id}/packages`, { package: 'acme/zipped' });
  const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 'z' });
  authorization = basicAuth(created.plain_token as string);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
  repo.remove();
});

describe('compressed Composer metadata', () => {
  it('answers p2 gzipped to Composer, the same document as uncompressed, on a miss and a hit', async () => {
    const plain = await raw('/p2/acme/zipped.json', { authorization });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const hitsBefore = t.app.p2FastPath.hits;
    for (let i = 0; i < 2; i++) {
      const gz = await raw('/p2/acme/zipped.json', { authorization, 'accept-encoding': COMPOSER });
      expect(gz.status).toBe(200);
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.headers.vary).toBe('Accept-Encoding');
      expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
      expect(gz.body.length).toBeLessThan(plain.body.length);
      expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
      expect(gz.headers['last-modified']).toBe(plain.headers['last-modified']);
      expect(gz.headers.etag).not.toBe(plain.headers.etag);
    }
    // Both were cache hits answered before routing.
    expect(t.app.p2FastPath.hits).toBe(hitsBefore + 2);
  });

  it('compresses a document once: for the request that computed it and every hit after', async () => {
    const gzip = vi.spyOn(zlib, 'gzipSync');
    try {
      const headers = { authorization, 'accept-encoding': COMPOSER };
      const first = await raw('/p2/acme/zipped~dev.json', headers);
      const again = await raw('/p2/acme/zipped~dev.json', headers);
      expect(first.headers['content-encoding']).toBe('gzip');
      expect(again.body.equals(first.body)).toBe(true);
      expect(gzip).toHaveBeenCalledTimes(1);
    } finally {
      gzip.mockRestore();
    }
  });

  it('revalidates either representation with 304, exactly as before', async () => {
    const gz = await raw('/p2/acme/zipped.json', { authorization, 'accept-encoding': 'gzip' });
    const since = String(gz.headers['last-modified']);
    for (const encoding of ['gzip', 'identity']) {
      const again = await raw('/p2/acme/zipped.json', {
        authorization,
        'accept-encoding': encoding,
        'if-modified-since': since,
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const byTag = await raw('/p2/acme/zipped.json', {
        authorization,
        'accept-encoding': encoding,
        'if-none-match': String(gz.headers.etag),
      });
      expect(byTag.status).toBe(304);
    }
  });

  it('honours a refusal of gzip, and gzips packages.json', async () => {
    const refused = await raw('/p2/acme/zipped.json', {
      authorization,
      'accept-encoding': 'gzip;q=0, identity',
    });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString()).packages['acme/zipped']).toHaveLength(3);
    const root = await raw('/packages.json', { authorization, 'accept-encoding': COMPOSER });
    expect(root.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(root.body).toString())['metadata-url']).toBe(
      '/p2/%package%.json',
    );
  });

  it('compresses the API’s JSON, and leaves archives as they are', async () => {
    const spec = await raw('/api/openapi.json', { 'accept-encoding': 'gzip' });
    expect(spec.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(spec.body).toString()).openapi).toBeTruthy();
    const p2 = await raw('/p2/acme/zipped.json', { authorization });
    const dist = new URL(
      (JSON.parse(p2.body.toString()) as { packages: Record<string, { dist: { url: string } }[]> })
        .packages['acme/zipped']![0]!.dist.url,
    );
    const zip = await raw(dist.pathname, { authorization, 'accept-encoding': COMPOSER });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-encoding']).toBeUndefined();
    expect(zip.body.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('acceptsGzip', () => {
  it('reads Accept-Encoding as RFC 9110 says', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(COMPOSER)).toBe(true);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0.5, br;q=1')).toBe(true);
    expect(acceptsGzip('br;q=1, *;q=0')).toBe(false);
    expect(acceptsGzip('br;q=1, *;q=0.1')).toBe(true);
    expect(acceptsGzip('GZIP;Q=0')).toBe(false);
    expect(acceptsGzip('GZip')).toBe(true);
  });
});
