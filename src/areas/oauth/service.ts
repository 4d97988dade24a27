import { CodeChallengeMethod, generateCodeVerifier, generateState } from 'arctic';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { invalid, notFound, upstreamError } from '../../errors.js';
import { digest, newId } from '../../infra/crypto.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { PageWindow } from '../../infra/db/page.js';
import { transact } from '../../unit-of-work.js';
import { assertSameBrowser } from './browser-binding.js';
import { OAuthClients } from './clients.js';
import { OAuthCredentials } from './credentials.js';
import { presentStatus } from './presenter.js';
import type { HostAccount, OAuthProvider, ProviderSpec } from './providers.js';
import type { CallbackInput, InitiateDto, StatusDto } from './schema.js';
import * as store from './store.js';
import * as states from './states.js';
import type { OAuthConnectionRow } from './store.js';
import { isRefusal, reasonOf, tokenContext, withDeadline } from './token-grant.js';
import type { Grant } from './token-grant.js';

/** How long an authorization may take between initiate and callback. */
export const STATE_TTL_MS = 10 * 60 * 1000;

/** Where the callback request came from: for the audit entry, and the browser's binding cookie. */
export interface CallbackOrigin {
  ip?: string;
  userAgent?: string | null;
  /** The value of the binding cookie `initiate` set in the browser, when it sent one. */
  browserBinding?: string | null;
}

export interface CallbackResult {
  label: string;
  hostUrl: string;
  status: StatusDto;
}

/**
 * OAuth connections of a registry to GitHub and GitLab (issue 6): authorization with `state` and
 * PKCE, and token storage (encrypted with ENCRYPTION_KEY); `credentials` lends them to git. One connection per tenant and host; reconnecting replaces it.
 */
export class OAuthService {
  readonly clients: OAuthClients;
  /** The connections as git credentials (registered with RepositoryCredentials). */
  readonly credentials: OAuthCredentials;

  constructor(private readonly deps: Deps) {
    this.clients = new OAuthClients(deps.config);
    this.credentials = new OAuthCredentials(deps, this.clients);
  }

  private spec(provider: OAuthProvider): ProviderSpec {
    return this.clients.spec(provider);
  }

  private configured(provider: OAuthProvider) {
    return this.clients.configured(provider);
  }

  private ready(provider: OAuthProvider): boolean {
    return this.clients.missingSettings(provider).length === 0;
  }

