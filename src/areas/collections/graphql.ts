import type { GraphqlPart, Loader } from '../../graphql/kit.js';
import { camelKeys, compact, mutation, need, query } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { packageOf } from '../packages/graphql.js';
import { packagesByName } from '../packages/catalog.js';
import { presentCollection } from './presenter.js';
import { CreateCollectionBody, UpdateCollectionBody } from './schema.js';
import type { CollectionView } from './service.js';

/** `packages` holds the member names; the Collection.packages loader turns them into packages. */
const collectionOf = (view: CollectionView) => camelKeys(presentCollection(view));
type GqlCollection = ReturnType<typeof collectionOf>;

const collectionPackages: Loader<GqlCollection> = async (queries, context) => {
  const ctx = need(context);
  const rows = await packagesByName(
    context.services.deps.db,
    ctx.tenantId,
    queries.flatMap((q) => q.obj.packages),
  );
  return queries.map((q) =>
    q.obj.packages.flatMap((name) => {
      const row = rows.get(name);
      return row ? [packageOf(row)] : [];
    }),
  );
};

export const collectionsGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type Collection {
      slug: String!
      name: String!
      packages: [Package!]!
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    input CreateCollectionInput {
      name: String!
      slug: String!
      packages: [String!]
    }

    input UpdateCollectionInput {
      name: String
      packages: [String!]
      addPackages: [String!]
      removePackages: [String!]
    }

    extend type Query {
      collection(slug: String!): Collection
      collections: [Collection!]!
    }

    extend type Mutation {
      createCollection(input: CreateCollectionInput!): Collection!
      updateCollection(slug: String!, input: UpdateCollectionInput!): Collection!
      deleteCollection(slug: String!): Boolean!
    }
  `,

  Query: {
    collection: query<{ slug: string }>(async ({ slug }, ctx, s) =>
      collectionOf(await s.collections.get(ctx, slug)),
    ),
    collections: query(async (_args, ctx, s) => {
      const { views } = await s.collections.list(ctx, { offset: 0, limit: 10_000 });
      return views.map(collectionOf);
    }),
  },

  Mutation: {
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
  },

  loaders: { Collection: { packages: collectionPackages } },
};
