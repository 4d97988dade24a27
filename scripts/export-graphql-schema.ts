// Writes the GraphQL SDL to docs/schema.graphql (npm run graphql:schema).
import fs from 'node:fs';
import { SDL_FILE, printSdl } from '../src/graphql/sdl.js';

fs.writeFileSync(SDL_FILE, printSdl());
console.log(`wrote ${SDL_FILE}`);
