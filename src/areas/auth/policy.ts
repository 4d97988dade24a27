import type { Edition } from '../../config/index.js';
import { INTERNAL, PLATFORM, PUBLIC, READ, WRITE, guard } from './authorize.js';
import type { Rule } from './authorize.js';
import type { AdvisoryService } from '../advisories/service.js';
import type { VulnerabilityService } from '../advisories/vulnerabilities.js';
import type { AccessService } from '../access/service.js';
import type { ArtifactService } from '../artifacts/service.js';
import type { AuditService } from '../audit/service.js';
import type { CollectionService } from '../collections/service.js';
import type { CustomerService } from '../customers/service.js';
import type { HostAppService } from '../hostapp/service.js';
import type { MonorepoService } from '../monorepo/service.js';
import type { OAuthService } from '../oauth/service.js';
import type { ProxyAdmin } from '../proxy/admin.js';
import type { PackageService } from '../packages/service.js';
import type { PortalService } from '../portal/service.js';
import type { SettingsService } from '../settings/service.js';
import type { StatsService } from '../stats/service.js';
import type { TaskService } from '../tasks/service.js';
import type { TeamService } from '../team/service.js';
import type { TenantService } from '../tenants/service.js';
import type { TokenService } from '../tokens/service.js';
import type { EventService } from '../events/service.js';
import type { OutgoingWebhookService } from '../outgoing-webhooks/service.js';

