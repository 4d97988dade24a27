import { accessGraphql } from '../areas/access/graphql.js';
import { advisoriesGraphql } from '../areas/advisories/graphql.js';
import { auditGraphql } from '../areas/audit/graphql.js';
import { collectionsGraphql } from '../areas/collections/graphql.js';
import { customersGraphql } from '../areas/customers/graphql.js';
import { eventsGraphql } from '../areas/events/graphql.js';
import { outgoingWebhooksGraphql } from '../areas/outgoing-webhooks/graphql.js';
import { hostAppGraphql } from '../areas/hostapp/graphql.js';
import { oauthGraphql } from '../areas/oauth/graphql.js';
import { packagesGraphql } from '../areas/packages/graphql.js';
import { proxyGraphql } from '../areas/proxy/graphql.js';
import { settingsGraphql } from '../areas/settings/graphql.js';
import { statsGraphql } from '../areas/stats/graphql.js';
import { tokensGraphql } from '../areas/tokens/graphql.js';
import type { GraphqlPart } from './kit.js';

/** Every area's part of the GraphQL API; a new area adds its areas/<area>/graphql.ts here. */
export const graphqlParts: readonly GraphqlPart[] = [
  customersGraphql,
  accessGraphql,
  tokensGraphql,
  packagesGraphql,
  collectionsGraphql,
  statsGraphql,
  auditGraphql,
  hostAppGraphql,
  oauthGraphql,
  proxyGraphql,
  advisoriesGraphql,
  eventsGraphql,
  outgoingWebhooksGraphql,
  settingsGraphql,
];
