import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../config/index.js';
import { openMigrationDb } from '../../../../test/migration-db.js';
import { migrate } from '../connection.js';
import type { DbHandle } from '../connection.js';
import { repositoryKey } from '../../git/repository-url.js';
import { CREDENTIALS_REMOVED } from './2026-11-24-20-repository-url-credentials.js';

let handle: DbHandle;
let config: Readonly<Config>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ handle, config, close } = await openMigrationDb());
});
afterAll(async () => close());

describe('migration 2026-11-24-20: credentials out of stored repository URLs', () => {
  it('strips them from packages and audit summaries, and keeps account-only ssh URLs', async () => {
    await migrate(handle.db, config.databaseSchema, '2026-11-24-10-storage-counter');
    const now = new Date().toISOString();
    const urls: Record<string, string> = {
      'acme/basic': 'https://deploy:s3cret@git.example.com/acme/basic.git',
      'acme/token': 'https://ghp_abcdef@github.com/acme/token.git',
      'acme/ssh': 'ssh://git@bitbucket.org/acme/ssh.git',
      'acme/scp': 'git@gitlab.com:acme/scp.git',
      'acme/plain': 'https://github.com/acme/plain.git',
    };
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('packages')
      .values(
        Object.entries(urls).map(([name, url], i) => ({
          id: `p${i}`,
          tenant_id: 'default',
          name,
          repository_url: url,
          repository_key: repositoryKey(url),
          type: 'git',
          sync_status: 'ok',
          sync_skipped: '[]',
          abandoned: 0,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('audit_log')
      .values({
        id: 'a1',
        tenant_id: 'default',
        actor_kind: 'root',
        actor_id: null,
        action: 'package.create',
        target_type: 'package',
        target_id: 'acme/basic',
        summary: JSON.stringify({ repository_url: urls['acme/basic'], note: 'kept' }),
        ip: null,
        user_agent: null,
        created_at: now,
      })
      .execute();

    expect(await migrate(handle.db, config.databaseSchema)).toContain(
      '2026-11-24-20-repository-url-credentials',
    );
    const rows = await handle.db
      .selectFrom('packages')
      .select(['name', 'repository_url', 'repository_key', 'sync_error'])
      .orderBy('name')
      .execute();
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['acme/basic']).toEqual({
      name: 'acme/basic',
      repository_url: 'https://git.example.com/acme/basic.git',
      repository_key: repositoryKey('https://git.example.com/acme/basic.git'),
      sync_error: CREDENTIALS_REMOVED,
    });
    expect(byName['acme/token']?.repository_url).toBe('https://github.com/acme/token.git');
    for (const name of ['acme/ssh', 'acme/scp', 'acme/plain']) {
      expect(byName[name]?.repository_url).toBe(urls[name]);
      expect(byName[name]?.sync_error).toBeNull();
    }
    const audit = await handle.db
      .selectFrom('audit_log')
      .select('summary')
      .where('id', '=', 'a1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.summary)).toEqual({
      repository_url: 'https://git.example.com/acme/basic.git',
      note: 'kept',
    });
    expect(JSON.stringify(rows)).not.toContain('s3cret');
  });
});
