import type { Ctx, Deps } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { MetadataKind } from '../../composer/metadata.js';
import type { CustomerPrincipal } from '../auth/service.js';
import type { ComposerService } from '../composer-repository/service.js';
import type { PackageService } from '../packages/service.js';
import type { SettingsService } from '../settings/service.js';
import type { PortalBranding } from '../settings/schema.js';
import type { IssuedToken, TokenService } from '../tokens/service.js';
import type { CreateMyTokenInput, MeDto, MyPackageDetailDto, MyPackageDto } from './schema.js';

/**
 * A portal call: the request's context and the customer principal the Composer surface's own
 * authentication gave for the same credentials (ComposerService.authenticate), so a suspended or
 * expired customer, or a `webhook` token, is refused here exactly as p2 refuses it.
 */
export type PortalCtx = Ctx & { customerPrincipal?: CustomerPrincipal | null };

interface Entry {
  version?: unknown;
  description?: unknown;
  time?: unknown;
}

interface DocVersions {
  description: string | null;
  versions: { version: string; released_at: string | null; kind: 'tag' | 'branch' }[];
}

/**
 * The customer portal (docs/portal.md): what one customer token sees of the registry and, for a
 * customer-admin token, its own customer's tokens. Nothing here decides visibility: packages
 * and versions are read from the very p2 documents the Composer service builds for the token.
 */
export class PortalService {
  constructor(
    private readonly deps: Deps,
    private readonly composer: ComposerService,
    private readonly packageArea: PackageService,
    private readonly tokensArea: TokenService,
    private readonly settings: SettingsService,
  ) {}

  /** The vendor's branding, for the sign-in page too (no credentials needed). */
  branding(ctx: Ctx): Promise<PortalBranding> {
    return this.settings.portalBranding(ctx.tenantId);
  }

  async me(ctx: PortalCtx): Promise<MeDto> {
    const principal = principalOf(ctx);
    const { customer } = principal;
    const token = principal.tokenId.startsWith('jwt:')
      ? { name: 'JWT' }
      : await this.tokensArea.get(ctx, customer.id, principal.tokenId);
    return {
      customer: {
        id: customer.id,
        name: customer.name,
        status: customer.status,
        access_expires_at: customer.access_expires_at,
      },
      token: {
        id: principal.tokenId,
        name: token.name,
        scope: principal.scope,
        expires_at: principal.expiresAt,
      },
    };
  }

  /** One page of the packages this token may install (packages.json's `available-packages`). */
  async packages(
    ctx: PortalCtx,
    origin: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: MyPackageDto[]; total: number }> {
    const principal = principalOf(ctx);
    const names = await this.composer.availablePackages(principal);
    const shown = names.slice(page.offset, page.offset + page.limit);
    const rows = await Promise.all(
      shown.map(async (name) => {
        const doc = await this.versionsOf(principal, name, origin);
        return { name, description: doc.description, versions: doc.versions.map((v) => v.version) };
      }),
    );
    return { rows, total: names.length };
  }

  /** One package: its versions (as p2 answers them), and the readme the admin UI shows. */
  async package(ctx: PortalCtx, name: string, origin: string): Promise<MyPackageDetailDto> {
    const principal = principalOf(ctx);
    const lower = name.toLowerCase();
    const doc = await this.versionsOf(principal, lower, origin);
    let readme: MyPackageDetailDto['readme'] = null;
    try {
      const row = await this.packageArea.get(ctx, lower);
      if (row.readme) readme = { format: 'markdown', content: row.readme };
    } catch (err) {
      // A public package served through the proxy has no row and no readme here.
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
    }
    return { name: lower, description: doc.description, versions: doc.versions, readme };
  }

  async tokens(ctx: PortalCtx, page: { offset: number; limit: number }) {
    const principal = principalOf(ctx);
    return this.tokensArea.list(ctx, principal.customer.id, page);
  }

  /**
   * A `download` or `developer` token of the caller's own customer. It keeps the caller's
   * package scopes, so a token made here never sees more than the one that made it.
   */
  async createToken(ctx: PortalCtx, input: CreateMyTokenInput): Promise<IssuedToken> {
    const principal = principalOf(ctx);
    return this.tokensArea.create(ctx, principal.customer.id, {
      name: input.name,
      scope: input.scope ?? 'download',
      package_scopes: principal.packageScopes,
      expires_at: input.expires_at ?? null,
    });
  }

  /** Revokes a token of the caller's own customer; another customer's token is not found. */
  async revokeToken(ctx: PortalCtx, tokenId: string): Promise<void> {
    const principal = principalOf(ctx);
    await this.tokensArea.revoke(ctx, principal.customer.id, tokenId);
  }

  /** The versions of both p2 documents of `name` as this token gets them, newest tags first. */
  private async versionsOf(
    principal: CustomerPrincipal,
    name: string,
    origin: string,
  ): Promise<DocVersions> {
    const kinds: MetadataKind[] = ['tags', 'dev'];
    const [tags, dev] = await Promise.all(
      kinds.map(async (kind) =>
        entriesOf(await this.composer.packageDocument(principal, name, kind, origin), name),
      ),
    );
    const all = [...(tags ?? []), ...(dev ?? [])];
    const described = all.find((e) => typeof e.description === 'string');
    const versions = [
      ...(tags ?? []).map((e) => versionOf(e, 'tag')),
      ...(dev ?? []).map((e) => versionOf(e, 'branch')),
    ].filter((v) => v.version !== '');
    return {
      description: typeof described?.description === 'string' ? described.description : null,
      versions,
    };
  }
}

/** The caller as a customer; the portal API serves customer tokens only. */
function principalOf(ctx: PortalCtx): CustomerPrincipal {
  const principal = ctx.customerPrincipal;
  if (ctx.actor.kind !== 'customer' || !principal || principal.tokenId !== ctx.actor.id) {
    throw forbidden('The portal API answers customer tokens only; admins use the admin API');
  }
  return principal;
}

/** The version entries of a p2 answer, rendered (public packages) or not. */
function entriesOf(
  doc: { body: unknown; rendered?: { body: Buffer } },
  name: string,
): Entry[] | undefined {
  const body = (doc.rendered ? JSON.parse(doc.rendered.body.toString('utf8')) : doc.body) as {
    packages?: Record<string, Entry[]>;
  };
  const entries = body.packages?.[name];
  if (entries !== undefined && !Array.isArray(entries)) throw notFound(`Package ${name}`);
  return entries;
}

function versionOf(e: Entry, kind: 'tag' | 'branch') {
  return {
    version: typeof e.version === 'string' ? e.version : '',
    released_at: typeof e.time === 'string' ? e.time : null,
    kind,
  };
}
