import { jwtVerify } from 'jose';
import type { AdminActor, AdminLevel, Deps } from '../../context.js';
import { constantTimeEqual, digest, hasValidChecksum } from '../../infra/crypto.js';
import { applyExpiry } from '../customers/expiry.js';
import type { CustomerRow } from '../customers/store.js';

export const CUSTOMER_TOKEN_PREFIX = 'pkt_';
export const TEAM_TOKEN_PREFIX = 'cma_';

/** A customer authenticated on the composer surface (by token or JWT). */
export interface CustomerPrincipal {
  customer: CustomerRow;
  tokenId: string;
  scope: string;
  packageScopes: string[];
  /** When the token (or JWT) stops being valid, if ever. */
  expiresAt: string | null;
}

/** Resolves bearer and basic credentials to actors. Compares digests only, in constant time. */
export class AuthService {
  constructor(
    private readonly deps: Deps,
    private readonly rootDigest: string,
  ) {}

  async authenticateAdmin(tenantId: string, token: string): Promise<AdminActor | null> {
    const tokenDigest = digest(token);
    if (constantTimeEqual(tokenDigest, this.rootDigest)) {
      return { kind: 'root', id: null, level: 'owner' };
    }
    if (!hasValidChecksum(token, TEAM_TOKEN_PREFIX)) return null;
    const row = await this.deps.db
      .selectFrom('team_tokens')
      .select(['id', 'level', 'token_digest', 'last_used_at'])
      .where('tenant_id', '=', tenantId)
      .where('token_digest', '=', tokenDigest)
      .executeTakeFirst();
    if (!row || !constantTimeEqual(row.token_digest, tokenDigest)) return null;
    this.touch('team_tokens', row.id, row.last_used_at);
    return { kind: 'cma', id: row.id, level: row.level as AdminLevel };
  }

  /** A customer token (`pkt_…`) or a customer JWT; null when neither is valid now. */
  async authenticateCustomer(tenantId: string, secret: string): Promise<CustomerPrincipal | null> {
    if (secret.startsWith(CUSTOMER_TOKEN_PREFIX)) return this.byToken(tenantId, secret);
    if (secret.split('.').length === 3 && this.deps.config.jwtSecret) {
      return this.byJwt(tenantId, secret);
    }
    return null;
  }

  private async byToken(tenantId: string, secret: string): Promise<CustomerPrincipal | null> {
    if (!hasValidChecksum(secret, CUSTOMER_TOKEN_PREFIX)) return null;
    const tokenDigest = digest(secret);
    const row = await this.deps.db
      .selectFrom('customer_tokens as t')
      .innerJoin('customers as c', 'c.id', 't.customer_id')
      .selectAll('c')
      .select([
        't.id as token_id',
        't.scope',
        't.package_scopes',
        't.expires_at',
        't.token_digest',
        't.last_used_at as token_last_used_at',
      ])
      .where('t.tenant_id', '=', tenantId)
      .where('t.token_digest', '=', tokenDigest)
      .executeTakeFirst();
    if (!row || !constantTimeEqual(row.token_digest, tokenDigest)) return null;
    if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return null;
    const {
      token_id,
      scope,
      package_scopes,
      expires_at,
      token_digest: _d,
      token_last_used_at,
      ...customer
    } = row;
    this.touch('customer_tokens', token_id, token_last_used_at);
    return {
      customer: await applyExpiry(this.deps, customer),
      tokenId: token_id,
      scope,
      packageScopes: JSON.parse(package_scopes) as string[],
      expiresAt: expires_at,
    };
  }

  private async byJwt(tenantId: string, token: string): Promise<CustomerPrincipal | null> {
    const secret = new TextEncoder().encode(this.deps.config.jwtSecret ?? '');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }));
    } catch {
      return null;
    }
    if (typeof payload.sub !== 'string' || payload.tid !== tenantId) return null;
    const customer = await this.deps.db
      .selectFrom('customers')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', payload.sub)
      .executeTakeFirst();
    if (!customer) return null;
    const scopes = Array.isArray(payload.package_scopes)
      ? payload.package_scopes.filter((s): s is string => typeof s === 'string')
      : [];
    return {
      customer: await applyExpiry(this.deps, customer),
      tokenId: `jwt:${payload.jti ?? 'anonymous'}`,
      scope: typeof payload.scope === 'string' ? payload.scope : 'download',
      packageScopes: scopes,
      expiresAt:
        typeof payload.exp === 'number' ? new Date(payload.exp * 1000).toISOString() : null,
    };
  }

  /**
   * Records when a token was last used, at most once a minute per token, without making the
   * request wait; a lost update here only makes last_used_at a little older.
   */
  private touch(table: 'customer_tokens' | 'team_tokens', id: string, last: string | null): void {
    const now = Date.now();
    if (last && now - Date.parse(last) < 60_000) return;
    void this.deps.db
      .updateTable(table)
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', id)
      .execute()
      .catch(() => undefined);
  }
}
