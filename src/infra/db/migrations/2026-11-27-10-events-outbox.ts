import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The event outbox and outgoing webhooks (docs/webhooks-outgoing.md).
 * - `events`: one row per change a unit of work committed, written in its transaction. `id` is
 *   `evt_` and a zero-padded per-tenant sequence taken from `event_counters` at the end of the
 *   transaction, so ids sort (as text, in any collation) in commit order.
 * - `webhook_endpoints`: where a tenant's events are POSTed; `secret_enc` sealed like settings.
 * - `webhook_event_deliveries`: one event to one endpoint, with its own copy of the event body
 *   (a redelivery sends the same bytes' event even after retention removed the event).
 * Frozen: change the schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('event_counters')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('package', 'varchar(255)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema
    .createIndex('events_tenant_type_id')
    .on('events')
    .columns(['tenant_id', 'type', 'id'])
    .execute();
  await db.schema
    .createIndex('events_tenant_created')
    .on('events')
    .columns(['tenant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_endpoints_pk', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_event_deliveries')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(64)', (c) => c.notNull())
    .addColumn('endpoint_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    /** Deliveries of one chain go out in event order: `p:<package>`, or `d:<delivery id>`. */
    .addColumn('chain', 'varchar(300)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('last_attempt_at', 'varchar(32)')
    .addPrimaryKeyConstraint('webhook_event_deliveries_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_event_deliveries_endpoint')
    .on('webhook_event_deliveries')
    .columns(['tenant_id', 'endpoint_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('webhook_event_deliveries_chain')
    .on('webhook_event_deliveries')
    .columns(['tenant_id', 'endpoint_id', 'chain', 'status', 'event_id'])
    .execute();
}
