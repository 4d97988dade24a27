import crypto from 'node:crypto';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../src/composer/metadata.js';
import { branchToVersion, tagToVersion } from '../src/composer/semver/index.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import { studly } from './catalogue.js';

/**
 * The yardstick's large documents: packages of 201 versions (75 tags 0.x, 50 tags 1.x, 75 tags
 * 2.x and the default branch), of which the bench's `^1.0` grant admits the 50 tags 1.x, so each
 * p2 answer lists 50 versions (about 26.6 KB).
 */
export const LARGE_TAGS = [
  ...Array.from({ length: 75 }, (_, i) => `0.${i}.0`),
  ...Array.from({ length: 50 }, (_, i) => `1.${i}.0`),
  ...Array.from({ length: 75 }, (_, i) => `2.${i}.0`),
];

const sha1 = (text: string) => crypto.createHash('sha1').update(text).digest('hex');

/** A lean composer.json (a version entry of about 530 bytes), one requirement per minor. */
function composerJson(name: string, version: string): Record<string, unknown> {
  const [vendor = 'vendor', pkg = 'package'] = name.split('/');
  const minor = Number(version.split('.')[1] ?? 0);
  return {
    name,
    description: `${studly(pkg)}: a long-lived library`,
    type: 'library',
    keywords: ['bench', 'library'],
    license: ['proprietary'],
    require: { php: minor % 2 ? '>=8.2' : '>=8.1', 'psr/log': `^${1 + (minor % 3)}.0` },
    autoload: { 'psr-4': { [`${studly(vendor)}\\${studly(pkg)}\\`]: 'src/' } },
  };
}

/**
 * Adds `count` packages `longlived/library-NN` with LARGE_TAGS plus `main` to the catalogue of
 * DATA_DIR (server stopped), p2 documents computed as a sync stores them. Returns their names.
 */
export async function seedLargePackages(opts: {
  dataDir: string;
  adminToken: string;
  count: number;
}): Promise<string[]> {
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    ADMIN_TOKEN: opts.adminToken,
    WORKER: 'off',
    LOG_LEVEL: 'warn',
  });
  const runtime = await openRuntime(config);
  const db = runtime.services.deps.db;
  const names: string[] = [];
  const now = new Date().toISOString();
  try {
    for (let k = 0; k < opts.count; k++) {
      const name = `longlived/library-${String(k).padStart(2, '0')}`;
      const id = crypto.randomUUID();
      names.push(name);
      const refs = [
        ...LARGE_TAGS.map((tag) => ({ ref: tag, pair: tagToVersion(tag), dev: false })),
        { ref: 'main', pair: branchToVersion('main'), dev: true },
      ];
      const rows = refs.map(({ ref, pair, dev }, i) => {
        if (!pair) throw new Error(`${ref} does not parse as a version`);
        const reference = sha1(`${name}@${ref}`);
        const time = new Date(Date.UTC(2020, 0, 1) + (k * 7 + i) * 86_400_000).toISOString();
        const metadata = buildVersionEntry({
          name,
          version: pair.version,
          normalized: pair.normalized,
          reference,
          shasum: sha1(`${reference}.zip`),
          time,
          defaultBranch: dev,
          composer: composerJson(name, pair.version),
        });
        return {
          id: crypto.randomUUID(),
          tenant_id: DEFAULT_TENANT_ID,
          package_id: id,
          version: pair.version,
          version_normalized: pair.normalized,
          is_dev: dev ? 1 : 0,
          reference,
          released_at: time,
          metadata: JSON.stringify(metadata),
          yanked: 0,
          deprecated: 0,
          dist_key: `${DEFAULT_TENANT_ID}/${id}/${reference}.zip`,
          dist_shasum: sha1(`${reference}.zip`),
          dist_size: 20_000 + i * 37,
          created_at: now,
          updated_at: now,
        };
      });
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('packages')
          .values({
            id,
            tenant_id: DEFAULT_TENANT_ID,
            name,
            description: `Long-lived package ${k} of the yardstick`,
            repository_url: `https://git.example.test/${name}.git`,
            repository_key: `git.example.test/${name}`,
            type: 'git',
            latest_version: LARGE_TAGS.at(-1) ?? null,
            default_branch: 'main',
            readme: `# ${name}\n`,
            synced_at: now,
            sync_status: 'ok',
            sync_error: null,
            sync_skipped: '[]',
            abandoned: 0,
            created_at: now,
            updated_at: now,
          })
          .execute();
        for (let r = 0; r < rows.length; r += 100) {
          await trx
            .insertInto('versions')
            .values(rows.slice(r, r + 100))
            .execute();
        }
        await rebuildPackageMetadata(trx, DEFAULT_TENANT_ID, id);
      });
    }
  } finally {
    await runtime.close();
  }
  return names;
}
