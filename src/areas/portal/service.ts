import type { Ctx, Deps } from '../../context.js';
import { AppError, forbidden } from '../../errors.js';
import type { MetadataKind } from '../../composer/metadata.js';
import type { CustomerPrincipal } from '../auth/service.js';
import type { ComposerService } from '../composer-repository/service.js';
import type { PackageService } from '../packages/service.js';
import type { SettingsService } from '../settings/service.js';
import type { PortalBranding } from '../settings/schema.js';
import type { IssuedToken, TokenService } from '../tokens/service.js';
import { customerVisibility } from '../../composer/visibility.js';
import type { PackageRow } from '../packages/catalog.js';
import type { CreateMyTokenInput, MeDto, MyPackageDetailDto, MyPackageDto } from './schema.js';
import { packageDocuments, versionReadme } from './store.js';
import { admittedEntries, docVersions, entriesOf, type DocVersions } from './versions.js';

/**
 * A portal call: the request's context and the customer principal the Composer surface's own
 * authentication gave for the same credentials (ComposerService.authenticate), so a suspended or
 * expired customer, or a `webhook` token, is refused here exactly as p2 refuses it.
 */
export type PortalCtx = Ctx & { customerPrincipal?: CustomerPrincipal | null };

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

  /**
   * One page of the packages this token may install (packages.json's `available-packages`). The
   * private ones are read together: their stored p2 documents in one query, filtered by the same
   * version gates (visibility.ts) as the p2 route; a public package asks the proxy, as p2 does.
   */
  async packages(
    ctx: PortalCtx,
    origin: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: MyPackageDto[]; total: number }> {
    const principal = principalOf(ctx);
    const { customer } = principal;
    const names = await this.composer.availablePackages(principal);
    const shown = names.slice(page.offset, page.offset + page.limit);
    const visible = await customerVisibility(this.deps.db, customer.tenant_id, customer);
    const byName = new Map([...visible.values()].map((v) => [v.name, v]));
    const ids = shown.flatMap((name) => byName.get(name)?.packageId ?? []);
    const docs = new Map<string, string>();
    for (const d of await packageDocuments(this.deps.db, customer.tenant_id, ids)) {
      docs.set(`${d.package_id}:${d.kind}`, d.entries);
    }
    const rows = await Promise.all(
      shown.map(async (name) => {
        const own = byName.get(name);
        const doc = own
          ? docVersions(
              admittedEntries(docs.get(`${own.packageId}:tags`), own.gate),
              admittedEntries(docs.get(`${own.packageId}:dev`), own.gate),
            )
          : await this.versionsOf(principal, name, origin);
        return { name, description: doc.description, versions: doc.versions.map((v) => v.version) };
      }),
    );
    return { rows, total: names.length };
  }

  /** One package: its versions (as p2 answers them), and the readme of the newest of them. */
  async package(ctx: PortalCtx, name: string, origin: string): Promise<MyPackageDetailDto> {
    const principal = principalOf(ctx);
    const lower = name.toLowerCase();
    const doc = await this.versionsOf(principal, lower, origin);
    let row: PackageRow | null = null;
    try {
      row = await this.packageArea.get(ctx, lower);
    } catch (err) {
      // A public package served through the proxy has no row and no readme here.
      if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
    }
    const content = row ? await this.readmeOf(row, doc.newest) : null;
    return {
      name: lower,
      description: doc.description,
      versions: doc.versions,
      readme: content ? { format: 'markdown', content } : null,
    };
  }

  /**
   * The README of version `normalized`, as the sync stored it with the version; a version
   * synced before READMEs were kept per version shows the package's default-branch README.
   */
  private async readmeOf(row: PackageRow, normalized: string | null): Promise<string | null> {
    if (normalized === null) return null;
    const found = await versionReadme(this.deps.db, row.tenant_id, row.id, normalized);
    if (!found || found.readme_blob === null) return row.readme;
    if (found.readme_blob === '') return null;
    return found.content ?? row.readme;
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
    return docVersions(tags, dev);
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
