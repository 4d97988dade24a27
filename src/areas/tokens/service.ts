import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { conflict, featureNotAvailable, invalid, notFound } from '../../errors.js';
import { digest, generateSecret, newId } from '../../infra/crypto.js';
import type { Db } from '../../infra/db/connection.js';
import { CUSTOMER_TOKEN_PREFIX } from '../auth/service.js';
import { PACKAGE_SCOPE_RE, customerExists, validationError } from '../access/lookups.js';
import { signCustomerJwt } from './jwt.js';
import type { CreateTokenInput, JwtInput } from './schema.js';
import * as store from './store.js';
import type { TokenRow } from './store.js';
import { transact } from '../../unit-of-work.js';
import type { Tx } from '../../unit-of-work.js';

/** A freshly stored token and its plain value, which exists only in this answer. */
export interface IssuedToken {
  row: TokenRow;
  plain: string;
}

interface TokenSettings {
  name: string;
  scope: string;
  package_scopes: string;
  expires_at: string | null;
}

const DEFAULT_JWT_SECONDS = 3600;

function normalizeScopes(scopes: string[]): string[] {
  const errors = scopes
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => !PACKAGE_SCOPE_RE.test(s))
    .map(({ i }) => ({
      field: `package_scopes.${i}`,
      message: 'must be a lower-case package name (vendor/name) or vendor wildcard (vendor/*)',
    }));
  if (errors.length > 0) throw validationError(errors);
  return [...new Set(scopes)];
}

/**
 * Customer tokens: created with a scope, package scopes and expiry; stored only as a digest.
 * Rotation replaces the row (new id, new value, same settings) so the old value dies at once.
 */
