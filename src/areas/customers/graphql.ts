import type { GraphqlPart, PageArgs } from '../../graphql/kit.js';
import { camelKeys, compact, connection, mutation, pageOf, query } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { presentCustomer } from './presenter.js';
import { CreateCustomerBody, FreezeBody, SuspendBody, UpdateCustomerBody } from './schema.js';
import type { CustomerRow } from './store.js';

export const customerOf = (row: CustomerRow) => camelKeys(presentCustomer(row));
export type GqlCustomer = ReturnType<typeof customerOf>;

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

export const customersGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    enum CustomerStatus {
      ACTIVE
      SUSPENDED
      FROZEN
      EXPIRED
    }

    type Customer {
      id: ID!
      name: String!
      email: String!
      externalId: String
      status: CustomerStatus!
      statusReason: String
      accessExpiresAt: DateTime
      packages: [PackageAccess!]!
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    type CustomerEdge {
      node: Customer!
      cursor: String!
    }

    type CustomerConnection {
      edges: [CustomerEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input CustomerFilter {
      status: CustomerStatus
    }

    input CreateCustomerInput {
      name: String!
      email: String!
      externalId: String
      accessExpiresAt: DateTime
    }

    input UpdateCustomerInput {
      name: String
      email: String
      externalId: String
      accessExpiresAt: DateTime
    }

    input VersionFreeze {
      package: String!
      version: String!
    }

    extend type Query {
      customer(id: ID!): Customer
      customerByExternalId(externalId: String!): Customer
      customers(
        filter: CustomerFilter
        pagination: Pagination
        first: Int
        after: String
      ): CustomerConnection!
    }

    extend type Mutation {
      createCustomer(input: CreateCustomerInput!): Customer!
      updateCustomer(id: ID!, input: UpdateCustomerInput!): Customer!
      deleteCustomer(id: ID!): Boolean!
      suspendCustomer(id: ID!, reason: String): Customer!
      reactivateCustomer(id: ID!): Customer!
      freezeCustomer(id: ID!, versions: [VersionFreeze!]): Customer!
    }
  `,

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
  },
};
