import type { Edition } from '../../config.js';
import { guard, WRITE } from './authorize.js';
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
import type { SettingsService } from '../settings/service.js';
import type { TaskService } from '../tasks/service.js';
import type { TeamService } from '../team/service.js';
import type { TokenService } from '../tokens/service.js';

type Policy<T> = Partial<Record<keyof T, Rule>>;

/**
 * Who may run which service operation, in one table: every operation not listed is a read any
 * admin level may run and customers may not. REST, GraphQL and any later transport reach the
 * services through `guardServices`, so none of them can forget a rule.
 */
export const POLICY = {
  customers: {
    create: WRITE,
    update: WRITE,
    delete: WRITE,
    suspend: WRITE,
    reactivate: WRITE,
    freeze: WRITE,
    paymentExpire: WRITE,
    paymentReactivate: WRITE,
    expireOverdue: WRITE,
  } satisfies Policy<CustomerService>,
  access: {
    grant: WRITE,
    grantEach: WRITE,
    replace: WRITE,
    revoke: WRITE,
    grantCollection: WRITE,
    revokeCollection: WRITE,
  } satisfies Policy<AccessService>,
  collections: {
    create: WRITE,
    update: WRITE,
    delete: WRITE,
  } satisfies Policy<CollectionService>,
  tokens: {
    create: WRITE,
    revoke: WRITE,
    rotate: WRITE,
    regenerate: WRITE,
    revokeAll: WRITE,
    issueJwt: WRITE,
  } satisfies Policy<TokenService>,
  team: {
    create: { write: true, owner: true },
    revoke: { write: true, owner: true },
  } satisfies Policy<TeamService>,
  packages: {
    add: WRITE,
    delete: WRITE,
    // A CI job holding a `webhook` token may trigger an update of a package its customer sees.
    requestSync: { write: true, customerScopes: ['webhook', 'developer', 'admin'] },
    setFlag: WRITE,
    // Read-only, yet not a GET: viewers keep the contract's "GET only".
    validate: WRITE,
  } satisfies Policy<PackageService>,
  monorepos: {
    sync: WRITE,
  } satisfies Policy<MonorepoService>,
  artifacts: {
    upload: { write: true, customerScopes: ['developer', 'admin'] },
  } satisfies Policy<ArtifactService>,
  tasks: {
    create: WRITE,
    queueSyncAll: WRITE,
    queueCleanup: WRITE,
  } satisfies Policy<TaskService>,
  oauth: {
    initiate: WRITE,
    disconnect: WRITE,
  } satisfies Policy<OAuthService>,
  hostApp: {
    claim: WRITE,
    claimLink: WRITE,
    remove: WRITE,
    queueSync: WRITE,
    sync: WRITE,
  } satisfies Policy<HostAppService>,
  proxyAdmin: {
    purge: WRITE,
    freeze: WRITE,
    unfreeze: WRITE,
  } satisfies Policy<ProxyAdmin>,
  audit: {
    list: { feature: 'audit_log' },
  } satisfies Policy<AuditService>,
  advisories: {
    list: { feature: 'security_advisories' },
    get: { feature: 'security_advisories' },
    create: { write: true, feature: 'security_advisories' },
    update: { write: true, feature: 'security_advisories' },
    delete: { write: true, feature: 'security_advisories' },
    queueScan: { write: true, feature: 'vulnerabilities' },
  } satisfies Policy<AdvisoryService>,
  settings: {
    update: WRITE,
  } satisfies Policy<SettingsService>,
  vulnerabilities: {
    list: { feature: 'vulnerabilities' },
    get: { feature: 'vulnerabilities' },
    all: { feature: 'vulnerabilities' },
  } satisfies Policy<VulnerabilityService>,
};

type Guarded = { [K in keyof typeof POLICY]: object };

/** The services with every principal-facing call authorized by POLICY. */
export function guardServices<S extends Guarded>(services: S, edition: Edition): S {
  const out = { ...services };
  for (const area of Object.keys(POLICY) as (keyof typeof POLICY)[]) {
    out[area] = guard(area, services[area], POLICY[area] as Policy<object>, edition);
  }
  return out;
}
