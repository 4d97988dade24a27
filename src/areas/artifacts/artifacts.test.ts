import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { addSyncedPackage, createCustomer } from '../../../test/factories.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import type { DomainEvent } from '../../infra/events.js';
import { packageZip } from './test-zips.js';

let t: TestApp;
let git: GitFixture;
const events: DomainEvent[] = [];

type Headers = Record<string, string>;
const zipHeaders = (auth: Headers = t.admin): Headers => ({
  ...auth,
  'content-type': 'application/zip',
});

function upload(name: string, zip: Buffer, query = '', auth: Headers = t.admin) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/packages/${name}/artifacts${query}`,
    headers: zipHeaders(auth),
    payload: zip,
  });
}

async function api(method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: t.admin, payload });
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return res.json();
}

async function addArtifactPackage(name: string) {
  await api('POST', '/packages', { name, type: 'artifact' });
}

/** A customer (granted `grants`) and a token of `scope`. */
async function customerToken(grants: string[], scope: string, packageScopes: string[] = []) {
  const customer = await createCustomer(t, `C ${crypto.randomBytes(4).toString('hex')}`);
  for (const pkg of grants) {
    await api('POST', `/customers/${customer.id}/packages`, { package: pkg, constraint: '*' });
  }
  const created = await api('POST', `/customers/${customer.id}/tokens`, {
    name: 'dev',
    scope,
    package_scopes: packageScopes,
  });
  return created.plain_token as string;
}

const widget = (extra: Record<string, unknown> = {}) =>
  packageZip(
    { name: 'acme/widget', description: 'The widget', ...extra },
    { 'src/Widget.php': '<?php class Widget {}' },
  );

beforeAll(async () => {
  t = await createTestApp();
  t.runtime.services.deps.events.subscribe((e) => events.push(e));
  await addArtifactPackage('acme/widget');
  await addArtifactPackage('acme/gadget');
  git = new GitFixture('acme/lib');
  git.release('1.0.0');
  await addSyncedPackage(t, 'acme/lib', git.url);
});

afterAll(async () => {
  await t.close();
  git.remove();
});

describe('uploading an artifact as an admin', () => {
  it('turns the zip into a version served like any other', async () => {
    const zip = widget();
    const sha1 = crypto.createHash('sha1').update(zip).digest('hex');
    const res = await upload('acme/widget', zip, '?version=1.0.0');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      version: '1.0.0',
      version_normalized: '1.0.0.0',
      released_at: expect.stringMatching(/Z$/),
      downloads: 0,
      yanked: false,
      deprecated: false,
      reference: sha1,
    });
    const pkg = await api('GET', '/packages/acme/widget');
    expect(pkg).toMatchObject({
      latest_version: '1.0.0',
      description: 'The widget',
      sync_status: 'ok',
      synced_at: expect.any(String),
      versions: [expect.objectContaining({ version: '1.0.0', reference: sha1 })],
    });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'package.synced',
        package: 'acme/widget',
        status: 'ok',
        versionsAdded: ['1.0.0'],
      }),
    );

    // A customer granted the package sees it in the Composer metadata and downloads the bytes.
    const token = await customerToken(['acme/widget'], 'download');
    const auth = { authorization: basicAuth(token) };
    const p2 = await t.app.inject({ url: '/p2/acme/widget.json', headers: auth });
    expect(p2.statusCode).toBe(200);
    const [entry] = p2.json().packages['acme/widget'];
    expect(entry).toMatchObject({
      name: 'acme/widget',
      version: '1.0.0',
      description: 'The widget',
      dist: { type: 'zip', reference: sha1, shasum: sha1 },
    });
    const dist = await t.app.inject({ url: new URL(entry.dist.url).pathname, headers: auth });
    expect(dist.statusCode).toBe(200);
    expect(dist.rawPayload.equals(zip)).toBe(true);
  });

  it('takes the version from composer.json, and refuses a duplicate', async () => {
    const res = await upload('acme/widget', widget({ version: 'v1.1.0' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ version: 'v1.1.0', version_normalized: '1.1.0.0' });
    expect((await api('GET', '/packages/acme/widget')).latest_version).toBe('v1.1.0');

    const again = await upload('acme/widget', widget({ version: '1.1' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'conflict',
      code: 'CONFLICT',
      message: 'Version v1.1.0 of acme/widget already exists; uploads never replace one',
    });
  });

  it('accepts dev versions without moving the latest version', async () => {
    const res = await upload('acme/widget', widget({ version: '9.0.0' }), '?version=dev-main');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ version: 'dev-main', version_normalized: 'dev-main' });
    expect((await api('GET', '/packages/acme/widget')).latest_version).toBe('v1.1.0');
  });

  it('explains what is wrong with a zip or its version', async () => {
    const noVersion = await upload('acme/widget', widget());
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'version', message: expect.stringMatching(/missing/) }],
    });
    const badVersion = await upload('acme/widget', widget(), '?version=banana%20split');
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json().details[0].field).toBe('version');

    const wrongName = await upload(
      'acme/widget',
      packageZip({ name: 'acme/other' }),
      '?version=3.0.0',
    );
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json()).toEqual({
      error: 'validation_error',
      code: 'VALIDATION_ERROR',
      message: 'body: composer.json names "acme/other", but this package is "acme/widget"',
      details: [
        {
          field: 'body',
          message: 'composer.json names "acme/other", but this package is "acme/widget"',
        },
      ],
    });
    const garbage = await upload('acme/widget', Buffer.from('PK but not really'), '?version=3.0.0');
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toMatch(/not a readable zip archive/);
    expect((await api('GET', '/packages/acme/widget')).versions).toHaveLength(3);
  });

  it('wants the zip as an application/zip body', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/widget/artifacts?version=4.0.0',
      headers: t.admin,
      payload: { zip: 'base64...' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({
      error: 'unsupported_media_type',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringMatching(/Content-Type: application\/zip/),
    });
    const octets = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/widget/artifacts?version=4.0.0',
      headers: { ...t.admin, 'content-type': 'application/octet-stream' },
      payload: widget(),
    });
    expect(octets.statusCode).toBe(415);
    expect(octets.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/widget/artifacts?version=4.0.0',
      headers: t.admin,
    });
    expect(none.statusCode).toBe(415);
  });

  it('accepts uploads only for artifact packages that exist', async () => {
    const git = await upload('acme/lib', widget({ name: 'acme/lib' }), '?version=5.0.0');
    expect(git.statusCode).toBe(409);
    expect(git.json().message).toMatch(
      /acme\/lib is a git package; only packages of type "artifact"/,
    );
    const missing = await upload('acme/nothing', widget(), '?version=1.0.0');
    expect(missing.statusCode).toBe(404);
  });
});

describe('who may upload', () => {
  const gadget = (version: string) => packageZip({ name: 'acme/gadget', version });

  it('lets a developer or admin token of a customer that sees the package upload, Basic or Bearer', async () => {
    const dev = await customerToken(['acme/gadget'], 'developer');
    const basic = await upload('acme/gadget', gadget('1.0.0'), '', {
      authorization: basicAuth(dev),
    });
    expect(basic.statusCode, basic.body).toBe(201);
    const bearer = await upload('acme/gadget', gadget('1.0.1'), '', {
      authorization: `Bearer ${dev}`,
    });
    expect(bearer.statusCode, bearer.body).toBe(201);
    const admin = await customerToken(['acme/gadget'], 'admin');
    const res = await upload('acme/gadget', gadget('1.0.2'), '', {
      authorization: basicAuth(admin),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses download-scope tokens, customers without access and other token scopes', async () => {
    const download = await customerToken(['acme/gadget'], 'download');
    const res = await upload('acme/gadget', gadget('2.0.0'), '', {
      authorization: basicAuth(download),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/scope/),
    });

    const stranger = await customerToken(['acme/widget'], 'developer');
    const denied = await upload('acme/gadget', gadget('2.0.0'), '', {
      authorization: `Bearer ${stranger}`,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('This token cannot see acme/gadget');

    const scoped = await customerToken(['acme/gadget', 'acme/widget'], 'developer', [
      'acme/widget',
    ]);
    const outOfScope = await upload('acme/gadget', gadget('2.0.0'), '', {
      authorization: basicAuth(scoped),
    });
    expect(outOfScope.statusCode).toBe(403);
    expect((await api('GET', '/packages/acme/gadget')).versions).toHaveLength(3);
  });

  it('answers 401 without a valid token', async () => {
    const none = await upload('acme/gadget', gadget('3.0.0'), '', {});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
    const wrong = await upload('acme/gadget', gadget('3.0.0'), '', {
      authorization: basicAuth('pkt_nope'),
    });
    expect(wrong.statusCode).toBe(401);
    const badBasic = await upload('acme/gadget', gadget('3.0.0'), '', {
      authorization: `Basic ${Buffer.from('user:x').toString('base64')}`,
    });
    expect(badBasic.statusCode).toBe(401);
    expect(badBasic.json().message).toMatch(/username must be "token"/);
  });
});

describe('the size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ ARTIFACT_MAX_BYTES: '2048' });
    await small.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: small.admin,
      payload: { name: 'acme/big', type: 'artifact' },
    });
  });
  afterAll(async () => small.close());

  it('answers 413 PAYLOAD_TOO_LARGE over ARTIFACT_MAX_BYTES', async () => {
    const zip = packageZip(
      { name: 'acme/big' },
      { 'random.bin': crypto.randomBytes(4096).toString('base64') },
    );
    const res = await small.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/big/artifacts?version=1.0.0',
      headers: zipHeaders(small.admin),
      payload: zip,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'payload_too_large',
      code: 'PAYLOAD_TOO_LARGE',
      message: `The artifact is ${zip.length} bytes; the limit is 2048 bytes (ARTIFACT_MAX_BYTES)`,
    });
    const ok = await small.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/big/artifacts?version=1.0.0',
      headers: zipHeaders(small.admin),
      payload: packageZip({ name: 'acme/big' }),
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses a zip that unpacks to more than ten times the limit', async () => {
    const bomb = packageZip({ name: 'acme/big' }, { 'zeros.txt': '0'.repeat(30_000) });
    expect(bomb.length).toBeLessThan(2048);
    const res = await small.app.inject({
      method: 'POST',
      url: '/api/v1/packages/acme/big/artifacts?version=2.0.0',
      headers: zipHeaders(small.admin),
      payload: bomb,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/unpacks to more than 20480 bytes/);
  });

  it('streams a body of unknown length to disk and stops it past the limit, leaving no file', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'artifact-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const big = packageZip(
        { name: 'acme/big' },
        { 'random.bin': crypto.randomBytes(4096).toString('base64') },
      );
      const res = await small.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/big/artifacts?version=3.0.0',
        headers: zipHeaders(small.admin),
        payload: Readable.from([big.subarray(0, 1000), big.subarray(1000)]),
      });
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');

      const ok = await small.app.inject({
        method: 'POST',
        url: '/api/v1/packages/acme/big/artifacts?version=3.0.1',
        headers: zipHeaders(small.admin),
        payload: Readable.from([packageZip({ name: 'acme/big' })]),
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(fs.readdirSync(tmp)).toEqual([]);
    } finally {
      process.env.TMPDIR = before;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
