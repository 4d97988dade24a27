import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { addSyncedPackage, adminApi, createCustomer } from './factories.js';
import { GitFixture } from './fixtures/git-repo.js';
import { startFakeS3 } from './fakes/s3.js';
import type { FakeS3 } from './fakes/s3.js';
import { packageZip } from '../src/areas/artifacts/test-zips.js';

let s3: FakeS3;
let t: TestApp;
let git: GitFixture;
let token: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  t = await createTestApp(s3.env(`t-${crypto.randomBytes(4).toString('hex')}/archives`));
  git = new GitFixture('acme/stored');
  git.release('1.0.0');
  await addSyncedPackage(t, 'acme/stored', git.url);
  const api = adminApi(t);
  await api('POST', '/api/v1/packages', { name: 'acme/uploaded', type: 'artifact' });
  const customer = await createCustomer(t, 'Stored');
  for (const pkg of ['acme/stored', 'acme/uploaded']) {
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: pkg,
      constraint: '*',
    });
  }
  const created = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
    name: 'ci',
    scope: 'download',
  });
  token = created.plain_token as string;
}, 60_000);

afterAll(async () => {
  await t?.close();
  git?.remove();
  await s3?.close();
});

const sha1 = (bytes: Buffer) => crypto.createHash('sha1').update(bytes).digest('hex');

async function distOf(name: string) {
  const p2 = await t.app.inject({
    url: `/p2/${name}.json`,
    headers: { authorization: basicAuth(token) },
  });
  const versions = p2.json().packages[name] as { dist: { url: string; shasum: string } }[];
  const dist = versions[0]!.dist;
  return { path: new URL(dist.url).pathname, shasum: dist.shasum };
}

describe('archives in an S3-compatible bucket (STORAGE_URL=s3://…)', () => {
  it('stores synced archives in the bucket and streams them with their SHA-1', async () => {
    const dist = await distOf('acme/stored');
    const res = await t.app.inject({
      url: dist.path,
      headers: { authorization: basicAuth(token) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(sha1(res.rawPayload)).toBe(dist.shasum);
    // Nothing on the node's disk: the bucket is the only copy.
    expect(fs.existsSync(path.join(t.dataDir, 'archives'))).toBe(false);
  });

  it('stores uploaded artifacts in the bucket and serves them byte for byte', async () => {
    const zip = packageZip({ name: 'acme/uploaded', version: '2.0.0' }, { 'a.php': '<?php' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/uploaded/artifacts',
      headers: { ...t.admin, 'content-type': 'application/zip' },
      payload: zip,
    });
    expect(up.statusCode).toBe(201);
    const dist = await distOf('acme/uploaded');
    const res = await t.app.inject({
      url: dist.path,
      headers: { authorization: basicAuth(token) },
    });
    expect(res.rawPayload.equals(zip)).toBe(true);
    const admin = await t.app.inject({
      url: '/api/v1/packages/acme/uploaded/download/2.0.0',
      headers: t.admin,
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.rawPayload.equals(zip)).toBe(true);
  });

  it('answers 503 SERVICE_UNAVAILABLE and a failing /readyz while the bucket is down, then recovers', async () => {
    const dist = await distOf('acme/stored');
    await s3.stop();
    try {
      const down = await t.app.inject({
        url: dist.path,
        headers: { authorization: basicAuth(token) },
      });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        error: 'service_unavailable',
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringContaining('storage') as unknown,
      });
      expect(down.headers['retry-after']).toBeDefined();
      const ready = await t.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'failed',
        checks: { database: 'ok', storage: 'failed' },
      });
    } finally {
      await s3.start();
    }
    // The same process, no restart: storage answers again and so does Packyard.
    const back = await t.app.inject({
      url: dist.path,
      headers: { authorization: basicAuth(token) },
    });
    expect(back.statusCode).toBe(200);
    expect(sha1(back.rawPayload)).toBe(dist.shasum);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});
