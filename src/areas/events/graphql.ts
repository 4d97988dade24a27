import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, query } from '../../graphql/kit.js';

/** The event feed (docs/webhooks-outgoing.md): `events(after, type, limit)`, like REST's. */
export const eventsGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type Event {
      "Opaque; sorts in creation order."
      id: ID!
      type: String!
      createdAt: DateTime!
      "The event's data, with the REST feed's snake_case keys."
      data: JSON!
    }

    type EventFeed {
      "Oldest first."
      data: [Event!]!
      "The id of the last event returned, or the given after: pass it as after next time."
      next: String
    }

    extend type Query {
      events(after: String, type: String, limit: Int): EventFeed!
    }
  `,

  Query: {
    events: query<{ after?: string | null; type?: string | null; limit?: number | null }>(
      async (args, ctx, s) => {
        const feed = await s.events.list(ctx, args);
        return { data: feed.data.map((e) => camelKeys(e)), next: feed.next };
      },
    ),
  },
};
