import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp, waitFor } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';

let t: TestApp;
const api = (method: string, url: string, payload?: unknown) => adminApi(t)(method, url, payload);
const composer = (token: string) =>
  t.app.inject({ url: '/packages.json', headers: { authorization: basicAuth(token) } });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function customerWithTokens(count: number) {
  const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
  const tokens: { id: string; plain: string }[] = [];
  for (let k = 0; k < count; k++) {
    const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: `t${k}` });
    tokens.push({ id: created.token.id, plain: created.plain_token });
  }
  return { id: c.id, tokens };
}

const lastUsed = async (id: string) =>
  (
    await t.db
      .selectFrom('customer_tokens')
      .select('last_used_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).last_used_at;

describe("tokens' last use, written in batches", () => {
  it('shows every token used so far in the next admin read, with no wait', async () => {
    const c = await customerWithTokens(3);
    const started = Date.now();
    for (const token of c.tokens) expect((await composer(token.plain)).statusCode).toBe(200);
    const list = await api('GET', `/api/v1/customers/${c.id}/tokens?per_page=10`);
    expect(list.data).toHaveLength(3);
    for (const token of list.data) {
      // The stored value is the batch's latest use: within a second of it, never in the future.
      expect(Date.parse(token.last_used_at)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(token.last_used_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('writes uses within about a second without any read asking for them', async () => {
    const c = await customerWithTokens(2);
    await composer(c.tokens[0]!.plain);
    await composer(c.tokens[1]!.plain);
    const written = await waitFor(
      async () => Promise.all(c.tokens.map((token) => lastUsed(token.id))),
      (values) => values.every((v) => v !== null),
      { timeoutMs: 5000 },
    );
    expect(written.every((v) => Date.parse(String(v)) > Date.now() - 60_000)).toBe(true);
  });

  it('leaves a token used again within the minute alone', async () => {
    const c = await customerWithTokens(1);
    const [token] = c.tokens;
    await composer(token!.plain);
    await t.runtime.services.auth.uses.flush();
    const first = await lastUsed(token!.id);
    await composer(token!.plain);
    await t.runtime.services.auth.uses.flush();
    expect(await lastUsed(token!.id)).toBe(first);
  });

  it('writes every use of a busy second, over several UPDATEs of padded id lists', async () => {
    const c = await createCustomer(t, 'Busy second');
    const ids = Array.from({ length: 1100 }, (_, k) => `busy-${k}`);
    const created_at = new Date().toISOString();
    await t.db
      .insertInto('customer_tokens')
      .values(
        ids.map((id) => ({
          id,
          tenant_id: 'default',
          customer_id: c.id,
          name: id,
          scope: 'download',
          package_scopes: '[]',
          token_digest: `digest-${id}`,
          expires_at: null,
          created_at,
        })),
      )
      .execute();
    for (const id of ids)
      t.runtime.services.auth.uses.record('default', 'customer_tokens', id, Date.now());
    await t.runtime.services.auth.uses.flush();
    const written = await t.db
      .selectFrom('customer_tokens')
      .select(['id', 'last_used_at'])
      .where('customer_id', '=', c.id)
      .execute();
    expect(written).toHaveLength(ids.length);
    expect(written.filter((row) => row.last_used_at === null)).toEqual([]);
  });
});
