import type { GraphqlPart } from '../../graphql/kit.js';
import { camelKeys, compact, mutation, query } from '../../graphql/kit.js';
import { validateInput } from '../../validation.js';
import { presentAdvisory, presentVulnerability } from './presenter.js';
import { CreateAdvisoryBody, UpdateAdvisoryBody } from './schema.js';
import type { VulnerabilityView } from './vulnerabilities.js';

/** service.md's Vulnerability (`advisory` is the advisory id), plus the REST item's other fields. */
function vulnerabilityOf(view: VulnerabilityView) {
  const dto = presentVulnerability(view);
  return {
    ...camelKeys(dto),
    advisory: dto.advisory_id,
    sources: dto.sources.map((s) => ({ name: s.name, remoteId: s.remote_id })),
  };
}

interface AdvisoryFields {
  title?: string | null;
  severity?: string | null;
  affectedVersions?: string | null;
  description?: string | null;
  cve?: string | null;
  link?: string | null;
}

/** GraphQL's input names to the REST body's; an explicit null clears a nullable field. */
function restFields(input: AdvisoryFields) {
  const keep = (v: string | null | undefined) => (v === undefined ? undefined : v);
  return compact({
    title: input.title ?? undefined,
    affected_versions: input.affectedVersions ?? undefined,
    severity: keep(input.severity),
    description: keep(input.description),
    cve: keep(input.cve),
    link: keep(input.link),
  });
}

/** GraphQL of the advisories area: vendor advisories and the vulnerabilities query. */
export const advisoriesGraphql: GraphqlPart = {
  typeDefs: /* GraphQL */ `
    type AdvisorySource {
      name: String!
      remoteId: String!
    }

    type Vulnerability {
      id: ID!
      "The advisory's id (PKYD-YYYY-NNNN)."
      advisory: String!
      "Null when no source gives one."
      severity: String
      affectedVersions: String!
      patchedVersions: [String!]!
      description: String
      package: String!
      title: String!
      cve: String
      link: String
      affectedRegistryVersions: [String!]!
      sources: [AdvisorySource!]!
      reportedAt: DateTime!
      detectedAt: DateTime!
      affectedCustomerCount: Int!
    }

    type Advisory {
      id: ID!
      advisoryId: String!
      package: String!
      title: String!
      severity: String
      affectedVersions: String!
      description: String
      cve: String
      link: String
      reportedAt: DateTime!
      source: String!
    }

    input CreateAdvisoryInput {
      package: String!
      title: String!
      severity: String
      affectedVersions: String!
      description: String
      cve: String
      link: String
    }

    input UpdateAdvisoryInput {
      title: String
      severity: String
      affectedVersions: String
      description: String
      cve: String
      link: String
    }

    extend type Query {
      vulnerabilities(packageName: String): [Vulnerability!]!
      advisories: [Advisory!]!
      advisory(id: ID!): Advisory
    }

    extend type Mutation {
      createAdvisory(input: CreateAdvisoryInput!): Advisory!
      updateAdvisory(id: ID!, input: UpdateAdvisoryInput!): Advisory!
      deleteAdvisory(id: ID!): Boolean!
    }
  `,

  Query: {
    vulnerabilities: query<{ packageName?: string | null }>(async ({ packageName }, ctx, s) =>
      (await s.vulnerabilities.all(ctx, packageName)).map(vulnerabilityOf),
    ),
    advisories: query(async (_args, ctx, s) => {
      const { rows } = await s.advisories.list(ctx, { offset: 0, limit: 10_000 });
      return rows.map((r) => camelKeys(presentAdvisory(r)));
    }),
    advisory: query<{ id: string }>(async ({ id }, ctx, s) =>
      camelKeys(presentAdvisory(await s.advisories.get(ctx, id))),
    ),
  },

  Mutation: {
    createAdvisory: mutation<{ input: AdvisoryFields & { package: string } }>(
      async ({ input }, ctx, s) => {
        const body = validateInput(CreateAdvisoryBody, {
          package: input.package,
          ...restFields(input),
        });
        return camelKeys(presentAdvisory(await s.advisories.create(ctx, body)));
      },
    ),
    updateAdvisory: mutation<{ id: string; input: AdvisoryFields }>(
      async ({ id, input }, ctx, s) => {
        const body = validateInput(UpdateAdvisoryBody, restFields(input));
        return camelKeys(presentAdvisory(await s.advisories.update(ctx, id, body)));
      },
    ),
    deleteAdvisory: mutation<{ id: string }>(async ({ id }, ctx, s) => {
      await s.advisories.delete(ctx, id);
      return true;
    }),
  },
};
