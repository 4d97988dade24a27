import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createTestApp } from '../../../test/helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { adminApi, createCustomer } from '../../../test/factories.js';
import { compiledPerTenant } from './compiled.js';
import type { Db } from './connection.js';
import { UnscopedQueryError } from './tenant-scope.js';

let t: TestApp;
const guarded = () => t.runtime.services.deps.db;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const customerByName = compiledPerTenant(
  (db: Db, tenantId: string, name: string) =>
    db
      .selectFrom('customers')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('name', '=', name),
  1,
);

describe('queries compiled once per tenant', () => {
  it('run with each call’s values, in the tenant they were compiled for', async () => {
    const a = await createCustomer(t, 'Compiled A');
    const b = await createCustomer(t, 'Compiled B');
    expect(await customerByName(guarded(), 'default', 'Compiled A')).toEqual([
      { id: a.id, name: 'Compiled A' },
    ]);
    expect(await customerByName(guarded(), 'default', 'Compiled B')).toEqual([
      { id: b.id, name: 'Compiled B' },
    ]);
    expect(await customerByName(guarded(), 'other-tenant', 'Compiled A')).toEqual([]);
    expect(await customerByName(guarded(), 'default', 'nobody')).toEqual([]);
  });

  it('are checked by the tenant guard when compiled', async () => {
    const unpinned = compiledPerTenant(
      (db: Db, _tenantId: string, name: string) =>
        db.selectFrom('customers').select('id').where('name', '=', name),
      1,
    );
    await expect(unpinned(guarded(), 'default', 'x')).rejects.toThrow(UnscopedQueryError);
  });

  it('refuse a build that drops a value it was given', async () => {
    const dropped = compiledPerTenant(
      (db: Db, tenantId: string, _name: string) =>
        db.selectFrom('customers').select('id').where('tenant_id', '=', tenantId),
      1,
    );
    await expect(dropped(guarded(), 'default', 'x')).rejects.toThrow(/placeholder/);
  });

  it('keep serving Composer after a migration adds a column under a running node', async () => {
    const c = await createCustomer(t, 'Rolling upgrade');
    const api = adminApi(t);
    const token = async () =>
      (await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 'ci' })).plain_token as string;
    const composer = async (secret: string) =>
      (await t.app.inject({ url: '/packages.json', headers: { authorization: basicAuth(secret) } }))
        .statusCode;
    expect(await composer(await token())).toBe(200);
    await sql`ALTER TABLE customers ADD COLUMN added_by_a_later_release text`.execute(t.db);
    await sql`ALTER TABLE customer_tokens ADD COLUMN added_by_a_later_release text`.execute(t.db);
    for (let k = 0; k < 3; k++) expect(await composer(await token())).toBe(200);
  });
});
