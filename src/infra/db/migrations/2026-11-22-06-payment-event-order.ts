import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * When the newest payment-provider event about a customer was created (Stripe's `created`), so a
 * late retry of an older event cannot undo a newer one. Frozen: change the schema with a new
 * migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema.alterTable('customers').addColumn('payment_event_at', 'varchar(32)').execute();
}
