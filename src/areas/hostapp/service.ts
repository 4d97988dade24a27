import { packagesWithRepository } from '../packages/catalog.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import type { HostAppStatus, RepositoryView } from './views.js';
import { AppError, conflict, featureNotAvailable, notFound } from '../../errors.js';
import type { GitCredentials } from '../../infra/git/index.js';
import type { CredentialSource } from '../sync/credentials.js';
import { transact } from '../../unit-of-work.js';
import { repositoryKey } from '../../infra/git/repository-url.js';
import type { WebhookResult } from '../webhooks/types.js';
import { GitHubAppClient } from './github-api.js';
import type { GitHubRepository } from './github-api.js';
import * as store from './store.js';
import { applyInstallationEvent } from './installation-events.js';
import { importRepositories } from './repository-import.js';
import { canonicalHostId, claimInstallation } from './claim.js';
import { createClaimLink, proveManages, setupContext } from './claim-proof.js';
import type { SetupOrigin, SetupQuery } from './claim-proof.js';
import { adminActorOf } from './task-actor.js';
import { installationCredentials } from './installation-credentials.js';
import type { TaskService } from '../tasks/service.js';
import type { TaskRow } from '../tasks/store.js';
import type { Packages, SyncResult } from './repository-import.js';
import type { InstallationRow } from './store.js';
import type { PageWindow } from '../../infra/db/page.js';
import { hasFeature } from '../../editions.js';
import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';

export type { InstallationRow } from './store.js';

export type { HostAppStatus, RepositoryView } from './views.js';
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

  async status(_ctx: Ctx): Promise<HostAppStatus> {
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
  async installUrl(_ctx: Ctx): Promise<string> {
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
        clientId: app.clientId,
        clientSecret: app.clientSecret,
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
  /**
   * Claims an installation for this registry. `code` (the App's user authorization code) proves
   * the claimer manages it; Cloud requires it (see claim-proof.ts).
   */
  async claim(
    ctx: Ctx,
    installationId: string | number,
    code?: string,
  ): Promise<{ row: InstallationRow; created: boolean }> {
    const api = this.api();
    const provedBy = await proveManages(this.deps, () => api, installationId, code);
    const { id, created } = await claimInstallation(this.deps, api, ctx, installationId, provedBy);
    return { row: await this.get(ctx, id), created };
  }

  /** The install link that claims for this registry with proof (Setup URL flow). */
  async claimLink(ctx: Ctx) {
    return createClaimLink(this.deps, ctx, await this.installUrl(ctx));
  }

  /**
   * GitHub sent the browser to the Setup URL after an install (or a configuration) started from
   * a claim link: the state names the registry, the code proves the user manages the
   * installation, and the installation is claimed for that registry.
   */
  async completeSetup(query: SetupQuery, origin: SetupOrigin): Promise<InstallationRow> {
    const ctx = await setupContext(this.deps, query, origin);
    return (await this.claim(ctx, query.installation_id!, query.code)).row;
  }

  /** Detaches the installation from this tenant; its packages stay (they lose its token). */
  async remove(ctx: Ctx, id: string): Promise<void> {
    const row = await this.get(ctx, id);
    await transact(this.deps, ctx, async (tx) => {
      await store.detach(tx.db, ctx.tenantId, row.id, nowIso());
      await tx.audit({
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
  runSync(
    tenantId: string,
    id: string,
    requestedBy: unknown = null,
    signal?: AbortSignal,
  ): Promise<SyncResult> {
    return this.sync({ tenantId, actor: adminActorOf(requestedBy) }, id, signal);
  }

  /** Imports the installation's repositories holding a composer.json as packages. */
  async sync(ctx: Ctx, id: string, signal?: AbortSignal): Promise<SyncResult> {
    const row = await this.activeInstallation(ctx, id);
    const api = this.api();
    const packages = this.packages?.();
    if (!packages) throw new AppError('INTERNAL_ERROR', 'Package service not wired');
    const repos = await api.repositories(row.host_installation_id);
    await this.rememberRepositories(row, repos);
    return importRepositories(ctx, this.db, api, packages, row, repos, signal);
  }

  /**
   * Credentials for cloning `url`: an installation token when the URL is a repository on the
   * configured GitHub covered by an active installation this tenant claimed (installation-credentials.ts).
   */
  forRepository(tenantId: string, url: string): Promise<GitCredentials | null> {
    if (!this.configured) return Promise.resolve(null);
    return installationCredentials(this.deps, () => this.api(), tenantId, url);
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
    return applyInstallationEvent(this.deps, ctx, event, payload, claimant);
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
    const rows = await packagesWithRepository(this.db, ctx.tenantId);
    const out = new Map<string, string>();
    for (const row of rows) {
      if (!out.has(row.repository_key)) out.set(row.repository_key, row.name);
    }
    return out;
  }
}
