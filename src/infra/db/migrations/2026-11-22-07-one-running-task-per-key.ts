import { sql } from 'kysely';
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * At most one running task per dedupe key (e.g. one sync per package), enforced by the database:
 * two workers claiming a follow-up and its predecessor at the same moment cannot both win.
 * Frozen: change the schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createIndex('tasks_one_running_per_key')
    .on('tasks')
    .columns(['tenant_id', 'dedupe_key'])
    .unique()
    .where(sql.ref('status'), '=', 'running')
    .execute();
}
