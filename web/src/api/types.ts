import type { paths } from './openapi';

/** The JSON body of a path's success answer (200, 201 or 202), from the OpenAPI document. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : R extends { 202: { content: { 'application/json': infer B } } }
        ? B
        : never
  : never;

type Item<L> = L extends { data: (infer T)[] } ? T : never;

export type PackageDetail = Ok<'/api/v1/packages/{vendor}/{name}', 'get'>;
export type Package = Item<Ok<'/api/v1/packages', 'get'>>;
export type Version = PackageDetail['versions'][number];
export type Customer = Ok<'/api/v1/customers/{id}', 'get'>;
export type CustomerStatus = Customer['status'];
export type Grant = Item<Ok<'/api/v1/customers/{id}/packages', 'get'>>;
export type CollectionGrant = Item<Ok<'/api/v1/customers/{id}/collections', 'get'>>;
export type Collection = Ok<'/api/v1/collections/{slug}', 'get'>;
export type CustomerToken = Ok<'/api/v1/customers/{id}/tokens/{token_id}', 'get'>;
export type CreatedToken = Ok<'/api/v1/customers/{id}/tokens', 'post'>;
export type TeamToken = Item<Ok<'/api/v1/team/tokens', 'get'>>;
export type CreatedTeamToken = Ok<'/api/v1/team/tokens', 'post'>;
export type Task = Ok<'/api/v1/tasks/{id}', 'get'>;
export type AuditEntry = Item<Ok<'/api/v1/audit', 'get'>>;
export type Delivery = Item<Ok<'/api/v1/packages/{vendor}/{name}/webhook-deliveries', 'get'>>;
export type Stats = Ok<'/api/v1/stats', 'get'>;
export type License = Ok<'/api/v1/license', 'get'>;
export type SessionInfo = Ok<'/api/v1/session', 'get'>;
export type VersionPreview = Ok<'/api/v1/packages/{vendor}/{name}/versions', 'get'>;
export type Pagination = Ok<'/api/v1/packages', 'get'>['pagination'];
export type Vulnerability = Item<Ok<'/api/v1/vulnerabilities', 'get'>>;
export type VulnerabilityDetail = Ok<'/api/v1/vulnerabilities/{id}', 'get'>;
export type Advisory = Item<Ok<'/api/v1/advisories', 'get'>>;
export type Severity = NonNullable<Advisory['severity']>;
export type WebhookEndpoint = Item<Ok<'/api/v1/webhook-endpoints', 'get'>>;
export type CreatedWebhookEndpoint = Ok<'/api/v1/webhook-endpoints', 'post'>;
export type WebhookDelivery = Item<Ok<'/api/v1/webhook-endpoints/{id}/deliveries', 'get'>>;
export type FeedEvent = Item<Ok<'/api/v1/events', 'get'>>;
