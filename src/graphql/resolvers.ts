import { proxyQueries } from '../areas/proxy/graphql.js';
import { GraphQLScalarType } from './graphql-js.js';
import type { MercuriusContext } from 'mercurius';
import type { Ctx } from '../context.js';
import { assertFeature } from '../editions.js';
import { invalid, unauthorized } from '../errors.js';
import type { Services } from '../services.js';
import {
  CreateCustomerBody,
  FreezeBody,
  SuspendBody,
  UpdateCustomerBody,
} from '../areas/customers/schema.js';
import type { CustomerRow } from '../areas/customers/store.js';
import { CreateTokenBody } from '../areas/tokens/schema.js';
import type { IssuedToken } from '../areas/tokens/service.js';
import { presentIssued } from '../areas/tokens/presenter.js';
import { GrantBody } from '../areas/access/schema.js';
import type { AccessRow } from '../areas/access/store.js';
import { AddPackageBody } from '../areas/packages/schema.js';
import type { AddPackageInput } from '../areas/packages/schema.js';
import type { PackageRow, VersionRow } from '../areas/packages/store.js';
import { CreateCollectionBody, UpdateCollectionBody } from '../areas/collections/schema.js';
import type { CollectionView } from '../areas/collections/service.js';
import { presentAuditEntry } from '../areas/audit/service.js';
import { presentConnection } from '../areas/oauth/presenter.js';
import { AuditQuery } from '../areas/audit/schema.js';
import { compareVersions } from '../composer/semver/index.js';
import { accessOfCustomers, packagesByName, versionsOfPackages } from './store.js';
import { compact } from './validate.js';
import { validateInput } from '../validation.js';

declare module 'mercurius' {
  interface MercuriusContext {
    /** The caller, set once the request's admin token is verified; null before that. */
    ctx: Ctx | null;
    services: Services;
  }
}

type Context = MercuriusContext;

/** The service context of an authenticated request (the plugin refuses the rest earlier). */
function need(context: Context): Ctx {
  if (!context.ctx) throw unauthorized('Missing or invalid token');
  return context.ctx;
}

// ---- pagination -------------------------------------------------------------------------------

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

interface PageArgs {
  pagination?: { first?: number | null; after?: string | null } | null;
  first?: number | null;
  after?: string | null;
}

const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');

function offsetOf(cursor: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw invalid('after', 'is not a cursor this API issued');
  return Number(match[1]);
}

