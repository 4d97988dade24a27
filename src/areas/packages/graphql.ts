import type { GraphqlPart, Loader, PageArgs } from '../../graphql/kit.js';
import {
  camelKeys,
  compact,
  connection,
  lower,
  mutation,
  need,
  pageOf,
  query,
  upper,
} from '../../graphql/kit.js';
import type { Ctx } from '../../context.js';
import { invalid } from '../../errors.js';
import type { Services } from '../../services.js';
import { validateInput } from '../../validation.js';
import { presentPackage, presentVersions } from './presenter.js';
import { AddPackageBody } from './schema.js';
import type { AddPackageInput } from './schema.js';
import { versionsOfPackages } from './store.js';
import type { PackageRow } from './store.js';

/** The REST package under GraphQL's names, its type as the GitProviderType enum. */
export const packageOf = (row: PackageRow) => ({
  ...camelKeys(presentPackage(row)),
  type: upper(row.type),
});
export type GqlPackage = ReturnType<typeof packageOf>;

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

const packageVersions: Loader<GqlPackage> = async (queries, context) => {
  const ctx = need(context);
  await context.services.composer.usage.flush();
  const byPackage = await versionsOfPackages(
    context.services.deps.db,
    ctx.tenantId,
    queries.map((q) => q.obj.id),
  );
  return queries.map((q) => {
    const entries = byPackage.get(q.obj.id) ?? [];
    const downloads = new Map(entries.map((e) => [e.row, e.downloads]));
    return presentVersions(
      entries.map((e) => e.row),
      (v) => downloads.get(v) ?? 0,
    ).map(camelKeys);
  });
};

export const packagesGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    enum GitProviderType {
      GITHUB
      GITLAB
      BITBUCKET
      GIT
      ARTIFACT
    }

    type Version {
      version: String!
      versionNormalized: String!
      releasedAt: DateTime
      downloads: Int!
      yanked: Boolean!
      deprecated: Boolean!
      reference: String!
    }

    type Package {
      id: ID!
      name: String!
      description: String
      repositoryUrl: String!
      type: GitProviderType!
      versions: [Version!]!
      latestVersion: String
      syncedAt: DateTime
      syncStatus: String!
      syncError: String
      abandoned: Boolean!
      createdAt: DateTime!
    }

    type PackageEdge {
      node: Package!
      cursor: String!
    }

    type PackageConnection {
      edges: [PackageEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input PackageFilter {
      "Substring of the package name."
      query: String
    }

    input AddPackageInput {
      name: String!
      repositoryUrl: String
      repositoryType: GitProviderType
      monorepoPaths: [String!]
    }

    "The multi-tenant name of AddPackageInput: the same fields."
    input CreatePackageInput {
      name: String!
      repositoryUrl: String
      repositoryType: GitProviderType
      monorepoPaths: [String!]
    }

    extend type Query {
      package(name: String!): Package
      packages(
        filter: PackageFilter
        pagination: Pagination
        first: Int
        after: String
      ): PackageConnection!
    }

    extend type Mutation {
      addPackage(input: AddPackageInput!): Package!
      "The same as addPackage, under the name the multi-tenant (Cloud) API uses."
      createPackage(input: CreatePackageInput!): Package!
      syncPackage(name: String!): Package!
      deletePackage(name: String!): Boolean!
    }
  `,

  Query: {
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
  },

  Mutation: {
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
  },

  loaders: { Package: { versions: packageVersions } },
};
