import type { Deps } from '../../context.js';
import { generateSecret } from '../../infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { SecretBox } from '../../infra/secret-box.js';

const GENERATED_KEY = 'generated_encryption_key';

/**
 * The box tenant settings are sealed with: ENCRYPTION_KEY when set. Without it, a key generated
 * on first use and kept in the database (shared by every node) seals them, so a secret never
 * sits in plain text in a row or a dump of one table; docs/configuration.md asks production to
 * set ENCRYPTION_KEY, which keeps the key out of the database altogether.
 */
export async function settingsBox(deps: Pick<Deps, 'db' | 'config'>): Promise<SecretBox> {
  if (deps.config.encryptionKey) return new SecretBox(deps.config.encryptionKey);
  const read = () =>
    deps.db
      .selectFrom('settings')
      .select('value')
      .where('tenant_id', '=', DEFAULT_TENANT_ID)
      .where('key', '=', GENERATED_KEY)
      .executeTakeFirst();
  let row = await read();
  if (!row) {
    // Another node may race us: keep whichever key landed first.
    await deps.db
      .insertInto('settings')
      .values({ tenant_id: DEFAULT_TENANT_ID, key: GENERATED_KEY, value: generateSecret('key_') })
      .onConflict((oc) => oc.columns(['tenant_id', 'key']).doNothing())
      .execute();
    row = await read();
  }
  return new SecretBox(row!.value);
}
