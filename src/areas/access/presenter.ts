import type { CustomerRow } from '../customers/store.js';
import type { CollectionGrantView } from './collection-grants-store.js';
import type { AccessDto, CollectionGrantDto } from './schema.js';
import type { AccessRow } from './store.js';

export function presentAccess(row: AccessRow): AccessDto {
  return {
    package: row.package,
    constraint: row.constraint,
    granted_at: row.granted_at,
    via_collection: row.via_collection,
  };
}

export function presentPackageCustomer(entry: {
  customer: CustomerRow;
  constraint: string;
  granted_at: string;
  via_collection: string | null;
}) {
  return {
    customer_id: entry.customer.id,
    name: entry.customer.name,
    email: entry.customer.email,
    status: entry.customer.status,
    constraint: entry.constraint,
    granted_at: entry.granted_at,
    via_collection: entry.via_collection,
  };
}

export function presentCollectionGrant(grant: CollectionGrantView): CollectionGrantDto {
  return {
    collection: grant.slug,
    name: grant.name,
    constraint: grant.constraint,
    granted_at: grant.granted_at,
  };
}
