import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { TEST_DATABASE, TEST_DATABASE_URL } from '../../../test/helpers.js';
import { migrate, openDatabase } from './connection.js';
import type { Db, DbHandle } from './connection.js';
import { TENANT_TABLES, UnscopedQueryError, forTenant, unscoped } from './tenant-scope.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-scope-'));
const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
const config = loadConfig({
  DATA_DIR: dataDir,
  ADMIN_TOKEN: 'scope-test-admin-token-0123456789',
  ...(TEST_DATABASE === 'postgres'
    ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
    : {}),
});
let handle: DbHandle;
let a: Db;
const now = new Date().toISOString();
const customer = (tenant: string, id: string) => ({
  id,
  tenant_id: tenant,
  name: `Customer ${id}`,
  email: `${id}@example.test`,
  status: 'ACTIVE',
  created_at: now,
  updated_at: now,
});

beforeAll(async () => {
  handle = await openDatabase(config);
  await migrate(handle.db, config.databaseSchema);
  await handle.db
    .insertInto('customers')
    .values([customer('tenant-a', 'ca'), customer('tenant-b', 'cb')])
    .execute();
  a = forTenant(handle.db, 'tenant-a');
});
afterAll(async () => {
  if (TEST_DATABASE === 'postgres') {
    await handle.db.schema.dropSchema(schema).ifExists().cascade().execute();
  }
  await handle.db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const refused = (run: () => Promise<unknown>) => expect(run()).rejects.toThrow(UnscopedQueryError);

describe('a tenant-bound handle', () => {
  it('refuses a read of a tenant table that does not pin the tenant, and reads its own rows', async () => {
    await refused(() => a.selectFrom('customers').selectAll().execute());
    await refused(() =>
      a.selectFrom('customers').selectAll().where('tenant_id', '=', 'tenant-b').execute(),
    );
    // An OR does not pin anything.
    await refused(() =>
      a
        .selectFrom('customers')
        .selectAll()
        .where((eb) => eb.or([eb('tenant_id', '=', 'tenant-a'), eb('name', '=', 'x')]))
        .execute(),
    );
    const rows = await a
      .selectFrom('customers')
      .select('id')
      .where('tenant_id', '=', 'tenant-a')
      .execute();
    expect(rows).toEqual([{ id: 'ca' }]);
  });

  it('checks every table of a join and every subquery', async () => {
    await refused(() =>
      a
        .selectFrom('customers as c')
        .innerJoin('grants as g', 'g.customer_id', 'c.id')
        .select('c.id')
        .where('c.tenant_id', '=', 'tenant-a')
        .execute(),
    );
    await a
      .selectFrom('customers as c')
      .innerJoin('grants as g', (j) =>
        j.onRef('g.customer_id', '=', 'c.id').on('g.tenant_id', '=', 'tenant-a'),
      )
      .select('c.id')
      .where('c.tenant_id', '=', 'tenant-a')
      .execute();
    await refused(() =>
      a
        .selectFrom('customers')
        .select('id')
        .where('tenant_id', '=', 'tenant-a')
        .where('id', 'in', (eb) => eb.selectFrom('grants').select('customer_id'))
        .execute(),
    );
  });

  it('refuses unpinned updates and deletes, and inserts for another tenant', async () => {
    await refused(() => a.updateTable('customers').set({ name: 'x' }).execute());
    await refused(() => a.deleteFrom('customers').where('id', '=', 'cb').execute());
    await refused(() => a.insertInto('customers').values(customer('tenant-b', 'cb2')).execute());
    await refused(async () => sql`delete from customers`.execute(a));
    await a
      .updateTable('customers')
      .set({ name: 'Renamed' })
      .where('tenant_id', '=', 'tenant-a')
      .where('id', '=', 'ca')
      .execute();
    await a.insertInto('customers').values(customer('tenant-a', 'ca2')).execute();
    const b = await unscoped(handle.db, 'test: the other tenant')
      .selectFrom('customers')
      .select('name')
      .where('id', '=', 'cb')
      .execute();
    expect(b).toEqual([{ name: 'Customer cb' }]);
  });

  it('stays bound inside a transaction, and unscoped() is the explicit way out', async () => {
    await refused(() =>
      a.transaction().execute((trx) => trx.selectFrom('customers').selectAll().execute()),
    );
    const all = await unscoped(a, 'test: every tenant')
      .selectFrom('customers')
      .select('id')
      .orderBy('id')
      .execute();
    expect(all.map((r) => r.id)).toEqual(['ca', 'ca2', 'cb']);
  });

  it('knows every table that carries tenant_id', async () => {
    const tables =
      TEST_DATABASE === 'postgres'
        ? (
            await sql<{ table_name: string }>`select table_name from information_schema.columns
              where table_schema = ${schema} and column_name = 'tenant_id'`.execute(
              unscoped(handle.db, 'test: the catalogue'),
            )
          ).rows.map((r) => r.table_name)
        : (
            await sql<{ name: string }>`select m.name from sqlite_master m
              join pragma_table_info(m.name) c where m.type = 'table' and c.name = 'tenant_id'`.execute(
              unscoped(handle.db, 'test: the catalogue'),
            )
          ).rows.map((r) => r.name);
    expect([...new Set(tables)].sort()).toEqual([...TENANT_TABLES].sort());
  });
});

describe('the application handle (openDatabase guards it)', () => {
  it('refuses a query of a tenant table pinned to no tenant, whichever tenant it pins', async () => {
    const db = handle.db;
    await refused(() => db.selectFrom('customers').selectAll().execute());
    await refused(() =>
      db.updateTable('customers').set({ name: 'x' }).where('id', '=', 'cb').execute(),
    );
    await refused(() => db.deleteFrom('grants').where('customer_id', '=', 'cb').execute());
    await refused(async () => sql`select * from customers`.execute(db));
    // A join on something else than a key of a pinned table pins nothing.
    await refused(() =>
      db
        .selectFrom('customers as c')
        .innerJoin('packages as p', 'p.name', 'c.name')
        .select('c.id')
        .where('c.tenant_id', '=', 'tenant-b')
        .where('p.description', '=', 'x')
        .execute(),
    );
    await refused(() =>
      db
        .selectFrom('customers as c')
        .innerJoin('grants as g', 'g.customer_id', 'c.id')
        .select('c.id')
        .where('g.package_id', '=', 'x')
        .execute(),
    );
    const rows = await db
      .selectFrom('customers as c')
      .leftJoin('grants as g', 'g.customer_id', 'c.id')
      .select('c.id')
      .where('c.tenant_id', '=', 'tenant-b')
      .execute();
    expect(rows).toEqual([{ id: 'cb' }]);
  });

  it('lets a tenant-bound store narrow it, and unscoped() widen it', async () => {
    const b = forTenant(handle.db, 'tenant-b');
    await refused(() =>
      b.selectFrom('customers').select('id').where('tenant_id', '=', 'tenant-a').execute(),
    );
    const inTx = await handle.db
      .transaction()
      .execute((trx) =>
        unscoped(trx, 'test: a sweep inside a transaction')
          .selectFrom('customers')
          .select('id')
          .execute(),
      );
    expect(inTx.length).toBeGreaterThanOrEqual(2);
  });
});
