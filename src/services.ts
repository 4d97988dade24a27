import { SettingsService } from './areas/settings/service.js';
import { PortalService } from './areas/portal/service.js';
import type { Deps } from './context.js';
import { TENANT_REMOVE_TASK, TenantService } from './areas/tenants/service.js';
import { AuthService } from './areas/auth/service.js';
import { CustomerService } from './areas/customers/service.js';
import { PackageService } from './areas/packages/service.js';
import { SyncService } from './areas/sync/service.js';
import { ArtifactService } from './areas/artifacts/service.js';
import { TaskService } from './areas/tasks/service.js';
import { packageSyncs } from './areas/packages/sync-queue.js';
import { Worker } from './areas/tasks/worker.js';
import type { TaskRun } from './areas/tasks/worker.js';
import { Scheduler } from './areas/tasks/scheduler.js';
import { CLEANUP_TASK, SYNC_ALL_TASK, SYNC_TASK } from './areas/tasks/schema.js';
import { ComposerService } from './areas/composer-repository/service.js';
import { AuditService } from './areas/audit/service.js';
import { StatsService } from './areas/stats/service.js';
import { MonorepoService } from './areas/monorepo/service.js';
import { TokenService } from './areas/tokens/service.js';
import { TeamService } from './areas/team/service.js';
import { AccessService } from './areas/access/service.js';
import { CollectionService } from './areas/collections/service.js';
import { RepositoryCredentials } from './areas/sync/credentials.js';
import { WebhookService } from './areas/webhooks/service.js';
import { createWebhookAdapters } from './webhook-adapters.js';
import { OAuthService } from './areas/oauth/service.js';
import { HOSTAPP_SYNC_TASK, HostAppService } from './areas/hostapp/service.js';
import { BillingService } from './areas/billing/service.js';
import { ProxyService } from './areas/proxy/service.js';
import { ProxyAdmin } from './areas/proxy/admin.js';
import { guardServices } from './areas/auth/policy.js';
import { ADVISORIES_IMPORT_TASK, AdvisoryService } from './areas/advisories/service.js';
import { VulnerabilityScanner } from './areas/advisories/scanner.js';
import { VulnerabilityService } from './areas/advisories/vulnerabilities.js';
import { AdvisoryFeed } from './areas/advisories/feed.js';
import { configuredSources } from './areas/advisories/configured-sources.js';
import { forgetPrivatePackages } from './areas/advisories/package-removal.js';
import { hasFeature } from './editions.js';
import { EventService } from './areas/events/service.js';
import { OutgoingWebhookService } from './areas/outgoing-webhooks/service.js';
import { OUTGOING_WEBHOOK_TASK, deliveriesQueued } from './areas/outgoing-webhooks/fanout.js';
import { NotificationService } from './areas/notifications/service.js';
import { NOTIFY_TASK } from './areas/notifications/queue.js';

/** Every service, built once per process and shared by REST, GraphQL and the worker. */
export interface Services {
  deps: Deps;
  auth: AuthService;
  composer: ComposerService;
  stats: StatsService;
  customers: CustomerService;
  packages: PackageService;
  sync: SyncService;
  artifacts: ArtifactService;
  tasks: TaskService;
  worker: Worker;
  monorepos: MonorepoService;
  audit: AuditService;
  webhooks: WebhookService;
  oauth: OAuthService;
  hostApp: HostAppService;
  billing: BillingService;
  tokens: TokenService;
  team: TeamService;
  access: AccessService;
  collections: CollectionService;
  proxy: ProxyService;
  proxyAdmin: ProxyAdmin;
  advisories: AdvisoryService;
  vulnerabilities: VulnerabilityService;
  advisoryFeed: AdvisoryFeed;
  settings: SettingsService;
  /** The event feed (the outbox read) and outgoing webhooks. */
  events: EventService;
  outgoingWebhooks: OutgoingWebhookService;
  /** The customer portal's API (docs/portal.md). */
  portal: PortalService;
  /** The Cloud edition's platform API. */
  tenants: TenantService;
}

