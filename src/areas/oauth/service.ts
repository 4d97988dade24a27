import {
  ArcticFetchError,
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
  generateCodeVerifier,
  generateState,
} from 'arctic';
import type { OAuth2Tokens } from 'arctic';
import type { Logger } from '../../infra/logger.js';
import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { AppError, featureNotAvailable, invalid, notFound, upstreamError } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import type { GitCredentials } from '../../infra/git/index.js';
import { SecretBox, SecretBoxError } from '../../infra/secret-box.js';
import { recordAudit } from '../audit/record.js';
import type { CredentialSource } from '../sync/credentials.js';
import { presentStatus } from './presenter.js';
import { providerForUrl, providerSpec } from './providers.js';
import type { HostAccount, OAuthProvider, ProviderSpec } from './providers.js';
import type { CallbackInput, InitiateDto, StatusDto } from './schema.js';
import * as store from './store.js';
import type { OAuthConnectionRow } from './store.js';
import { isUniqueViolation } from '../../infra/db/errors.js';

/** How long an authorization may take between initiate and callback. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** A token this close to its expiry is refreshed before it is lent to git. */
export const REFRESH_MARGIN_MS = 60 * 1000;
const HOST_TIMEOUT_MS = 15_000;

/** Where the callback request came from, for the audit entry it writes. */
export interface CallbackOrigin {
  ip?: string;
  userAgent?: string | null;
}

export interface CallbackResult {
  label: string;
  hostUrl: string;
  status: StatusDto;
}

/** What a token endpoint granted, read from its answer. */
interface Grant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
  /** null when the host did not say (keep what was asked for or stored). */
  scopes: string[] | null;
}

/** The host answered the token request with an OAuth error, or not at all as expected. */
class HostError extends Error {}

/**
 * OAuth connections of a registry to GitHub and GitLab (issue 6): authorization with `state` and
 * PKCE, token storage (encrypted with ENCRYPTION_KEY), refresh, and credentials for syncing https
 * repositories on those hosts. One connection per tenant and host; reconnecting replaces it.
 */
export class OAuthService implements CredentialSource {
  private readonly box: SecretBox | null;
  /** Refreshes under way in this process, so concurrent syncs share one (GitLab rotates tokens). */
  private readonly refreshing = new Map<string, Promise<string | null>>();

  constructor(private readonly deps: Deps) {
    this.box = deps.config.encryptionKey ? new SecretBox(deps.config.encryptionKey) : null;
  }

  private spec(provider: OAuthProvider): ProviderSpec {
    return providerSpec(this.deps.config, provider);
  }

  /** The settings still needed before `provider` can be connected (empty when configured). */
  missingSettings(provider: OAuthProvider): string[] {
    const spec = this.spec(provider);
    const missing: string[] = [];
    if (!spec.clientId) missing.push(spec.settingNames.clientId);
    if (!spec.clientSecret) missing.push(spec.settingNames.clientSecret);
    if (!this.box) missing.push('ENCRYPTION_KEY');
    return missing;
  }

  redirectUri(provider: OAuthProvider): string {
    return `${this.deps.config.baseUrl}/api/oauth/${provider}/callback`;
  }

