import type { GraphqlPart, PageArgs } from '../../graphql/kit.js';
import { camelKeys, compact, connection, mutation, pageOf, query } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { presentDelivery, presentEndpoint } from './presenter.js';
import { CreateEndpointBody, UpdateEndpointBody } from './schema.js';
import type { EndpointRow } from './store.js';

interface EndpointInput {
  url?: string | null;
  events?: string[] | null;
  description?: string | null;
  active?: boolean | null;
  secret?: string | null;
}

/** GraphQL's input to the REST body; an explicit null description clears it. */
function restBody(input: EndpointInput) {
  return {
    ...compact({
      url: input.url ?? undefined,
      events: input.events ?? undefined,
      active: input.active ?? undefined,
      secret: input.secret ?? undefined,
    }),
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
}

const endpointOf = (row: EndpointRow) => camelKeys(presentEndpoint(row));

/** GraphQL of outgoing webhooks: endpoints with their deliveries, and their mutations. */
export const outgoingWebhooksGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type WebhookDelivery {
      id: ID!
      eventId: String!
      eventType: String!
      "pending, succeeded or failed"
      status: String!
      attempts: Int!
      responseStatus: Int
      responseBody: String
      error: String
      durationMs: Int
      createdAt: DateTime!
      nextAttemptAt: DateTime
    }

    type WebhookDeliveryEdge {
      node: WebhookDelivery!
      cursor: String!
    }

    type WebhookDeliveryConnection {
      edges: [WebhookDeliveryEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    type WebhookEndpoint {
      id: ID!
      url: String!
      events: [String!]!
      description: String
      active: Boolean!
      createdAt: DateTime!
      "Always true: the secret is shown once, by createWebhookEndpoint."
      secretSet: Boolean!
    }

    type CreatedWebhookEndpoint {
      id: ID!
      url: String!
      events: [String!]!
      description: String
      active: Boolean!
      createdAt: DateTime!
      secretSet: Boolean!
      "The signing secret, shown this once."
      secret: String!
    }

    type WebhookEndpointEdge {
      node: WebhookEndpoint!
      cursor: String!
    }

    type WebhookEndpointConnection {
      edges: [WebhookEndpointEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input CreateWebhookEndpointInput {
      url: String!
      events: [String!]!
      description: String
      secret: String
    }

    input UpdateWebhookEndpointInput {
      url: String
      events: [String!]
      description: String
      active: Boolean
      secret: String
    }

    extend type Query {
      webhookEndpoints(
        pagination: Pagination
        first: Int
        after: String
      ): WebhookEndpointConnection!
      webhookEndpoint(id: ID!): WebhookEndpoint
      "An endpoint's deliveries, newest first."
      webhookDeliveries(
        endpointId: ID!
        pagination: Pagination
        first: Int
        after: String
      ): WebhookDeliveryConnection!
    }

    extend type Mutation {
      createWebhookEndpoint(input: CreateWebhookEndpointInput!): CreatedWebhookEndpoint!
      updateWebhookEndpoint(id: ID!, input: UpdateWebhookEndpointInput!): WebhookEndpoint!
      deleteWebhookEndpoint(id: ID!): Boolean!
    }
  `,

  Query: {
    webhookEndpoints: query<PageArgs>(async (args, ctx, s) => {
      const page = pageOf(args);
      const { rows, total } = await s.outgoingWebhooks.list(ctx, page);
      return connection(rows.map(endpointOf), total, page.offset);
    }),
    webhookEndpoint: query<{ id: string }>(async ({ id }, ctx, s) =>
      endpointOf(await s.outgoingWebhooks.get(ctx, id)),
    ),
    webhookDeliveries: query<PageArgs & { endpointId: string }>(async (args, ctx, s) => {
      const page = pageOf(args);
      const { rows, total } = await s.outgoingWebhooks.deliveries(ctx, args.endpointId, page);
      return connection(
        rows.map((r) => camelKeys(presentDelivery(r))),
        total,
        page.offset,
      );
    }),
  },

  Mutation: {
    createWebhookEndpoint: mutation<{ input: EndpointInput }>(async ({ input }, ctx, s) => {
      const body = validateInput(CreateEndpointBody, restBody(input));
      const { row, secret } = await s.outgoingWebhooks.create(ctx, body);
      return { ...camelKeys(presentEndpoint(row)), secret };
    }),
    updateWebhookEndpoint: mutation<{ id: string; input: EndpointInput }>(
      async ({ id, input }, ctx, s) => {
        const body = validateInput(UpdateEndpointBody, restBody(input));
        return endpointOf(await s.outgoingWebhooks.update(ctx, id, body));
      },
    ),
    deleteWebhookEndpoint: mutation<{ id: string }>(async ({ id }, ctx, s) => {
      await s.outgoingWebhooks.delete(ctx, id);
      return true;
    }),
  },
};