export class TokenService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  async list(ctx: Ctx, customerId: string, page: { offset: number; limit: number }) {
    await this.requireCustomer(ctx, customerId);
    return store.listTokens(this.db, ctx.tenantId, customerId, page);
  }

  async get(ctx: Ctx, customerId: string, id: string): Promise<TokenRow> {
    await this.requireCustomer(ctx, customerId);
    const row = await store.findToken(this.db, ctx.tenantId, customerId, id);
    if (!row) throw notFound('Token');
    return row;
  }

  async create(ctx: Ctx, customerId: string, input: CreateTokenInput): Promise<IssuedToken> {
    await this.requireCustomer(ctx, customerId);
    let expiresAt: string | null = null;
    if (input.expires_at) {
      if (Date.parse(input.expires_at) <= Date.now()) {
        throw invalid('expires_at', 'must be in the future');
      }
      expiresAt = new Date(input.expires_at).toISOString();
    }
    const settings: TokenSettings = {
      name: input.name,
      scope: input.scope ?? 'admin',
      package_scopes: JSON.stringify(normalizeScopes(input.package_scopes ?? [])),
      expires_at: expiresAt,
    };
    return transact(this.deps, ctx, async (tx) => {
      // Which tokens exist, and what each may see, is what Composer answers depend on.
      tx.accessChanged();
      const created = await this.issue(ctx, customerId, settings, tx.db);
      await this.audit(tx, 'token.create', customerId, created.row.id, {
        name: settings.name,
        scope: settings.scope,
        package_scopes: JSON.parse(settings.package_scopes) as unknown,
        expires_at: settings.expires_at,
      });
      this.publish(tx, customerId, 'TOKEN_CREATED', [created.row.id]);
      return created;
    });
  }

  async revoke(ctx: Ctx, customerId: string, id: string): Promise<void> {
    await this.requireCustomer(ctx, customerId);
    await transact(this.deps, ctx, async (tx) => {
      // Which tokens exist, and what each may see, is what Composer answers depend on.
      tx.accessChanged();
      if (!(await store.deleteToken(tx.db, ctx.tenantId, customerId, id))) throw notFound('Token');
      await this.audit(tx, 'token.revoke', customerId, id);
      this.publish(tx, customerId, 'TOKEN_REVOKED', [id]);
    });
  }

  /** New value and new id, same name, scope, package scopes and expiry; one transaction. */
  async rotate(ctx: Ctx, customerId: string, id: string): Promise<IssuedToken> {
    const old = await this.get(ctx, customerId, id);
    if (old.expires_at && Date.parse(old.expires_at) <= Date.now()) {
      throw conflict('The token has expired; create a new token instead of rotating it');
    }
    return transact(this.deps, ctx, async (tx) => {
      // Which tokens exist, and what each may see, is what Composer answers depend on.
      tx.accessChanged();
      if (!(await store.deleteToken(tx.db, ctx.tenantId, customerId, id))) throw notFound('Token');
      const created = await this.issue(ctx, customerId, old, tx.db);
      await this.audit(tx, 'token.rotate', customerId, id, { new_id: created.row.id });
      this.publish(tx, customerId, 'TOKEN_REVOKED', [id]);
      this.publish(tx, customerId, 'TOKEN_CREATED', [created.row.id]);
      return created;
    });
  }

  /** Legacy single token: revoke all, then one admin-scope token named `default`. */
  async regenerate(ctx: Ctx, customerId: string): Promise<IssuedToken> {
    await this.requireCustomer(ctx, customerId);
    const settings = { name: 'default', scope: 'admin', package_scopes: '[]', expires_at: null };
    return transact(this.deps, ctx, async (tx) => {
      // Which tokens exist, and what each may see, is what Composer answers depend on.
      tx.accessChanged();
      const revoked = await store.deleteAllTokens(tx.db, ctx.tenantId, customerId);
      const created = await this.issue(ctx, customerId, settings, tx.db);
      await this.audit(tx, 'token.regenerate', customerId, created.row.id, {
        revoked: revoked.length,
      });
      this.publish(tx, customerId, 'TOKEN_REVOKED', revoked);
      this.publish(tx, customerId, 'TOKEN_CREATED', [created.row.id]);
      return created;
    });
  }

  /** Legacy: revoke every token of the customer. */
  async revokeAll(ctx: Ctx, customerId: string): Promise<void> {
    await this.requireCustomer(ctx, customerId);
    await transact(this.deps, ctx, async (tx) => {
      // Which tokens exist, and what each may see, is what Composer answers depend on.
      tx.accessChanged();
      const revoked = await store.deleteAllTokens(tx.db, ctx.tenantId, customerId);
      await this.audit(tx, 'token.revoke_all', customerId, customerId, {
        revoked: revoked.length,
      });
      this.publish(tx, customerId, 'TOKEN_REVOKED', revoked);
    });
  }

  async issueJwt(ctx: Ctx, customerId: string, input: JwtInput = {}) {
    const secret = this.deps.config.jwtSecret;
    if (!secret) throw featureNotAvailable('JWT_SECRET is not configured');
    await this.requireCustomer(ctx, customerId);
    await transact(this.deps, ctx, (tx) =>
      this.audit(tx, 'token.jwt', customerId, customerId, {
        scope: input.scope ?? 'download',
        expires_in: input.expires_in ?? DEFAULT_JWT_SECONDS,
      }),
    );
    return signCustomerJwt(secret, {
      tenantId: ctx.tenantId,
      customerId,
      scope: input.scope ?? 'download',
      packageScopes: [],
      expiresInSeconds: input.expires_in ?? DEFAULT_JWT_SECONDS,
    });
  }

  private async issue(
    ctx: Ctx,
    customerId: string,
    settings: TokenSettings,
    db: Db,
  ): Promise<IssuedToken> {
    const plain = generateSecret(CUSTOMER_TOKEN_PREFIX);
    const row: TokenRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      customer_id: customerId,
      name: settings.name,
      scope: settings.scope,
      package_scopes: settings.package_scopes,
      token_digest: digest(plain),
      expires_at: settings.expires_at,
      created_at: nowIso(),
      last_used_at: null,
    };
    await store.insertToken(db, row);
    return { row, plain };
  }

  /** Token entries name the customer too, so its trail is one filter away. */
  private audit(
    tx: Tx,
    action: string,
    customerId: string,
    tokenId: string,
    summary: Record<string, unknown> = {},
  ): Promise<void> {
    return tx.audit({
      action,
      target: { type: 'token', id: tokenId },
      summary: { customer_id: customerId, ...summary },
    });
  }

  private async requireCustomer(ctx: Ctx, customerId: string): Promise<void> {
    if (!(await customerExists(this.db, ctx.tenantId, customerId))) {
      throw notFound('Customer');
    }
  }

  /**
   * The outbox's `token.created` / `token.revoked` per token, in the transaction; the bus's
   * activity (once, when any token moved) after the commit.
   */
  private publish(
    tx: Tx,
    customerId: string,
    activity: 'TOKEN_CREATED' | 'TOKEN_REVOKED',
    tokenIds: readonly string[],
  ) {
    if (tokenIds.length === 0) return;
    const type = activity === 'TOKEN_CREATED' ? 'token.created' : 'token.revoked';
    for (const tokenId of tokenIds) tx.emit(type, { customer_id: customerId, token_id: tokenId });
    tx.publish({
      type: 'customer.activity',
      tenantId: tx.ctx.tenantId,
      customerId,
      activity,
      package: null,
      version: null,
      at: nowIso(),
    });
  }
}
