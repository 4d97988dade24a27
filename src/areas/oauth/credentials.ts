import type { Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import type { GitCredentials } from '../../infra/git/index.js';
import type { Logger } from '../../infra/logger.js';
import { SecretBoxError } from '../../infra/secret-box.js';
import type { CredentialSource } from '../sync/credentials.js';
import type { OAuthClients } from './clients.js';
import { providerForUrl } from './providers.js';
import type { OAuthProvider } from './providers.js';
import * as store from './store.js';
import type { OAuthConnectionRow } from './store.js';
import { expiresSoon, reasonOf, tokenContext, withDeadline } from './token-grant.js';
import type { Grant } from './token-grant.js';

/**
 * Lends a tenant's OAuth connection to git for https repositories on that host, refreshing the
 * access token first when it expires within a minute.
 */
export class OAuthCredentials implements CredentialSource {
  /** Refreshes under way in this process, so concurrent syncs share one (GitLab rotates tokens). */
  private readonly refreshing = new Map<string, Promise<string | null>>();

  constructor(
    private readonly deps: Deps,
    private readonly clients: OAuthClients,
  ) {}

  /**
   * Credentials for an http(s) repository on GitHub's or GitLab's origin when the tenant is
   * connected there. null when the refresh is refused (git then reports "Authentication failed";
   * the admin reconnects).
   */
  async forRepository(tenantId: string, url: string): Promise<GitCredentials | null> {
    const provider = providerForUrl(this.deps.config, url);
    if (provider === null || this.clients.box === null) return null;
    const row = await store.findConnection(this.deps.db, tenantId, provider);
    if (!row) return null;
    const token = await this.usableToken(row);
    return token === null
      ? null
      : { username: this.clients.spec(provider).gitUsername, password: token };
  }

  /** The stored token in clear, or null (with a warning) when it cannot be decrypted. */
  private open(row: OAuthConnectionRow, kind: 'access' | 'refresh'): string | null {
    const sealed = kind === 'access' ? row.access_token_enc : row.refresh_token_enc;
    if (sealed === null || this.clients.box === null) return null;
    try {
      return this.clients.box.decrypt(sealed, tokenContext(row.id, kind));
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
    let configured: ReturnType<OAuthClients['configured']>;
    try {
      configured = this.clients.configured(provider);
    } catch (err) {
      warn(this.deps.log, row, `its token cannot be refreshed: ${(err as Error).message}`);
      return stillValid();
    }
    const { client, spec } = configured;
    let grant: Grant;
    try {
      grant = await withDeadline(
        client.refreshAccessToken(spec.tokenUrl, refreshToken, []),
        this.deps.config.hostApiTimeoutMs,
      );
    } catch (err) {
      // Another node may have refreshed first (GitLab then refuses our spent refresh token).
      const current = await store.findConnection(this.deps.db, row.tenant_id, provider);
      if (current && current.access_token_enc !== row.access_token_enc && !expiresSoon(current)) {
        return this.open(current, 'access');
      }
      warn(this.deps.log, row, `${spec.label} refused to refresh its token: ${reasonOf(err)}`);
      return stillValid();
    }
    const box = this.clients.requireBox();
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

function warn(log: Logger, row: OAuthConnectionRow, problem: string): void {
  log.warn(
    { tenant: row.tenant_id, provider: row.provider },
    `oauth: the ${row.provider} connection needs attention: ${problem}; ` +
      `reconnect with POST /api/v1/oauth/${row.provider}/initiate`,
  );
}
