import type { Db } from '../../infra/db/connection.js';

/** Reads which of `keys` the tenant has a settings row for (their keys only, never the values). */
export async function settingKeysSet(db: Db, tenantId: string, keys: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('settings')
    .select('key')
    .where('tenant_id', '=', tenantId)
    .where('key', 'in', keys)
    .execute();
  return rows.map((r) => r.key);
}

/** Reads the tenant's settings rows (key and value) among `keys`. */
export async function readSettings(
  db: Db,
  tenantId: string,
  keys: string[],
): Promise<{ key: string; value: string }[]> {
  return db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('tenant_id', '=', tenantId)
    .where('key', 'in', keys)
    .execute();
}

/** Reads the value of the tenant's settings row `key`; undefined when there is none. */
export async function readSettingValue(
  db: Db,
  tenantId: string,
  key: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Writes the tenant's settings row `key` (inserted, or its value replaced). */
export async function upsertSetting(db: Db, tenantId: string, key: string, value: string) {
  await db
    .insertInto('settings')
    .values({ tenant_id: tenantId, key, value })
    .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value }))
    .execute();
}

/** Deletes the tenant's settings row `key`, if any. */
export async function deleteSetting(db: Db, tenantId: string, key: string) {
  await db
    .deleteFrom('settings')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .execute();
}
