import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Archive packs (docs/composer.md, "Archive packs"): `versions.dist_offset` is where a version's zip starts inside
 * the object `dist_key` names, `dist_size` bytes long; null (every archive stored before packs,
 * and uploads) means the object is the zip. Frozen: change the schema with a new migration,
 * never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('versions').addColumn('dist_offset', 'bigint').execute();
}
