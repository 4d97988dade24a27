import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * The outside world: inbound webhook deliveries, OAuth connections to git hosts, GitHub App
 * installations, and where a customer's status came from (payment webhooks). Frozen: change the
 * schema with a new migration, never by editing this one.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('event', 'varchar(128)', (c) => c.notNull())
    .addColumn('delivery_id', 'varchar(255)')
    .addColumn('signature_ok', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('matched_packages', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_tenant_received')
    .on('webhook_deliveries')
    .columns(['tenant_id', 'received_at'])
    .execute();
  await db.schema
    .createTable('webhook_delivery_packages')
    .addColumn('delivery_id', 'varchar(64)', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('package_id', 'varchar(64)', (c) =>
      c.notNull().references('packages.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('webhook_delivery_packages_pk', ['delivery_id', 'package_id'])
    .execute();
  await db.schema
    .createIndex('webhook_delivery_packages_package')
    .on('webhook_delivery_packages')
    .columns(['package_id'])
    .execute();
  // One row per delivery id ever processed: the insert-once that makes replays no-ops.
  await db.schema
    .createTable('webhook_receipts')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('delivery_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_receipts_pk', ['tenant_id', 'provider', 'delivery_id'])
    .execute();

  await db.schema
    .createTable('oauth_connections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('account_login', 'varchar(255)')
    .addColumn('account_id', 'varchar(64)')
    .addColumn('access_token_enc', 'text', (c) => c.notNull())
    .addColumn('refresh_token_enc', 'text')
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('oauth_connections_tenant_provider', ['tenant_id', 'provider'])
    .execute();
  // Pending authorizations: the callback must present a state we issued, once, before it expires.
  await db.schema
    .createTable('oauth_states')
    .addColumn('state', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // tenant_id is null until an installation is claimed by a registry (it arrives by webhook first).
  await db.schema
    .createTable('hostapp_installations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)')
    .addColumn('host_installation_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('account_login', 'varchar(255)', (c) => c.notNull())
    .addColumn('account_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('repository_selection', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('repositories', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('claimed_at', 'varchar(32)')
    .execute();

  // Who set the current status: null for admins, `payment` for the payment webhook (docs/api.md
  // lets a paid invoice reactivate only a customer the payment provider expired).
  await db.schema.alterTable('customers').addColumn('status_source', 'varchar(16)').execute();
}
