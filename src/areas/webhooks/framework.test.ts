import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { REJECTED_RECORDS_PER_MINUTE } from './service.js';

const SECRET = 'gh-secret-for-tests';
const sign = (body: string) =>
  `sha256=${crypto.createHmac('sha256', SECRET).update(body).digest('hex')}`;

describe('inbound webhook routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ GITHUB_WEBHOOK_SECRET: SECRET, WEBHOOK_MAX_BYTES: '2048' });
  });
  afterAll(async () => t.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: path,
      payload: body,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('answers 403 FEATURE_NOT_AVAILABLE on a route whose secret is unset', async () => {
    const res = await post('/api/webhooks/gitlab', '{}', { 'x-gitlab-token': 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
  });

  it('refuses a missing or wrong signature with 401 and the contract body', async () => {
    const signatures: Record<string, string>[] = [
      {},
      { 'x-hub-signature-256': sign('{"other":1}') },
    ];
    for (const headers of signatures) {
      const res = await post('/api/webhooks/github', '{"zen":"x"}', {
        'x-github-event': 'ping',
        ...headers,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized', code: 'UNAUTHORIZED' });
    }
  });

  it('accepts a signed delivery through the provider-a alias, and ignores its replay', async () => {
    const body = '{"zen":"Keep it logically awesome."}';
    const headers = {
      'x-github-event': 'ping',
      'x-github-delivery': 'd-1',
      'x-hub-signature-256': sign(body),
    };
    const first = await post('/api/webhooks/provider-a', body, headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ provider: 'github', event: 'ping', status: 'processed' });
    const again = await post('/api/webhooks/github', body, headers);
    expect(again.json()).toMatchObject({ status: 'duplicate', delivery_id: 'd-1' });
  });

  it('refuses bodies over WEBHOOK_MAX_BYTES with 413, and unknown routes with 404', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(4096) });
    const res = await post('/api/webhooks/github', big, { 'x-hub-signature-256': sign(big) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await post('/api/webhooks/nope', '{}')).statusCode).toBe(404);
  });

  it('reads GitHub form-encoded payloads, and records a signed non-JSON body as failed', async () => {
    const form = `payload=${encodeURIComponent('{"zen":"form"}')}`;
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      payload: form,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'ping',
        'x-hub-signature-256': sign(form),
      },
    });
    expect(ok.json()).toMatchObject({ event: 'ping', status: 'processed' });

    const bad = await post('/api/webhooks/github', 'not json', {
      'x-github-event': 'push',
      'x-hub-signature-256': sign('not json'),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const list = await t.app.inject({ url: '/api/v1/webhooks/deliveries', headers: t.admin });
    expect(list.json().data[0]).toMatchObject({
      event: 'push',
      status: 'failed',
      signature_ok: true,
      message: expect.stringContaining('application/json') as unknown,
    });
  });

  it('dedupes delivery ids of any length', async () => {
    const body = '{"zen":"long"}';
    const headers = {
      'x-github-event': 'ping',
      'x-github-delivery': 'x'.repeat(300),
      'x-hub-signature-256': sign(body),
    };
    expect((await post('/api/webhooks/github', body, headers)).json().status).toBe('processed');
    expect((await post('/api/webhooks/github', body, headers)).json().status).toBe('duplicate');
  });

  it('stores at most REJECTED_RECORDS_PER_MINUTE refusals per sender, and never limits signed deliveries', async () => {
    const total = async () =>
      (await t.app.inject({ url: '/api/v1/webhooks/deliveries', headers: t.admin })).json()
        .pagination.total as number;
    const before = await total();
    const from = (ip: string, headers: Record<string, string>, body = '{}') =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/github',
        remoteAddress: ip,
        payload: body,
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping', ...headers },
      });
    for (let i = 0; i < REJECTED_RECORDS_PER_MINUTE + 5; i++) {
      // A forged X-Forwarded-For does not give a flood a fresh budget.
      const res = await from('10.9.9.9', { 'x-forwarded-for': `192.0.2.${i}` });
      expect(res.statusCode).toBe(401);
    }
    expect(await total()).toBe(before + REJECTED_RECORDS_PER_MINUTE);
    const body = '{"zen":"after the flood"}';
    const signed = await from('10.9.9.9', { 'x-hub-signature-256': sign(body) }, body);
    expect(signed.json()).toMatchObject({ status: 'processed' });
    expect(await total()).toBe(before + REJECTED_RECORDS_PER_MINUTE + 1);
  });
});
