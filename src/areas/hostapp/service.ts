import type { Actor, AdminLevel, Ctx, Deps } from '../../context.js';
import { ADMIN_LEVELS, nowIso } from '../../context.js';
import { AppError, conflict, featureNotAvailable, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import type { GitCredentials } from '../../infra/git/index.js';
import type { CredentialSource } from '../sync/credentials.js';
import { recordAudit } from '../audit/record.js';
import { repositoryKey } from '../../infra/git/repository-url.js';
import type { WebhookResult } from '../webhooks/types.js';
import { GitHubAppClient } from './github-api.js';
import type { GitHubRepository } from './github-api.js';
import * as store from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { applyInstallationEvent } from './installation-events.js';
import { importRepositories } from './repository-import.js';
import type { TaskService } from '../tasks/service.js';
import type { TaskRow } from '../tasks/store.js';
import type { Packages, SyncResult } from './repository-import.js';
import type { InstallationRow } from './store.js';
import type { PageWindow } from '../../infra/db/page.js';
import { hasFeature } from '../../editions.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';

export type { InstallationRow } from './store.js';

export interface HostAppStatus {
  configured: boolean;
  appId: string | null;
  appSlug: string | null;
  installUrl: string | null;
}

export interface RepositoryView {
  repo: GitHubRepository;
  /** The package of this tenant using the repository, or null. */
  package: string | null;
}

export type { SyncResult } from './repository-import.js';

/** The task importing an installation's repositories. */
export const HOSTAPP_SYNC_TASK = 'hostapp.sync';

/**
 * The GitHub App integration (issue 6): installations of the app give Packyard access to private
 * repositories. An installation arrives by webhook (claimed at once by the one registry of a
 * server without tenants, unclaimed in Cloud) or is claimed by id; a claimed,
 * active installation lends an installation token for the repositories it covers, and `sync`
 * adds a package for each of its repositories whose default branch has a composer.json.
 */
export class HostAppService implements CredentialSource {
  private client: GitHubAppClient | null = null;

  /** `packages` is a getter: PackageService is built after this one (it needs the credentials). */
  constructor(
    private readonly deps: Deps,
    private readonly packages?: () => Packages,
    private readonly tasks?: TaskService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  get configured(): boolean {
    const app = this.deps.config.githubApp;
    return Boolean(app.appId && app.privateKey && app.slug);
  }

  status(): HostAppStatus {
    const app = this.deps.config.githubApp;
    return {
      configured: this.configured,
      appId: app.appId,
      appSlug: app.slug,
      installUrl: this.configured ? this.installUrlOf(app.slug ?? '') : null,
    };
  }

  /**
   * FEATURE_NOT_AVAILABLE unless the app is configured: every method reading or changing
   * installations asks (REST and GraphQL alike); only `status` works unconfigured.
   */
  private assertConfigured(): void {
    if (!this.configured) {
      throw featureNotAvailable(
        'The GitHub App is not configured on this server (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG)',
      );
    }
  }

  /** Where an organisation owner installs the app on GitHub. */
  installUrl(): string {
    this.api();
    return this.installUrlOf(this.deps.config.githubApp.slug ?? '');
  }

  private installUrlOf(slug: string): string {
    return `${this.deps.config.github.url}/apps/${encodeURIComponent(slug)}/installations/new`;
  }

  /** The one API client of the process (its token cache lives as long as the process). */
  private api(): GitHubAppClient {
    this.assertConfigured();
    if (!this.client) {
      const app = this.deps.config.githubApp;
      this.client = new GitHubAppClient({
        appId: app.appId ?? '',
        privateKey: app.privateKey ?? '',
        apiUrl: this.deps.config.github.apiUrl,
        timeoutMs: this.deps.config.hostApiTimeoutMs,
      });
    }
    return this.client;
  }

  async list(ctx: Ctx, page?: PageWindow) {
    this.assertConfigured();
    return store.listClaimed(this.db, ctx.tenantId, page);
  }

  /** One installation claimed by this tenant, by our id. */
  async get(ctx: Ctx, id: string): Promise<InstallationRow> {
    this.assertConfigured();
    const row = await store.findClaimed(this.db, ctx.tenantId, id);
    if (!row) throw notFound('Installation');
    return row;
  }

  /** One installation claimed by this tenant, by GitHub's installation id. */
  async getByHostId(ctx: Ctx, hostInstallationId: string): Promise<InstallationRow> {
    this.assertConfigured();
    const row = await store.findByHostId(this.db, canonicalHostId(hostInstallationId));
    if (!row || row.tenant_id !== ctx.tenantId) throw notFound('Installation');
    return row;
  }

  /**
   * Attaches an installation of the app to this tenant after GitHub confirmed it (app JWT).
   * `created` is false when this tenant had claimed it already; another tenant's is a conflict.
   */
  async claim(
    ctx: Ctx,
    installationId: string | number,
  ): Promise<{ row: InstallationRow; created: boolean }> {
    const api = this.api();
    const hostId = canonicalHostId(String(installationId));
    const remote = await api.installation(hostId);
    if (!remote) throw notFound(`Installation ${hostId} of this GitHub App`);
    const existing = await store.findByHostId(this.db, hostId);
    if (existing?.tenant_id && existing.tenant_id !== ctx.tenantId) {
      throw conflict(`Installation ${hostId} is already claimed by another registry`);
    }
    const status = remote.suspended_at ? 'suspended' : 'active';
    // The repository list decides which repositories lend credentials: read it now.
    const repositories =
      status === 'active' ? (await api.repositories(hostId)).map((r) => r.full_name) : null;
    const now = nowIso();
    const patch: store.InstallationPatch = {
      account_login: remote.account?.login ?? existing?.account_login ?? '',
      account_type: remote.account?.type ?? existing?.account_type ?? 'Organization',
      repository_selection: remote.repository_selection,
      status,
      ...(repositories ? { repositories: JSON.stringify(repositories) } : {}),
      updated_at: now,
    };
    if (existing?.tenant_id === ctx.tenantId) {
      await store.updateByHostId(this.db, hostId, patch);
      return { row: await this.get(ctx, existing.id), created: false };
    }
    const id = existing?.id ?? newId();
    try {
      await this.claimInTransaction(ctx, id, hostId, existing, patch, now);
    } catch (err) {
      // Another claim, or (outside Cloud) the installation webhook claiming on arrival, got
      // there first: when that was for this tenant the installation is ours, as a re-claim.
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      const current = await store.findByHostId(this.db, hostId);
      if (current?.tenant_id !== ctx.tenantId) throw err;
      await store.updateByHostId(this.db, hostId, patch);
      return { row: await this.get(ctx, current.id), created: false };
    }
    return { row: await this.get(ctx, id), created: true };
  }

  /** Inserts (when new) and claims the installation with its audit entry; CONFLICT if taken. */
  private async claimInTransaction(
    ctx: Ctx,
    id: string,
    hostId: string,
    existing: InstallationRow | undefined,
    patch: store.InstallationPatch,
    now: string,
  ): Promise<void> {
    const meanwhile = () => conflict(`Installation ${hostId} was claimed meanwhile`);
    await this.db.transaction().execute(async (trx) => {
      if (!existing) {
        try {
          await store.insertInstallation(trx, store.newInstallationRow(id, hostId, patch, now));
        } catch (err) {
          if (isUniqueViolation(err)) throw meanwhile();
          throw err;
        }
      }
      const claimed = await store.claimRow(trx, id, ctx.tenantId, { ...patch, claimed_at: now });
      if (claimed === 0) throw meanwhile();
      await recordAudit(
        trx,
        ctx,
        store.claimAuditEntry(store.newInstallationRow(id, hostId, patch, now)),
      );
    });
  }

  /** Detaches the installation from this tenant; its packages stay (they lose its token). */
  async remove(ctx: Ctx, id: string): Promise<void> {
    const row = await this.get(ctx, id);
    await this.db.transaction().execute(async (trx) => {
      await store.detach(trx, ctx.tenantId, row.id, nowIso());
      await recordAudit(trx, ctx, {
        action: 'hostapp.remove',
        target: { type: 'hostapp_installation', id: row.id },
        summary: {
          host_installation_id: row.host_installation_id,
          account_login: row.account_login,
        },
      });
    });
  }

  /**
   * The installation's repositories on GitHub (all of them are read: GitHub's order is not ours,
   * and the stored list is refreshed), with the package using each (if any): one page of them,
   * in GitHub's order, and how many there are.
   */
  async repositories(
    ctx: Ctx,
    id: string,
    page?: PageWindow,
  ): Promise<{ rows: RepositoryView[]; total: number }> {
    const row = await this.activeInstallation(ctx, id);
    const repos = await this.api().repositories(row.host_installation_id);
    await this.rememberRepositories(row, repos);
    const shown = page ? repos.slice(page.offset, page.offset + page.limit) : repos;
    if (shown.length === 0) return { rows: [], total: repos.length };
    const byUrl = await this.packagesByRepository(ctx);
    const rows = shown.map((repo) => ({
      repo,
      package:
        byUrl.get(repositoryKey(repo.clone_url)) ?? byUrl.get(repositoryKey(repo.html_url)) ?? null,
    }));
    return { rows, total: repos.length };
  }

  /**
   * `POST …/sync`: queues the import as a task (202): one composer.json read and one
   * `git ls-remote` per repository take minutes for large installations. The task's result is
   * the SyncResult; asking again while it is pending or running answers the same task.
   */
  async queueSync(ctx: Ctx, id: string): Promise<TaskRow> {
    const row = await this.activeInstallation(ctx, id);
    if (!this.tasks) throw new AppError('INTERNAL_ERROR', 'Task service not wired');
    return this.tasks.enqueue(
      ctx,
      HOSTAPP_SYNC_TASK,
      {
        installation_id: row.id,
        account_login: row.account_login,
        // The packages it adds are audited as added by whoever asked for the import.
        requested_by: ctx.actor.kind === 'root' || ctx.actor.kind === 'cma' ? ctx.actor : null,
      },
      `${HOSTAPP_SYNC_TASK}:${row.id}`,
    );
  }

  /** The `hostapp.sync` task, run by a worker on behalf of the admin who queued it. */
  runSync(tenantId: string, id: string, requestedBy: unknown = null): Promise<SyncResult> {
    return this.sync({ tenantId, actor: adminActorOf(requestedBy) }, id);
  }

  /** Imports the installation's repositories holding a composer.json as packages. */
  async sync(ctx: Ctx, id: string): Promise<SyncResult> {
    const row = await this.activeInstallation(ctx, id);
    const api = this.api();
    const packages = this.packages?.();
    if (!packages) throw new AppError('INTERNAL_ERROR', 'Package service not wired');
    const repos = await api.repositories(row.host_installation_id);
    await this.rememberRepositories(row, repos);
    return importRepositories(ctx, this.db, api, packages, row, repos);
  }

  /**
   * Credentials for cloning `url`: an installation token when the URL is a repository on the
   * configured GitHub, owned by the account of an active installation this tenant claimed that
   * covers it. Otherwise null, and the next source (OAuth connections) is asked.
   */
  async forRepository(tenantId: string, url: string): Promise<GitCredentials | null> {
    if (!this.configured) return null;
    const repo = this.repositoryOf(url);
    if (!repo) return null;
    const rows = await store.activeClaimed(this.db, tenantId);
    const fullName = `${repo.owner}/${repo.name}`.toLowerCase();
    const row = rows.find(
      (r) =>
        r.account_login.toLowerCase() === repo.owner.toLowerCase() &&
        (r.repository_selection === 'all' ||
          store.repositoriesOf(r).some((n) => n.toLowerCase() === fullName)),
    );
    if (!row) return null;
    try {
      const token = await this.api().installationToken(row.host_installation_id);
      return { username: 'x-access-token', password: token };
    } catch (err) {
      // GitHub refused or is down: let the next source (or an anonymous clone) try.
      this.deps.log.warn(
        { err, tenant: tenantId, installation: row.host_installation_id, repository: fullName },
        'GitHub App installation token could not be minted',
      );
      return null;
    }
  }

  /** owner/name of an http(s) URL on the configured GitHub, or null. */
  private repositoryOf(url: string): { owner: string; name: string } | null {
    let parsed: URL;
    let origin: string;
    try {
      parsed = new URL(url);
      origin = new URL(this.deps.config.github.url).origin;
    } catch {
      return null;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    if (parsed.origin !== origin) return null;
    const match = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(parsed.pathname);
    if (!match?.[1] || !match[2]) return null;
    return { owner: decodeURIComponent(match[1]), name: decodeURIComponent(match[2]) };
  }

  /**
   * installation / installation_repositories webhook events keep the installation list current.
   * Without the tenants feature (every edition but Cloud) the server has one registry, so an
   * installation arriving by webhook is claimed by it at once, audited with the webhook (`ctx`)
   * as actor; in Cloud it waits, unclaimed, for a registry to claim it.
   */
  handleInstallationEvent(ctx: Ctx, event: string, payload: unknown): Promise<WebhookResult> {
    const claimant: Ctx | null = hasFeature(this.deps.config.edition, 'tenants')
      ? null
      : { ...ctx, tenantId: DEFAULT_TENANT_ID };
    return applyInstallationEvent(this.db, this.deps.dialect, event, payload, claimant);
  }

  private async activeInstallation(ctx: Ctx, id: string): Promise<InstallationRow> {
    const row = await this.get(ctx, id);
    if (row.status !== 'active') {
      throw conflict(`Installation ${row.host_installation_id} is ${row.status} on GitHub`);
    }
    return row;
  }

  private async rememberRepositories(row: InstallationRow, repos: GitHubRepository[]) {
    await store.updateByHostId(this.db, row.host_installation_id, {
      repositories: JSON.stringify(repos.map((r) => r.full_name)),
      updated_at: nowIso(),
    });
  }

  private async packagesByRepository(ctx: Ctx): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('packages')
      .select(['name', 'repository_key'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('type', '!=', 'artifact')
      .orderBy('name')
      .execute();
    const out = new Map<string, string>();
    for (const row of rows) {
      if (!out.has(row.repository_key)) out.set(row.repository_key, row.name);
    }
    return out;
  }
}

/** The admin actor stored in a task payload, or the system when there is none (or it is bad). */
function adminActorOf(value: unknown): Actor {
  const actor = value as { kind?: unknown; id?: unknown; level?: unknown } | null;
  if (actor?.kind === 'root') return { kind: 'root', id: null, level: 'owner' };
  if (
    actor?.kind === 'cma' &&
    typeof actor.id === 'string' &&
    (ADMIN_LEVELS as readonly unknown[]).includes(actor.level)
  ) {
    return { kind: 'cma', id: actor.id, level: actor.level as AdminLevel };
  }
  return { kind: 'system', id: null };
}

/** GitHub's numeric id without leading zeros, as stored. */
function canonicalHostId(id: string): string {
  const trimmed = id.trim();
  if (!/^[0-9]{1,20}$/.test(trimmed) || /^0+$/.test(trimmed)) throw notFound('Installation');
  return trimmed.replace(/^0+/, '');
}
