import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../config/index.js';
import { openMigrationDb } from '../../../../test/migration-db.js';
import { migrate } from '../connection.js';
import type { DbHandle } from '../connection.js';
import { repositoryKey } from '../../git/repository-url.js';

let handle: DbHandle;
let config: Readonly<Config>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ handle, config, close } = await openMigrationDb());
});
afterAll(async () => close());

describe('migration 08: packages.repository_key', () => {
  it('fills the key of packages that existed before it, whatever the URL form', async () => {
    await migrate(handle.db, config.databaseSchema, '2026-11-22-07-one-running-task-per-key');
    const now = new Date().toISOString();
    const urls: Record<string, string> = {
      'acme/https': 'https://GitHub.com/Acme/Lib.git',
      'acme/scp': 'git@gitlab.com:acme/tools.git/',
      'acme/ssh': 'ssh://git@bitbucket.org:22/acme/thing',
      'acme/artifact': '',
      // Decodes to 600 bytes of text: kept as a digest, within any index's entry size.
      'acme/long': `https://host.test/${'%C3%A9'.repeat(300)}`,
    };
    // More rows than one UPDATE batch of the backfill.
    for (let i = 0; i < 620; i++)
      urls[`bulk/p${String(i).padStart(3, '0')}`] = `https://git.test/bulk/p${i}.git`;
    // The table as migration 07 left it (no repository_key yet).
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('packages')
      .values(
        Object.entries(urls).map(([name, url], i) => ({
          id: `p${i}`,
          tenant_id: 'default',
          name,
          repository_url: url,
          type: url === '' ? 'artifact' : 'git',
          sync_status: 'ok',
          sync_skipped: '[]',
          abandoned: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();

    // Migration 08 runs next; later migrations (other areas) may follow it.
    expect((await migrate(handle.db, config.databaseSchema))[0]).toBe(
      '2026-11-22-08-package-repository-key',
    );
    const rows = await handle.db
      .selectFrom('packages')
      .select(['name', 'repository_key'])
      .orderBy('name')
      .execute();
    const keys = Object.fromEntries(rows.map((r) => [r.name, r.repository_key]));
    expect(keys['acme/long']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(keys['acme/long']).toBe(repositoryKey(urls['acme/long']!));
    expect(keys['bulk/p619']).toBe('git.test/bulk/p619');
    expect(rows.filter((r) => r.name.startsWith('bulk/') && r.repository_key === '')).toEqual([]);
    delete keys['acme/long'];
    for (const name of Object.keys(keys)) if (name.startsWith('bulk/')) delete keys[name];
    expect(keys).toEqual({
      'acme/artifact': '',
      'acme/https': 'github.com/acme/lib',
      'acme/scp': 'gitlab.com/acme/tools',
      'acme/ssh': 'bitbucket.org/acme/thing',
    });
  });
});
