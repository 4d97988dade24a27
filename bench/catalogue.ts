import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { buildVersionEntry, rebuildPackageMetadata } from '../src/composer/metadata.js';
import { branchToVersion, tagToVersion } from '../src/composer/semver/index.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { PackagesTable, VersionsTable } from '../src/infra/db/schema.js';

/** The tags every generated package has; a `^1.0` grant sees four of them. */
export const CATALOGUE_TAGS = ['0.9.0', '1.0.0', '1.0.1', '1.1.0', '1.2.0', '2.0.0'] as const;
/** Plus the default branch, which lands in the ~dev document. */
const DEFAULT_BRANCH = 'main';

/** Packages per transaction; version rows are inserted a few hundred at a time. */
const PACKAGES_PER_TRANSACTION = 500;
const ROWS_PER_INSERT = 500;

export interface Catalogue {
  packages: number;
  versions: number;
  /** Evenly spread over the catalogue, so a large one is not only probed at its start. */
  granted: string[];
  seconds: number;
}

function packageName(i: number, count: number): string {
  const perVendor = Math.max(1, Math.ceil(count / 100));
  const vendor = `vendor${String(Math.floor(i / perVendor)).padStart(3, '0')}`;
  return `${vendor}/package-${String(i).padStart(5, '0')}`;
}

const sha1 = (text: string) => crypto.createHash('sha1').update(text).digest('hex');

/** `acme/my-lib` parts as PHP namespace segments: `Acme`, `MyLib`. */
export function studly(s: string): string {
  return s
    .split(/[-_./]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/** A composer.json as a real library would have it, varying a little per major version. */
function composerJson(name: string, version: string): Record<string, unknown> {
  const [vendor = 'vendor', pkg = 'package'] = name.split('/');
  const modern = version.startsWith('2.') || version.startsWith('dev-');
  return {
    name,
    description: `${studly(pkg)}: a private library of ${vendor} used by the benchmark`,
    type: 'library',
    keywords: ['bench', vendor, pkg],
    homepage: `https://git.example.test/${name}`,
    license: ['proprietary'],
    authors: [{ name: 'Bench Maintainer', email: `dev@${vendor}.example.test`, role: 'Developer' }],
    require: {
      php: modern ? '>=8.2' : '>=8.1',
      'psr/log': '^2.0 || ^3.0',
      'symfony/polyfill-mbstring': '^1.28',
    },
    'require-dev': { 'phpunit/phpunit': modern ? '^11.0' : '^10.5', 'phpstan/phpstan': '^1.10' },
    autoload: { 'psr-4': { [`${studly(vendor)}\\${studly(pkg)}\\`]: 'src/' } },
    'autoload-dev': { 'psr-4': { [`${studly(vendor)}\\${studly(pkg)}\\Tests\\`]: 'tests/' } },
    support: {
      issues: `https://git.example.test/${name}/issues`,
      source: `https://git.example.test/${name}/tree/${version}`,
    },
  };
}

function versionRows(
  pkg: Insertable<PackagesTable>,
  index: number,
  now: string,
  tags: readonly string[],
): Insertable<VersionsTable>[] {
  const refs = [
    ...tags.map((tag) => ({ ref: tag, pair: tagToVersion(tag), isDev: false })),
    { ref: DEFAULT_BRANCH, pair: branchToVersion(DEFAULT_BRANCH), isDev: true },
  ];
  return refs.map(({ ref, pair, isDev }, i) => {
    if (!pair) throw new Error(`${ref} does not parse as a version`);
    const reference = sha1(`${pkg.name}@${ref}`);
    const shasum = sha1(`${reference}.zip`);
    const time = new Date(Date.UTC(2024, 0, 1) + (index * 7 + i) * 3_600_000).toISOString();
    const metadata = buildVersionEntry({
      name: pkg.name,
      version: pair.version,
      normalized: pair.normalized,
      reference,
      shasum,
      time,
      defaultBranch: isDev,
      composer: composerJson(pkg.name, pair.version),
    });
    return {
      id: crypto.randomUUID(),
      tenant_id: DEFAULT_TENANT_ID,
      package_id: pkg.id,
      version: pair.version,
      version_normalized: pair.normalized,
      is_dev: isDev ? 1 : 0,
      reference,
      released_at: time,
      metadata: JSON.stringify(metadata),
      yanked: 0,
      deprecated: 0,
      dist_key: `${DEFAULT_TENANT_ID}/${pkg.id}/${reference}.zip`,
      dist_shasum: shasum,
      dist_size: 18_000 + ((index * 131 + i * 17) % 40_000),
      created_at: now,
      updated_at: now,
    };
  });
}

/**
 * Writes `count` synced-looking packages (versions and precomputed p2 documents, as a sync
 * stores them) straight into the database of DATA_DIR, without git. The server must not be
 * running on it yet.
 */
export async function seedCatalogue(opts: {
  dataDir: string;
  adminToken: string;
  count: number;
  grants: number;
  /** More settings: DATABASE_URL and DATABASE_SCHEMA seed PostgreSQL instead. */
  env?: Record<string, string>;
  /** The tags of every package (CATALOGUE_TAGS unless given). */
  tags?: readonly string[];
}): Promise<Catalogue> {
  const tags = opts.tags ?? CATALOGUE_TAGS;
  const started = performance.now();
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    ADMIN_TOKEN: opts.adminToken,
    WORKER: 'off',
    LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const runtime = await openRuntime(config);
  const db = runtime.services.deps.db;
  let versions = 0;
  try {
    const now = new Date().toISOString();
    for (let start = 0; start < opts.count; start += PACKAGES_PER_TRANSACTION) {
      const end = Math.min(opts.count, start + PACKAGES_PER_TRANSACTION);
      const packages: Insertable<PackagesTable>[] = [];
      for (let i = start; i < end; i++) {
        const name = packageName(i, opts.count);
        packages.push({
          id: crypto.randomUUID(),
          tenant_id: DEFAULT_TENANT_ID,
          name,
          description: `Package ${i} of the benchmark catalogue`,
          repository_url: `https://git.example.test/${name}.git`,
          repository_key: `git.example.test/${name}`,
          type: 'git',
          latest_version: tags.at(-1) ?? null,
          default_branch: DEFAULT_BRANCH,
          readme: `# ${name}\n\nGenerated by the benchmark.\n`,
          synced_at: now,
          sync_status: 'ok',
          sync_error: null,
          sync_skipped: '[]',
          abandoned: 0,
          created_at: now,
          updated_at: now,
        });
      }
      const rows = packages.flatMap((p, k) => versionRows(p, start + k, now, tags));
      versions += rows.length;
      await db.transaction().execute(async (trx) => {
        for (let k = 0; k < packages.length; k += ROWS_PER_INSERT) {
          await trx
            .insertInto('packages')
            .values(packages.slice(k, k + ROWS_PER_INSERT))
            .execute();
        }
        for (let k = 0; k < rows.length; k += ROWS_PER_INSERT) {
          await trx
            .insertInto('versions')
            .values(rows.slice(k, k + ROWS_PER_INSERT))
            .execute();
        }
        // The same code the sync runs, so the p2 documents have exactly the stored format.
        for (const p of packages) await rebuildPackageMetadata(trx, DEFAULT_TENANT_ID, p.id);
      });
    }
  } finally {
    await runtime.close();
  }
  const step = opts.count / opts.grants;
  const granted = Array.from({ length: Math.min(opts.grants, opts.count) }, (_, k) =>
    packageName(Math.floor(k * step), opts.count),
  );
  return {
    packages: opts.count,
    versions,
    granted,
    seconds: (performance.now() - started) / 1000,
  };
}
