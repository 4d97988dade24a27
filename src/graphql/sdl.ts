import { buildSchema, printSchema } from './graphql-js.js';
import { typeDefs } from './schema.js';

/** Where the SDL is published for API users; a test keeps it in step with the code. */
export const SDL_FILE = 'docs/schema.graphql';

/** The schema as SDL: the shared types, then each area's part in src/graphql/parts.ts order. */
export function printSdl(): string {
  return `${printSchema(buildSchema(typeDefs))}\n`;
}
