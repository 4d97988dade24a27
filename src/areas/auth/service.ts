import { DEFAULT_TENANT_ID } from '../../infra/db/schema.js';
import { jwtVerify } from 'jose';
import type { AdminActor, AdminLevel, CustomerActor, Deps } from '../../context.js';
import { unauthorized } from '../../errors.js';
import { constantTimeEqual, digest, hasValidChecksum } from '../../infra/crypto.js';
import { applyExpiry } from '../customers/expiry.js';
import type { CustomerRow } from '../customers/store.js';
import { TokenUseRecorder } from './token-use.js';
import { customerById, teamTokenByDigest, tokenWithCustomer } from './store.js';

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

/**
 * What a request presented, whatever the transport: a Bearer token (REST, GraphQL over HTTP and
 * WebSocket, Composer) or the password of HTTP Basic `token:<secret>` (Composer's way).
 */
export interface Credentials {
  scheme: 'bearer' | 'basic';
  secret: string;
}

/** Who a request is: an admin (root or CMA token) or a customer (token or JWT). */
export type Principal =
  | { kind: 'admin'; actor: AdminActor }
  | { kind: 'customer'; actor: CustomerActor; customer: CustomerPrincipal };

/** Told about every failed authentication (a counter for failed-authentication limiting). */

/** Resolves bearer and basic credentials to actors. Compares digests only, in constant time. */
export class AuthService {
  /** When tokens were last used, written in batches (token-use.ts). */
  readonly uses: TokenUseRecorder;

  constructor(
    private readonly deps: Deps,
    private readonly rootDigest: string,
  ) {
    this.uses = new TokenUseRecorder(deps.db, deps.log);
  }

  /**
   * The one authentication of every transport (REST, GraphQL over HTTP and WebSocket, Composer).
   * Basic credentials are Composer's and name customers only; a Bearer token may be an admin
   * token or a customer token. `accept` narrows which kinds the caller serves: any other kind
   * fails like an unknown token. Every failure goes through `fail` (listeners hear it there).
   */
  async authenticate(
    tenantId: string,
    credentials: Credentials,
    accept: readonly Principal['kind'][] = ['admin', 'customer'],
    failureMessage = 'Invalid or expired token',
  ): Promise<Principal> {
    const { scheme, secret } = credentials;
    if (scheme === 'bearer' && accept.includes('admin')) {
      const actor = await this.authenticateAdmin(tenantId, secret);
      if (actor) return { kind: 'admin', actor };
    }
    if (accept.includes('customer')) {
      const customer = await this.authenticateCustomer(tenantId, secret);
      if (customer) {
        const actor: CustomerActor = {
          kind: 'customer',
          id: customer.tokenId,
          customerId: customer.customer.id,
          scope: customer.scope,
        };
        return { kind: 'customer', actor, customer };
      }
    }
    return this.fail(failureMessage);
  }

  /**
   * Where every authentication failure ends: a 401, which the one failed-authentication limiter
   * (src/http/auth-failures.ts, an onSend hook over every route, and the WebSocket's
   * connection_init) counts against the client's address.
   */
  fail(message: string): never {
    throw unauthorized(message);
  }

  async authenticateAdmin(tenantId: string, token: string): Promise<AdminActor | null> {
    const tokenDigest = digest(token);
    // In Cloud, ADMIN_TOKEN is no key to the tenants' registries: each runs on its own tokens.
    const rootHere = this.deps.config.edition !== 'cloud' || tenantId === DEFAULT_TENANT_ID;
    if (rootHere && constantTimeEqual(tokenDigest, this.rootDigest)) {
      return { kind: 'root', id: null, level: 'owner' };
    }
    if (!hasValidChecksum(token, TEAM_TOKEN_PREFIX)) return null;
    const row = await teamTokenByDigest(this.deps.db, tenantId, tokenDigest);
    if (!row || !constantTimeEqual(row.token_digest, tokenDigest)) return null;
    this.touch(tenantId, 'team_tokens', row.id, row.last_used_at);
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
    const [row] = await tokenWithCustomer(this.deps.db, tenantId, tokenDigest);
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
    this.touch(tenantId, 'customer_tokens', token_id, token_last_used_at);
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
    const customer = await customerById(this.deps.db, tenantId, payload.sub);
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

  /** Records when a token was last used, at most once a minute per token, in the next batch. */
  private touch(
    tenantId: string,
    table: 'customer_tokens' | 'team_tokens',
    id: string,
    last: string | null,
  ): void {
    const now = Date.now();
    if (last && now - Date.parse(last) < 60_000) return;
    this.uses.record(tenantId, table, id, now);
  }
}
