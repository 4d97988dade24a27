import { buildSchema, printSchema } from './graphql-js.js';
import { typeDefs } from './schema.js';

/** Where the SDL is published for API users; a test keeps it in step with the code. */
export const SDL_FILE = 'docs/schema.graphql';

/** The schema as canonical SDL, the same text whatever the order of the type definitions. */
export function printSdl(): string {
  return `${printSchema(buildSchema(typeDefs))}\n`;
}
