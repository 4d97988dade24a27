import type { GraphqlPart, PageArgs } from '../../graphql/kit.js';
import { camelKeys, compact, connection, pageOf, query } from '../../graphql/kit.js';
import { assertFeature } from '../../editions.js';
import { validateInput } from '../../validation.js';
import { AuditQuery } from './schema.js';
import { presentAuditEntry } from './service.js';

interface AuditLogArgs extends PageArgs {
  filter?: {
    actor?: string | null;
    action?: string | null;
    target?: string | null;
    from?: string | null;
    to?: string | null;
  } | null;
}

export const auditGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type AuditActor {
      kind: String!
      id: String
    }

    type AuditTarget {
      type: String!
      id: String!
    }

    type AuditLogEntry {
      id: ID!
      actor: AuditActor!
      action: String!
      target: AuditTarget!
      summary: JSON!
      ip: String
      userAgent: String
      createdAt: DateTime!
    }

    type AuditLogEdge {
      node: AuditLogEntry!
      cursor: String!
    }

    type AuditLogConnection {
      edges: [AuditLogEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input AuditLogFilter {
      actor: String
      action: String
      target: String
      from: DateTime
      to: DateTime
    }

    extend type Query {
      auditLogs(
        filter: AuditLogFilter
        pagination: Pagination
        first: Int
        after: String
      ): AuditLogConnection!
    }
  `,

  Query: {
    auditLogs: query<AuditLogArgs>(async (args, ctx, s) => {
      assertFeature(s.deps.config.edition, 'audit_log');
      const page = pageOf(args);
      const filter = validateInput(AuditQuery, compact({ ...(args.filter ?? {}) }), 'filter');
      const { rows, total } = await s.audit.list(ctx, filter, page);
      const nodes = rows.map((row) => camelKeys(presentAuditEntry(row)));
      return connection(nodes, total, page.offset);
    }),
  },
};