/** The names of T's public methods. */
type Methods<T> = {
  [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T] &
  string;
/** The scopes that may download, and so use the portal (a `webhook` token may not). */
const PORTAL_SCOPES = ['admin', 'developer', 'download'] as const;

/** A rule for every public method of T: the compiler refuses a method without one. */
type Policy<T> = Record<Methods<T>, Rule>;

/**
 * Who may run which service operation, in one table, deny by default: every public method of a
 * guarded service has its rule here (the compiler checks), and a call to anything else refuses.
 * REST, GraphQL and any later transport reach the services through `guardServices`, so none of
 * them can forget a rule. `INTERNAL` marks what is no operation (background work, calls between
 * services, webhook adapters): transports cannot run it.
 */
export const POLICY = {
  customers: {
    get: READ,
    getByExternalId: READ,
    list: READ,
    create: WRITE,
    update: WRITE,
    delete: WRITE,
    suspend: WRITE,
    reactivate: WRITE,
    freeze: WRITE,
    frozenVersions: READ,
    // Billing's webhook adapter and the expiry sweep of every read.
    paymentExpire: INTERNAL,
    paymentReactivate: INTERNAL,
    expireOverdue: INTERNAL,
  } satisfies Policy<CustomerService>,
  access: {
    list: READ,
    customersOf: READ,
    listCollections: READ,
    grant: WRITE,
    grantEach: WRITE,
    replace: WRITE,
    revoke: WRITE,
    grantCollection: WRITE,
    revokeCollection: WRITE,
  } satisfies Policy<AccessService>,
  collections: {
    list: READ,
    get: READ,
    create: WRITE,
    update: WRITE,
    delete: WRITE,
  } satisfies Policy<CollectionService>,
  tokens: {
    list: READ,
    get: READ,
    create: WRITE,
    revoke: WRITE,
    rotate: WRITE,
    regenerate: WRITE,
    revokeAll: WRITE,
    issueJwt: WRITE,
  } satisfies Policy<TokenService>,
  team: {
    list: READ,
    create: { write: true, owner: true },
    revoke: { write: true, owner: true },
  } satisfies Policy<TeamService>,
  packages: {
    get: READ,
    list: READ,
    detail: READ,
    version: READ,
    archive: READ,
    add: WRITE,
    delete: WRITE,
    // A CI job holding a `webhook` token may trigger an update of a package its customer sees.
    requestSync: { write: true, customerScopes: ['webhook', 'developer', 'admin'] },
    setFlag: WRITE,
    // Read-only, yet not a GET: viewers keep the contract's "GET only".
    validate: WRITE,
  } satisfies Policy<PackageService>,
  monorepos: {
    parent: READ,
    describe: READ,
    children: READ,
    sync: WRITE,
  } satisfies Policy<MonorepoService>,
  artifacts: {
    upload: { write: true, customerScopes: ['developer', 'admin'] },
  } satisfies Policy<ArtifactService>,
  tasks: {
    get: READ,
    list: READ,
    create: WRITE,
    queueSyncAll: WRITE,
    queueCleanup: WRITE,
    // Any task type with any payload (a tenant's removal among them): services queue work,
    // transports go through `create`, which checks what it queues.
    enqueue: INTERNAL,
    enqueueScheduled: INTERNAL,
    enqueueDeduped: INTERNAL,
    syncAll: INTERNAL,
    cleanup: INTERNAL,
  } satisfies Policy<TaskService>,
  oauth: {
    status: READ,
    list: READ,
    initiate: WRITE,
    disconnect: WRITE,
    // The git host's redirect: the single-use state authorizes it.
    callback: PUBLIC,
  } satisfies Policy<OAuthService>,
  hostApp: {
    status: READ,
    installUrl: READ,
    list: READ,
    get: READ,
    getByHostId: READ,
    repositories: READ,
    claim: WRITE,
    claimLink: WRITE,
    remove: WRITE,
    queueSync: WRITE,
    sync: WRITE,
    // GitHub's redirect after an install: the claim link's state and the code authorize it.
    completeSetup: PUBLIC,
    runSync: INTERNAL,
    forRepository: INTERNAL,
    handleInstallationEvent: INTERNAL,
  } satisfies Policy<HostAppService>,
  proxyAdmin: {
    status: READ,
    stats: READ,
    alerts: READ,
    purge: WRITE,
    freeze: WRITE,
    unfreeze: WRITE,
  } satisfies Policy<ProxyAdmin>,
  audit: {
    list: { feature: 'audit_log' },
    applyRetention: INTERNAL,
  } satisfies Policy<AuditService>,
  advisories: {
    list: { feature: 'security_advisories' },
    get: { feature: 'security_advisories' },
    create: { write: true, feature: 'security_advisories' },
    update: { write: true, feature: 'security_advisories' },
    delete: { write: true, feature: 'security_advisories' },
    queueScan: { write: true, feature: 'vulnerabilities' },
    runImport: INTERNAL,
    useSources: INTERNAL,
  } satisfies Policy<AdvisoryService>,
  settings: {
    get: READ,
    update: WRITE,
    webhookSecret: INTERNAL,
    // Read by the customer portal's own service (docs/portal.md).
    portalBranding: INTERNAL,
  } satisfies Policy<SettingsService>,
  vulnerabilities: {
    list: { feature: 'vulnerabilities' },
    get: { feature: 'vulnerabilities' },
    all: { feature: 'vulnerabilities' },
  } satisfies Policy<VulnerabilityService>,
  stats: {
    overview: READ,
    daily: READ,
    package: READ,
    version: READ,
  } satisfies Policy<StatsService>,
  /** The customer portal (docs/portal.md): customer tokens; the service refuses admins. */
  portal: {
    branding: PUBLIC,
    me: { customerScopes: PORTAL_SCOPES },
    packages: { customerScopes: PORTAL_SCOPES },
    package: { customerScopes: PORTAL_SCOPES },
    tokens: { customerScopes: PORTAL_SCOPES },
    createToken: { write: true, customerScopes: ['admin'] },
    revokeToken: { write: true, customerScopes: ['admin'] },
  } satisfies Policy<PortalService>,
  events: {
    list: { feature: 'outgoing_webhooks' },
    applyRetention: INTERNAL,
  } satisfies Policy<EventService>,
  outgoingWebhooks: {
    list: { feature: 'outgoing_webhooks' },
    get: { feature: 'outgoing_webhooks' },
    deliveries: { feature: 'outgoing_webhooks' },
    create: { write: true, feature: 'outgoing_webhooks' },
    update: { write: true, feature: 'outgoing_webhooks' },
    delete: { write: true, feature: 'outgoing_webhooks' },
    redeliver: { write: true, feature: 'outgoing_webhooks' },
    ping: { write: true, feature: 'outgoing_webhooks' },
    runChain: INTERNAL,
    applyRetention: INTERNAL,
  } satisfies Policy<OutgoingWebhookService>,
  /** The Cloud edition's platform API (PLATFORM_ADMIN_TOKEN). */
  tenants: {
    list: PLATFORM,
    get: PLATFORM,
    create: PLATFORM,
    update: PLATFORM,
    delete: PLATFORM,
    usageOf: PLATFORM,
    notificationsOf: PLATFORM,
    remove: INTERNAL,
  } satisfies Policy<TenantService>,
};

type Guarded = { [K in keyof typeof POLICY]: object };

/**
 * The services with every call authorized by POLICY. Refuses to start when a rule names no
 * method of its service.
 */
export function guardServices<S extends Guarded>(services: S, edition: Edition): S {
  const out = { ...services };
  for (const area of Object.keys(POLICY) as (keyof typeof POLICY)[]) {
    out[area] = guard(area, services[area], POLICY[area], edition);
  }
  return out;
}