export function createServices(deps: Deps, rootTokenDigest: string): Services {
  const tasks = new TaskService(deps);
  tasks.packageSyncs = packageSyncs(deps, tasks);
  const hostApp = new HostAppService(deps, () => services.packages, tasks);
  const oauth = new OAuthService(deps);
  // The GitHub App's installation token first, then the registry's OAuth connection.
  const credentials = new RepositoryCredentials();
  credentials.register(hostApp);
  credentials.register(oauth.credentials);
  const sync = new SyncService(deps, credentials);
  const audit = new AuditService(deps);
  const proxy = new ProxyService(deps);
  const scanner = new VulnerabilityScanner(deps, proxy);
  const advisories = new AdvisoryService(deps, tasks, scanner, () => configuredSources(deps));
  // Each task type's handler and its attempt limit (failed attempts below it are retried).
  const tenants = new TenantService(deps, tasks);
  const events = new EventService(deps);
  const outgoingWebhooks = new OutgoingWebhookService(deps);
  const notifications = new NotificationService(deps);
  const handlers = {
    [SYNC_TASK]: {
      maxAttempts: 3,
      run: async (
        task: { tenant_id: string },
        payload: Record<string, unknown>,
        { signal }: TaskRun,
      ) => sync.sync(task.tenant_id, String(payload.package_id), { signal }),
    },
    [SYNC_ALL_TASK]: {
      maxAttempts: 3,
      run: async (task: { tenant_id: string }, _payload: unknown, { signal }: TaskRun) =>
        tasks.syncAll(task.tenant_id, signal),
    },
    [HOSTAPP_SYNC_TASK]: {
      maxAttempts: 3,
      run: async (
        task: { tenant_id: string },
        payload: Record<string, unknown>,
        { signal }: TaskRun,
      ) =>
        hostApp.runSync(
          task.tenant_id,
          String(payload.installation_id),
          payload.requested_by,
          signal,
        ),
    },
    [ADVISORIES_IMPORT_TASK]: {
      maxAttempts: 1,
      run: async (task: { tenant_id: string }) => advisories.runImport(task.tenant_id),
    },
    [TENANT_REMOVE_TASK]: {
      maxAttempts: 5,
      run: async (_task: unknown, payload: Record<string, unknown>) =>
        tenants.remove(String(payload.tenant_id)),
    },
    // E-mail notifications (docs/notifications.md): retried for about 4 hours while SMTP fails.
    [NOTIFY_TASK]: {
      maxAttempts: 10,
      run: async (task: { tenant_id: string }, _payload: unknown, { signal }: TaskRun) =>
        notifications.run(task.tenant_id, signal),
    },
    // One chain of outgoing webhook deliveries; a delivery's own retries are its rows' business.
    [OUTGOING_WEBHOOK_TASK]: {
      maxAttempts: 5,
      run: async (
        task: { tenant_id: string },
        payload: Record<string, unknown>,
        { signal }: TaskRun,
      ) => outgoingWebhooks.runChain(task.tenant_id, payload, signal),
    },
    [CLEANUP_TASK]: {
      maxAttempts: 3,
      run: async (task: { tenant_id: string }, _payload: unknown, { signal }: TaskRun) => ({
        ...(await tasks.cleanup(task.tenant_id, signal)),
        old_audit_entries: await audit.applyRetention(task.tenant_id),
        old_events: await events.applyRetention(task.tenant_id),
        old_webhook_event_deliveries: await outgoingWebhooks.applyRetention(task.tenant_id),
      }),
    },
  };
  const scheduler = new Scheduler(deps, tasks, {
    syncIntervalMinutes: deps.config.syncIntervalMinutes,
    // Without a configured source there is nothing to import on a schedule.
    advisoryIntervalMinutes:
      hasFeature(deps.config.edition, 'vulnerabilities') && hasAdvisorySource(deps)
        ? deps.config.advisories.syncIntervalMinutes
        : 0,
  });
  const auth = new AuthService(deps, rootTokenDigest);
  const composer = new ComposerService(deps, auth);
  const customers = new CustomerService(deps);
  const settings = new SettingsService(deps);
  composer.publicPackages = proxy;
  const advisoryFeed = new AdvisoryFeed(deps, proxy);
  if (hasFeature(deps.config.edition, 'security_advisories')) {
    // Each p2 document carries its package's advisories (docs/advisories.md).
    composer.advisories = advisoryFeed;
    proxy.advisories = advisoryFeed;
  }
  tenants.usage = composer.usage;
  const packages = new PackageService(deps, tasks, sync);
  const tokens = new TokenService(deps);
  const services: Services = {
    deps,
    auth,
    audit,
    composer,
    stats: new StatsService(deps, composer.usage),
    customers,
    packages,
    artifacts: new ArtifactService(deps),
    sync,
    monorepos: new MonorepoService(deps, (ctx, name) => services.packages.requestSync(ctx, name)),
    tasks,
    worker: new Worker(deps, tasks, handlers, {
      scheduler,
      leaseMs: deps.config.taskLeaseSeconds * 1000,
    }),
    tokens,
    portal: new PortalService(deps, composer, packages, tokens, settings),
    team: new TeamService(deps),
    access: new AccessService(deps),
    collections: new CollectionService(deps),
    webhooks: new WebhookService(deps, settings),
    settings,
    oauth,
    hostApp,
    billing: new BillingService(deps, customers),
    tenants,
    proxy,
    proxyAdmin: new ProxyAdmin(deps, proxy),
    advisories,
    vulnerabilities: new VulnerabilityService(deps, scanner),
    advisoryFeed,
    events,
    outgoingWebhooks,
  };
  // Deliveries queued by a unit of work in this process start without waiting for a poll.
  deliveriesQueued.on(deps.db, () => tasks.queued.emit('task'));
  if (hasFeature(deps.config.edition, 'vulnerabilities')) watchHeldVersions(deps, scanner, proxy);
  services.webhooks.useAdapters(
    createWebhookAdapters({
      db: deps.db,
      packages: services.packages,
      hostApp,
      billing: services.billing,
    }),
  );
  // A package removal takes the advisories about it along, in its unit (docs/advisories.md).
  services.packages.removalHooks.push(forgetPrivatePackages);
  // Adapters act for signed webhooks and call the services directly; transports get guarded ones.
  return guardServices(services, deps.config.edition);
}

/**
 * Matches advisories against held versions as they change (docs/advisories.md): after each sync
 * and upload (`package.synced`) and each proxy fetch that changed the kept metadata. Matching is
 * idempotent, so a node that hears an event another node handled too does no harm.
 */
function watchHeldVersions(deps: Deps, scanner: VulnerabilityScanner, proxy: ProxyService) {
  const match = (tenantId: string, name: string) => {
    scanner
      .match(tenantId, [name])
      .catch((err: unknown) => deps.log.error({ err, tenant: tenantId }, 'advisory match failed'));
  };
  deps.events.subscribe((event) => {
    if (event.type === 'package.synced' && event.status === 'ok')
      match(event.tenantId, event.package);
  });
  proxy.onKept = match;
}

function hasAdvisorySource(deps: Deps): boolean {
  const { friendsOfPhpUrl, osvUrl, githubToken } = deps.config.advisories;
  return Boolean(friendsOfPhpUrl ?? osvUrl ?? githubToken);
}