/** `first`/`after` given directly or in `pagination` (decisions.md section 7). */
function pageOf(args: PageArgs): { offset: number; limit: number } {
  const first = args.first ?? args.pagination?.first ?? DEFAULT_PAGE_SIZE;
  const after = args.after ?? args.pagination?.after ?? null;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw invalid('first', `must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  return { offset: after ? offsetOf(after) + 1 : 0, limit: first };
}

function connection<T>(nodes: T[], total: number, offset: number) {
  const edges = nodes.map((node, i) => ({ node, cursor: cursorOf(offset + i) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: offset + nodes.length < total,
      endCursor: edges.length > 0 ? edges[edges.length - 1]!.cursor : null,
    },
    totalCount: total,
  };
}

// ---- presenters (camelCase forms of the REST presenters) -------------------------------------

export interface GqlCustomer {
  id: string;
  name: string;
  email: string;
  externalId: string | null;
  status: string;
  statusReason: string | null;
  accessExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

function customerOf(row: CustomerRow): GqlCustomer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    externalId: row.external_id,
    status: row.status,
    statusReason: row.status_reason,
    accessExpiresAt: row.access_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface GqlPackage {
  id: string;
  name: string;
  description: string | null;
  repositoryUrl: string;
  type: string;
  latestVersion: string | null;
  syncedAt: string | null;
  syncStatus: string;
  syncError: string | null;
  abandoned: boolean;
  createdAt: string;
}

function packageOf(row: PackageRow): GqlPackage {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    repositoryUrl: row.repository_url,
    type: row.type.toUpperCase(),
    latestVersion: row.latest_version,
    syncedAt: row.synced_at,
    syncStatus: row.sync_status,
    syncError: row.sync_error,
    abandoned: row.abandoned === 1,
    createdAt: row.created_at,
  };
}

function versionOf(row: VersionRow, downloads: number) {
  return {
    version: row.version,
    versionNormalized: row.version_normalized,
    releasedAt: row.released_at,
    downloads,
    yanked: row.yanked === 1,
    deprecated: row.deprecated === 1,
    reference: row.reference,
  };
}

export interface GqlCollection {
  slug: string;
  name: string;
  packageNames: string[];
  createdAt: string;
  updatedAt: string;
}

function collectionOf(view: CollectionView): GqlCollection {
  return {
    slug: view.row.slug,
    name: view.row.name,
    packageNames: view.packages,
    createdAt: view.row.created_at,
    updatedAt: view.row.updated_at,
  };
}

function accessOf(row: AccessRow) {
  return {
    name: row.package,
    constraint: row.constraint,
    grantedAt: row.granted_at,
    viaCollection: row.via_collection,
  };
}

function issuedOf(issued: IssuedToken, baseUrl: string) {
  const dto = presentIssued(issued, baseUrl);
  return {
    token: {
      id: dto.token.id,
      name: dto.token.name,
      scope: dto.token.scope.toUpperCase(),
      packageScopes: dto.token.package_scopes,
      expiresAt: dto.token.expires_at,
      createdAt: dto.token.created_at,
      lastUsedAt: dto.token.last_used_at,
    },
    plainToken: dto.plain_token,
    composerAuth: {
      username: dto.composer_auth.username,
      password: dto.composer_auth.password,
      repositoryUrl: dto.composer_auth.repository_url,
    },
  };
}

// ---- inputs ----------------------------------------------------------------------------------

interface CustomerInput {
  name?: string;
  email?: string;
  externalId?: string | null;
  accessExpiresAt?: string | null;
}

function customerBody(input: CustomerInput) {
  return compact({
    name: input.name,
    email: input.email,
    external_id: input.externalId,
    access_expires_at: input.accessExpiresAt,
  });
}

const lower = (value: string | null | undefined) =>
  value === null || value === undefined ? undefined : value.toLowerCase();

const PERIOD_DAYS: Record<string, number> = {
  LAST_7_DAYS: 7,
  LAST_30_DAYS: 30,
  LAST_90_DAYS: 90,
  LAST_365_DAYS: 365,
};

function rangeOf(period: string | null | undefined) {
  const days = PERIOD_DAYS[period ?? 'LAST_30_DAYS'] ?? 30;
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(today - (days - 1) * 86_400_000), to: day(today) };
}

// ---- resolvers -------------------------------------------------------------------------------

type Args = Record<string, unknown>;
type Resolver<A = Args> = (parent: unknown, args: A, context: Context) => unknown;

/** A mutation: runs the service call, then moves the tenant's cache generation like REST writes. */
interface PackageInput {
  name: string;
  repositoryUrl?: string | null;
  repositoryType?: string | null;
  monorepoPaths?: string[] | null;
}

/** addPackage and its multi-tenant name createPackage: the REST body's rules, then the service. */
async function addPackage(input: PackageInput, ctx: Ctx, s: Services) {
  const body = validateInput(
    AddPackageBody,
    compact({
      name: input.name,
      repository_url: input.repositoryUrl ?? undefined,
      type: lower(input.repositoryType) as AddPackageInput['type'],
      monorepo: input.monorepoPaths ? { paths: input.monorepoPaths } : undefined,
    }),
  );
  const { row } = await s.packages.add(ctx, body);
  return packageOf(row);
}

function mutation<A>(fn: (args: A, ctx: Ctx, services: Services) => Promise<unknown>): Resolver<A> {
  return async (_parent, args, context) => {
    const ctx = need(context);
    const result = await fn(args, ctx, context.services);
    await context.services.deps.generations.bump(ctx.tenantId);
    return result;
  };
}

function query<A>(fn: (args: A, ctx: Ctx, services: Services) => unknown) {
  const resolver: Resolver<A> = (_parent, args, context) =>
    fn(args, need(context), context.services);
  return resolver;
}

const passThrough = (name: string, description: string) =>
  new GraphQLScalarType({
    name,
    description,
    serialize: (value) => value,
    parseValue: (value) => value,
  });

export const resolvers = {
  DateTime: passThrough('DateTime', 'An ISO 8601 timestamp in UTC'),
  JSON: passThrough('JSON', 'Any JSON value'),

  Query: {
    customer: query<{ id: string }>(async ({ id }, ctx, s) =>
      customerOf(await s.customers.get(ctx, id)),
    ),
    customerByExternalId: query<{ externalId: string }>(async ({ externalId }, ctx, s) =>
      customerOf(await s.customers.getByExternalId(ctx, externalId)),
    ),
    customers: query<PageArgs & { filter?: { status?: string | null } | null }>(
      async (args, ctx, s) => {
        const page = pageOf(args);
        const status = args.filter?.status ?? undefined;
        const { rows, total } = await s.customers.list(ctx, { status, ...page });
        return connection(rows.map(customerOf), total, page.offset);
      },
    ),
    package: query<{ name: string }>(async ({ name }, ctx, s) =>
      packageOf(await s.packages.get(ctx, name)),
    ),
    packages: query<PageArgs & { filter?: { query?: string | null } | null }>(
      async (args, ctx, s) => {
        const page = pageOf(args);
        const q = args.filter?.query ?? undefined;
        if (q !== undefined && q.length > 200) throw invalid('filter.query', 'is too long');
        const { rows, total } = await s.packages.list(ctx, { q, ...page });
        return connection(rows.map(packageOf), total, page.offset);
      },
    ),
    collection: query<{ slug: string }>(async ({ slug }, ctx, s) =>
      collectionOf(await s.collections.get(ctx, slug)),
    ),
    collections: query(async (_args, ctx, s) => {
      const { views } = await s.collections.list(ctx, { offset: 0, limit: 10_000 });
      return views.map(collectionOf);
    }),
    downloadStats: query<{ packageName?: string | null; period?: string | null }>(
      async ({ packageName, period }, ctx, s) => {
        const range = rangeOf(period);
        if (packageName) {
          const stats = await s.stats.package(ctx, packageName, range);
          return {
            totalDownloads: stats.total_downloads,
            byPackage: [{ name: stats.name, downloads: stats.total_downloads }],
            byDay: stats.by_day,
          };
        }
        const overview = await s.stats.overview(ctx, range);
        return {
          totalDownloads: overview.total_downloads,
          byPackage: overview.by_package,
          byDay: overview.by_day,
        };
      },
    ),
    // Domains of later issues: answered from what exists today, never failing.
    vulnerabilities: query((_args, _ctx, s) => {
      assertFeature(s.deps.config.edition, 'vulnerabilities');
      return [];
    }),
    proxyStatus: query((_args, ctx, s) => proxyQueries.proxyStatus(ctx, s)),
    auditLogs: query<
      PageArgs & {
        filter?: {
          actor?: string | null;
          action?: string | null;
          target?: string | null;
          from?: string | null;
          to?: string | null;
        } | null;
      }
    >(async (args, ctx, s) => {
      assertFeature(s.deps.config.edition, 'audit_log');
      const page = pageOf(args);
      const filter = validateInput(AuditQuery, compact({ ...(args.filter ?? {}) }), 'filter');
      const { rows, total } = await s.audit.list(ctx, filter, page);
      const nodes = rows.map(presentAuditEntry).map((e) => ({
        id: e.id,
        actor: e.actor,
        action: e.action,
        target: e.target,
        summary: e.summary,
        ip: e.ip,
        userAgent: e.user_agent,
        createdAt: e.created_at,
      }));
      return connection(nodes, total, page.offset);
    }),
    stats: query(async (_args, ctx, s) => {
      const o = await s.stats.overview(ctx, {});
      return {
        totalDownloads: o.total_downloads,
        packages: o.packages,
        customers: o.customers,
        versions: o.versions,
        byDay: o.by_day,
        byPackage: o.by_package,
        byCustomer: o.by_customer.map((c) => ({
          customerId: c.customer_id,
          name: c.name,
          downloads: c.downloads,
        })),
      };
    }),
    hostAppStatus: query((_args, _ctx, s) => {
      const { configured, appId, appSlug } = s.hostApp.status();
      return { configured, appId, appSlug };
    }),
    hostAppInstallations: query(async (_args, ctx, s) =>
      (await s.hostApp.list(ctx)).rows.map((row) => ({
        id: row.id,
        accountLogin: row.account_login,
        accountType: row.account_type,
        repositorySelection: row.repository_selection,
        status: row.status,
      })),
    ),
    oauthConnections: query(async (_args, ctx, s) =>
      (await s.oauth.list(ctx)).rows.map(presentConnection).map((c) => ({
        id: c.id,
        provider: c.provider,
        accountLogin: c.account_login,
        scopes: c.scopes,
        expiresAt: c.expires_at,
        createdAt: c.created_at,
        updatedAt: c.updated_at,
      })),
    ),
  },

  Mutation: {
    createCustomer: mutation<{ input: CustomerInput }>(async ({ input }, ctx, s) => {
      const body = validateInput(CreateCustomerBody, customerBody(input));
      return customerOf(await s.customers.create(ctx, body));
    }),
    updateCustomer: mutation<{ id: string; input: CustomerInput }>(
      async ({ id, input }, ctx, s) => {
        const body = validateInput(UpdateCustomerBody, customerBody(input));
        return customerOf(await s.customers.update(ctx, id, body));
      },
    ),
    deleteCustomer: mutation<{ id: string }>(async ({ id }, ctx, s) => {
      await s.customers.delete(ctx, id);
      return true;
    }),
    suspendCustomer: mutation<{ id: string; reason?: string | null }>(
      async ({ id, reason }, ctx, s) => {
        const body = validateInput(SuspendBody, compact({ reason: reason ?? undefined }));
        return customerOf(await s.customers.suspend(ctx, id, body.reason));
      },
    ),
    reactivateCustomer: mutation<{ id: string }>(async ({ id }, ctx, s) =>
      customerOf(await s.customers.reactivate(ctx, id)),
    ),
    freezeCustomer: mutation<{
      id: string;
      versions?: { package: string; version: string }[] | null;
    }>(async ({ id, versions }, ctx, s) => {
      const body = validateInput(FreezeBody, {
        versions: (versions ?? []).map((v) => ({ package: v.package, version: v.version })),
      });
      return customerOf(await s.customers.freeze(ctx, id, body));
    }),
    createToken: mutation<{
      customerId: string;
      input: {
        name: string;
        scope?: string | null;
        packageScopes?: string[] | null;
        expiresAt?: string | null;
      };
    }>(async ({ customerId, input }, ctx, s) => {
      const body = validateInput(
        CreateTokenBody,
        compact({
          name: input.name,
          scope: lower(input.scope),
          package_scopes: input.packageScopes ?? undefined,
          expires_at: input.expiresAt,
        }),
      );
      return issuedOf(await s.tokens.create(ctx, customerId, body), s.deps.config.baseUrl);
    }),
    revokeToken: mutation<{ customerId: string; tokenId: string }>(
      async ({ customerId, tokenId }, ctx, s) => {
        await s.tokens.revoke(ctx, customerId, tokenId);
        return true;
      },
    ),
    rotateToken: mutation<{ customerId: string; tokenId: string }>(
      async ({ customerId, tokenId }, ctx, s) =>
        issuedOf(await s.tokens.rotate(ctx, customerId, tokenId), s.deps.config.baseUrl),
    ),
    regenerateToken: mutation<{ customerId: string }>(async ({ customerId }, ctx, s) =>
      issuedOf(await s.tokens.regenerate(ctx, customerId), s.deps.config.baseUrl),
    ),
    revokeAllTokens: mutation<{ customerId: string }>(async ({ customerId }, ctx, s) => {
      await s.tokens.revokeAll(ctx, customerId);
      return true;
    }),
    grantPackageAccess: mutation<{
      customerId: string;
      packages: { package: string; constraint?: string | null }[];
    }>(async ({ customerId, packages }, ctx, s) => {
      const grants = packages.map((p) =>
        validateInput(
          GrantBody,
          compact({ package: p.package, constraint: p.constraint ?? undefined }),
          'packages',
        ),
      );
      // Documented GraphQL behaviour: each grant is added, or its constraint updated when the
      // customer already has it (REST POST answers 409 there instead).
      for (const grant of grants) {
        await s.access.grant(ctx, customerId, grant, { onExisting: 'update' });
      }
      return customerOf(await s.customers.get(ctx, customerId));
    }),
    revokePackageAccess: mutation<{ customerId: string; packageName: string }>(
      async ({ customerId, packageName }, ctx, s) => {
        await s.access.revoke(ctx, customerId, packageName);
        return customerOf(await s.customers.get(ctx, customerId));
      },
    ),
    addPackage: mutation<{ input: PackageInput }>(({ input }, ctx, s) => addPackage(input, ctx, s)),
    createPackage: mutation<{ input: PackageInput }>(({ input }, ctx, s) =>
      addPackage(input, ctx, s),
    ),
    syncPackage: mutation<{ name: string }>(async ({ name }, ctx, s) => {
      await s.packages.requestSync(ctx, name);
      return packageOf(await s.packages.get(ctx, name));
    }),
    deletePackage: mutation<{ name: string }>(async ({ name }, ctx, s) => {
      await s.packages.delete(ctx, name);
      return true;
    }),
    createCollection: mutation<{
      input: { name: string; slug: string; packages?: string[] | null };
    }>(async ({ input }, ctx, s) => {
      const body = validateInput(
        CreateCollectionBody,
        compact({ name: input.name, slug: input.slug, packages: input.packages ?? undefined }),
      );
      return collectionOf(await s.collections.create(ctx, body));
    }),
    updateCollection: mutation<{
      slug: string;
      input: {
        name?: string | null;
        packages?: string[] | null;
        addPackages?: string[] | null;
        removePackages?: string[] | null;
      };
    }>(async ({ slug, input }, ctx, s) => {
      const body = validateInput(
        UpdateCollectionBody,
        compact({
          name: input.name ?? undefined,
          packages: input.packages ?? undefined,
          add_packages: input.addPackages ?? undefined,
          remove_packages: input.removePackages ?? undefined,
        }),
      );
      return collectionOf(await s.collections.update(ctx, slug, body));
    }),
    deleteCollection: mutation<{ slug: string }>(async ({ slug }, ctx, s) => {
      await s.collections.delete(ctx, slug);
      return true;
    }),
    removeHostAppInstallation: mutation<{ id: string }>(async ({ id }, ctx, s) => {
      await s.hostApp.remove(ctx, id);
      return true;
    }),
  },
};

// ---- batch loaders (one SQL round per field and request, whatever the page size) ------------

interface Batch<T> {
  obj: T;
  params: unknown;
}

export const loaders = {
  Customer: {
    packages: async (queries: Batch<GqlCustomer>[], context: Context) => {
      const ctx = need(context);
      const byCustomer = await accessOfCustomers(
        context.services.deps.db,
        ctx.tenantId,
        queries.map((q) => q.obj.id),
      );
      return queries.map((q) => (byCustomer.get(q.obj.id) ?? []).map(accessOf));
    },
  },
  Package: {
    versions: async (queries: Batch<GqlPackage>[], context: Context) => {
      need(context);
      await context.services.composer.usage.flush();
      const byPackage = await versionsOfPackages(
        context.services.deps.db,
        queries.map((q) => q.obj.id),
      );
      return queries.map((q) =>
        [...(byPackage.get(q.obj.id) ?? [])]
          .sort((a, b) => compareVersions(b.row.version_normalized, a.row.version_normalized))
          .map((v) => versionOf(v.row, v.downloads)),
      );
    },
  },
  Collection: {
    packages: async (queries: Batch<GqlCollection>[], context: Context) => {
      const ctx = need(context);
      const rows = await packagesByName(
        context.services.deps.db,
        ctx.tenantId,
        queries.flatMap((q) => q.obj.packageNames),
      );
      return queries.map((q) =>
        q.obj.packageNames.flatMap((name) => {
          const row = rows.get(name);
          return row ? [packageOf(row)] : [];
        }),
      );
    },
  },
};
