import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WORKER: 'off' });
});
afterAll(async () => t.close());

describe('health probes', () => {
  it('GET /healthz answers ok without a token', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database and the storage without a token', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
  });

  it('GET /readyz answers 503 naming the storage when it cannot be reached', async () => {
    const storage = t.runtime.services.deps.storage;
    const check = vi.spyOn(storage, 'check').mockRejectedValue(new Error('bucket gone'));
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'failed',
        checks: { database: 'ok', storage: 'failed' },
      });
    } finally {
      check.mockRestore();
    }
  });

  it('GET /readyz answers 503 naming the database when it cannot be reached', async () => {
    const db = t.db;
    const broken = vi.spyOn(db, 'getExecutor').mockImplementation(() => {
      throw new Error('connection refused');
    });
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ database: 'failed', storage: 'ok' });
    } finally {
      broken.mockRestore();
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('are tagged operations in the OpenAPI document and carry no admin security', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.paths['/healthz'].get.tags).toEqual(['operations']);
    expect(doc.paths['/readyz'].get.tags).toEqual(['operations']);
    expect(doc.paths['/metrics']).toBeUndefined();
  });
});