  /** Starts an authorization: the URL to open in a browser, valid for ten minutes, once. */
  async initiate(ctx: Ctx, provider: OAuthProvider): Promise<InitiateDto> {
    const { spec, client } = this.configured(provider);
    const state = generateState();
    const verifier = generateCodeVerifier();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + STATE_TTL_MS).toISOString();
    await store.deleteExpiredStates(this.deps.db, ctx.tenantId, now.toISOString());
    await store.insertState(this.deps.db, {
      state,
      tenant_id: ctx.tenantId,
      provider,
      code_verifier: verifier,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    const url = client.createAuthorizationURLWithPKCE(
      spec.authorizeUrl,
      state,
      CodeChallengeMethod.S256,
      verifier,
      spec.scopes,
    );
    return { provider, authorization_url: url.toString(), state, expires_at: expiresAt };
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
      if (input.state) await store.takeState(this.deps.db, provider, input.state);
      const why = input.error_description ? ` (${input.error_description})` : '';
      throw invalid(
        'error',
        `${spec.label} did not authorize the connection: ${input.error}${why}`,
      );
    }
    if (!input.state) throw invalid('state', 'is required');
    if (!input.code) throw invalid('code', 'is required');
    const pending = await store.takeState(this.deps.db, provider, input.state);
    const restart = `start again with POST /api/v1/oauth/${provider}/initiate`;
    if (!pending) throw invalid('state', `is unknown or was already used; ${restart}`);
    if (Date.parse(pending.expires_at) <= Date.now()) {
      throw invalid('state', `has expired (authorizations last 10 minutes); ${restart}`);
    }
    const { client } = this.configured(provider);

    let grant: Grant;
    try {
      const tokens = await client.validateAuthorizationCode(
        spec.tokenUrl,
        input.code,
        pending.code_verifier,
      );
      grant = grantOf(tokens);
    } catch (err) {
      if (err instanceof HostError || err instanceof OAuth2RequestError) {
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
      status: presentStatus(provider, this.missingSettings(provider).length === 0, row),
    };
  }

  async status(ctx: Ctx, provider: OAuthProvider): Promise<StatusDto> {
    const row = await store.findConnection(this.deps.db, ctx.tenantId, provider);
    return presentStatus(provider, this.missingSettings(provider).length === 0, row);
  }

  async list(ctx: Ctx): Promise<OAuthConnectionRow[]> {
    return store.listConnections(this.deps.db, ctx.tenantId);
  }

  /** Forgets the connection and its tokens; syncs stop using them at once. */
  async disconnect(ctx: Ctx, provider: OAuthProvider): Promise<void> {
    const spec = this.spec(provider);
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await store.findConnection(trx, ctx.tenantId, provider);
      if (!row || !(await store.deleteConnection(trx, ctx.tenantId, provider))) {
        throw notFound(`${spec.label} connection`);
      }
      await recordAudit(trx, ctx, {
        action: 'oauth.disconnect',
        target: { type: 'oauth_connection', id: provider },
        summary: { provider, account_login: row.account_login },
      });
    });
  }

  /**
   * Credentials for an http(s) repository on GitHub's or GitLab's origin when the tenant is
   * connected there: the access token, refreshed first when it expires within a minute. null when
   * the refresh is refused (git then reports "Authentication failed"; the admin reconnects).
   */
  async forRepository(tenantId: string, url: string): Promise<GitCredentials | null> {
    const provider = providerForUrl(this.deps.config, url);
    if (provider === null || this.box === null) return null;
    const row = await store.findConnection(this.deps.db, tenantId, provider);
    if (!row) return null;
    const token = await this.usableToken(row);
    return token === null ? null : { username: this.spec(provider).gitUsername, password: token };
  }

  // ---- internals ------------------------------------------------------------------------------

  private configured(provider: OAuthProvider) {
    const spec = this.spec(provider);
    const missing = this.missingSettings(provider);
    if (missing.length > 0 || !spec.clientId || !spec.clientSecret) {
      throw featureNotAvailable(
        `OAuth connections to ${spec.label} are not configured: set ${missing.join(', ')}`,
      );
    }
    const client = new OAuth2Client(spec.clientId, spec.clientSecret, this.redirectUri(provider));
    return { spec, client };
  }

  /** The account the new token belongs to, from the host's user API. */
  private async account(spec: ProviderSpec, token: string): Promise<HostAccount> {
    const fail = (why: string) =>
      invalid('code', `${spec.label} did not show the account of the new token: ${why}`);
    let res: Response;
    try {
      res = await fetch(spec.userUrl, {
        headers: { ...spec.apiHeaders, authorization: `Bearer ${token}`, 'user-agent': 'Packyard' },
        signal: AbortSignal.timeout(HOST_TIMEOUT_MS),
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
    const box = this.requireBox();
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
      this.deps.db.transaction().execute(async (trx) => {
        const replaced = await store.deleteConnection(trx, ctx.tenantId, provider);
        await store.insertConnection(trx, row);
        await recordAudit(trx, ctx, {
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

  private requireBox(): SecretBox {
    if (!this.box) throw featureNotAvailable('OAuth connections need ENCRYPTION_KEY');
    return this.box;
  }

  /** The stored token in clear, or null (with a warning) when it cannot be decrypted. */
  private open(row: OAuthConnectionRow, kind: 'access' | 'refresh'): string | null {
    const sealed = kind === 'access' ? row.access_token_enc : row.refresh_token_enc;
    if (sealed === null || this.box === null) return null;
    try {
      return this.box.decrypt(sealed, tokenContext(row.id, kind));
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
      warn(this.deps.log, row, `its ${kind} token cannot be decrypted (${err.message})`);
      return null;
    }
  }

  private async usableToken(row: OAuthConnectionRow): Promise<string | null> {
    if (!expiresSoon(row)) return this.open(row, 'access');
    const key = `${row.tenant_id}\n${row.provider}`;
    let pending = this.refreshing.get(key);
    if (!pending) {
      pending = this.refresh(row).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, pending);
    }
    return pending;
  }

  /** Trades the refresh token for a new pair and stores it; null when that is impossible. */
  private async refresh(row: OAuthConnectionRow): Promise<string | null> {
    const provider = row.provider as OAuthProvider;
    const stillValid = () =>
      row.expires_at !== null && Date.parse(row.expires_at) > Date.now()
        ? this.open(row, 'access')
        : null;
    const refreshToken = this.open(row, 'refresh');
    if (refreshToken === null) {
      if (row.refresh_token_enc === null)
        warn(this.deps.log, row, 'its token expires and it has no refresh token');
      return stillValid();
    }
    let client: OAuth2Client;
    let spec: ProviderSpec;
    try {
      ({ client, spec } = this.configured(provider));
    } catch (err) {
      warn(this.deps.log, row, `its token cannot be refreshed: ${(err as Error).message}`);
      return stillValid();
    }
    let grant: Grant;
    try {
      grant = grantOf(await client.refreshAccessToken(spec.tokenUrl, refreshToken, []));
    } catch (err) {
      // Another node may have refreshed first (GitLab then refuses our spent refresh token).
      const current = await store.findConnection(this.deps.db, row.tenant_id, provider);
      if (current && current.access_token_enc !== row.access_token_enc && !expiresSoon(current)) {
        return this.open(current, 'access');
      }
      warn(this.deps.log, row, `${spec.label} refused to refresh its token: ${reasonOf(err)}`);
      return stillValid();
    }
    const box = this.requireBox();
    await store.replaceTokens(this.deps.db, row, {
      access_token_enc: box.encrypt(grant.accessToken, tokenContext(row.id, 'access')),
      // Hosts that rotate refresh tokens send a new one; the others keep the old one valid.
      refresh_token_enc: grant.refreshToken
        ? box.encrypt(grant.refreshToken, tokenContext(row.id, 'refresh'))
        : row.refresh_token_enc,
      expires_at: grant.expiresAt,
      scopes: grant.scopes ? JSON.stringify(grant.scopes) : row.scopes,
      updated_at: nowIso(),
    });
    return grant.accessToken;
  }
}

/** Binds each ciphertext to its row and kind: a value copied elsewhere does not decrypt. */
function tokenContext(connectionId: string, kind: 'access' | 'refresh'): string {
  return `oauth_connections:${connectionId}:${kind}_token`;
}

function expiresSoon(row: Pick<OAuthConnectionRow, 'expires_at'>): boolean {
  return row.expires_at !== null && Date.parse(row.expires_at) - Date.now() < REFRESH_MARGIN_MS;
}

/**
 * Reads a token endpoint's answer. GitHub answers refusals with HTTP 200 and an `error` field,
 * so that is checked here too; GitHub separates scopes with commas, GitLab with spaces.
 */
function grantOf(tokens: OAuth2Tokens): Grant {
  const data = tokens.data as Record<string, unknown>;
  if (typeof data.error === 'string') {
    const why = typeof data.error_description === 'string' ? ` (${data.error_description})` : '';
    throw new HostError(`${data.error}${why}`);
  }
  if (typeof data.access_token !== 'string' || data.access_token === '') {
    throw new HostError('the answer holds no access_token');
  }
  const expiresIn = Number(data.expires_in);
  const hasExpiry = data.expires_in !== undefined && data.expires_in !== null && expiresIn > 0;
  return {
    accessToken: data.access_token,
    refreshToken:
      typeof data.refresh_token === 'string' && data.refresh_token !== ''
        ? data.refresh_token
        : null,
    expiresAt: hasExpiry ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
    scopes:
      typeof data.scope === 'string' ? data.scope.split(/[\s,]+/).filter((s) => s !== '') : null,
  };
}

/** Why a token request failed, in words fit for an admin (never containing a token). */
function reasonOf(err: unknown): string {
  if (err instanceof HostError) return err.message;
  if (err instanceof OAuth2RequestError) {
    return err.description ? `${err.code} (${err.description})` : err.code;
  }
  if (err instanceof ArcticFetchError) {
    const cause = err.cause instanceof Error ? err.cause.message : 'network error';
    return `the token endpoint could not be reached (${cause})`;
  }
  if (err instanceof UnexpectedErrorResponseBodyError || err instanceof UnexpectedResponseError) {
    return `the token endpoint answered HTTP ${err.status}`;
  }
  if (err instanceof AppError) return err.message;
  return 'unexpected answer from the token endpoint';
}

function warn(log: Logger, row: OAuthConnectionRow, problem: string): void {
  log.warn(
    { tenant: row.tenant_id, provider: row.provider },
    `oauth: the ${row.provider} connection needs attention: ${problem}; ` +
      `reconnect with POST /api/v1/oauth/${row.provider}/initiate`,
  );
}