  /**
   * Starts an authorization: the URL to open in a browser, valid for ten minutes, once, and the
   * value the initiating browser keeps in a cookie (`browserBinding`): the callback is accepted
   * only from the browser that holds it (required in Cloud, see `callback`).
   */
  async initiate(
    ctx: Ctx,
    provider: OAuthProvider,
  ): Promise<InitiateDto & { browserBinding: string }> {
    const { spec, client } = this.configured(provider);
    const state = generateState();
    const verifier = generateCodeVerifier();
    const browserBinding = generateState();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + STATE_TTL_MS).toISOString();
    await transact(this.deps, ctx, async ({ db }) => {
      await states.deleteExpiredStates(db, ctx.tenantId, now.toISOString());
      await states.insertState(db, {
        state,
        tenant_id: ctx.tenantId,
        provider,
        code_verifier: verifier,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        browser_digest: digest(browserBinding),
      });
    });
    const url = client.createAuthorizationURLWithPKCE(
      spec.authorizeUrl,
      state,
      CodeChallengeMethod.S256,
      verifier,
      spec.scopes,
    );
    return {
      provider,
      authorization_url: url.toString(),
      state,
      expires_at: expiresAt,
      browserBinding,
    };
  }

  /**
   * The host sent the browser back: checks and spends the state, exchanges the code (with the
   * PKCE verifier), reads the account and stores the connection in the state's tenant. Nothing is
   * stored unless every step succeeds.
   */
  async callback(
    origin: CallbackOrigin,
    provider: OAuthProvider,
    input: CallbackInput,
  ): Promise<CallbackResult> {
    const spec = this.spec(provider);
    if (input.error) {
      // The flow is over either way: the state may not be used again.
      if (input.state) await states.takeState(this.deps.db, provider, input.state);
      const why = input.error_description ? ` (${input.error_description})` : '';
      throw invalid(
        'error',
        `${spec.label} did not authorize the connection: ${input.error}${why}`,
      );
    }
    if (!input.state) throw invalid('state', 'is required');
    if (!input.code) throw invalid('code', 'is required');
    const pending = await states.takeState(this.deps.db, provider, input.state);
    const restart = `start again with POST /api/v1/oauth/${provider}/initiate`;
    if (!pending) throw invalid('state', `is unknown or was already used; ${restart}`);
    // The state is spent either way: a link that reached another browser cannot be retried.
    assertSameBrowser(
      this.deps.config,
      pending.browser_digest,
      origin.browserBinding ?? null,
      restart,
    );
    if (Date.parse(pending.expires_at) <= Date.now()) {
      throw invalid('state', `has expired (authorizations last 10 minutes); ${restart}`);
    }
    const { client } = this.configured(provider);

    let grant: Grant;
    try {
      grant = await withDeadline(
        client.validateAuthorizationCode(spec.tokenUrl, input.code, pending.code_verifier),
        this.deps.config.hostApiTimeoutMs,
      );
    } catch (err) {
      if (isRefusal(err)) {
        throw invalid('code', `${spec.label} refused the authorization code: ${reasonOf(err)}`);
      }
      // The host failed (unreachable, 5xx): not the caller's fault, and worth a retry.
      throw upstreamError(`${spec.label} could not exchange the code: ${reasonOf(err)}`);
    }
    const account = await this.account(spec, grant.accessToken);

    const ctx: Ctx = {
      tenantId: pending.tenant_id,
      actor: { kind: 'system', id: null },
      ip: origin.ip,
      userAgent: origin.userAgent ?? null,
    };
    const row = await this.store(ctx, provider, grant, account);
    return {
      label: spec.label,
      hostUrl: spec.baseUrl,
      status: presentStatus(provider, this.ready(provider), row),
    };
  }

  async status(ctx: Ctx, provider: OAuthProvider): Promise<StatusDto> {
    const row = await store.findConnection(this.deps.db, ctx.tenantId, provider);
    return presentStatus(provider, this.ready(provider), row);
  }

  list(ctx: Ctx, window: PageWindow = { offset: 0, limit: 100 }) {
    return store.listConnections(this.deps.db, ctx.tenantId, window);
  }

  /** Forgets the connection and its tokens; syncs stop using them at once. */
  async disconnect(ctx: Ctx, provider: OAuthProvider): Promise<void> {
    const spec = this.spec(provider);
    await transact(this.deps, ctx, async (tx) => {
      const row = await store.findConnection(tx.db, ctx.tenantId, provider);
      if (!row || !(await store.deleteConnection(tx.db, ctx.tenantId, provider))) {
        throw notFound(`${spec.label} connection`);
      }
      await tx.audit({
        action: 'oauth.disconnect',
        target: { type: 'oauth_connection', id: provider },
        summary: { provider, account_login: row.account_login },
      });
    });
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The account the new token belongs to, from the host's user API. */
  private async account(spec: ProviderSpec, token: string): Promise<HostAccount> {
    const fail = (why: string) =>
      invalid('code', `${spec.label} did not show the account of the new token: ${why}`);
    let res: Response;
    try {
      res = await fetch(spec.userUrl, {
        headers: { ...spec.apiHeaders, authorization: `Bearer ${token}`, 'user-agent': 'Packyard' },
        signal: AbortSignal.timeout(this.deps.config.hostApiTimeoutMs),
      });
    } catch (err) {
      throw fail(`${spec.userUrl} could not be reached (${(err as Error).message})`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw fail(`${spec.userUrl} answered HTTP ${res.status}`);
    }
    const body: unknown = await res.json().catch(() => null);
    const account =
      body && typeof body === 'object' ? spec.accountOf(body as Record<string, unknown>) : null;
    if (!account) throw fail(`${spec.userUrl} answered without a user name`);
    return account;
  }

  /** Replaces the tenant's connection to the provider with the new tokens, audited. */
  private async store(
    ctx: Ctx,
    provider: OAuthProvider,
    grant: Grant,
    account: HostAccount,
  ): Promise<OAuthConnectionRow> {
    const box = this.clients.requireBox();
    const now = nowIso();
    const id = newId();
    const row: OAuthConnectionRow = {
      id,
      tenant_id: ctx.tenantId,
      provider,
      account_login: account.login,
      account_id: account.id,
      access_token_enc: box.encrypt(grant.accessToken, tokenContext(id, 'access')),
      refresh_token_enc: grant.refreshToken
        ? box.encrypt(grant.refreshToken, tokenContext(id, 'refresh'))
        : null,
      expires_at: grant.expiresAt,
      scopes: JSON.stringify(grant.scopes ?? this.spec(provider).scopes),
      created_at: now,
      updated_at: now,
    };
    const write = () =>
      transact(this.deps, ctx, async (tx) => {
        const replaced = await store.deleteConnection(tx.db, ctx.tenantId, provider);
        await store.insertConnection(tx.db, row);
        await tx.audit({
          action: 'oauth.connect',
          target: { type: 'oauth_connection', id: provider },
          summary: {
            provider,
            account_login: account.login,
            scopes: JSON.parse(row.scopes) as string[],
            expires_at: row.expires_at,
            replaced,
          },
        });
      });
    try {
      await write();
    } catch (err) {
      // Two callbacks of the same tenant and host raced: the later one replaces the other.
      if (!isUniqueViolation(err)) throw err;
      await write();
    }
    return row;
  }
}
