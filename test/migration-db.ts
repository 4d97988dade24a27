import crypto from 'node:crypto';
import { unscoped } from '../src/infra/db/tenant-scope.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/index.js';
import type { Config } from '../src/config/index.js';
import { openDatabase } from '../src/infra/db/connection.js';
import type { DbHandle } from '../src/infra/db/connection.js';
import { TEST_DATABASE, TEST_DATABASE_URL } from './helpers.js';

/**
 * An empty database of its own (a temporary SQLite file, or a fresh PostgreSQL schema) for a
 * migration test to migrate step by step; `close` drops it.
 */
export async function openMigrationDb(): Promise<{
  handle: DbHandle;
  config: Readonly<Config>;
  close: () => Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-migration-'));
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_TOKEN: 'migration-test-admin-token-0123456789',
    ...(TEST_DATABASE === 'postgres'
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }
      : {}),
  });
  const opened = await openDatabase(config);
  // Migration tests seed and read rows of any tenant directly.
  const handle = { ...opened, db: unscoped(opened.db, 'migration tests inspect every tenant') };
  return {
    handle,
    config,
    close: async () => {
      if (TEST_DATABASE === 'postgres') {
        await handle.db.schema.dropSchema(schema).ifExists().cascade().execute();
      }
      await handle.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
