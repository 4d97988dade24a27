import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDL_FILE, printSdl } from './sdl.js';

describe('published SDL', () => {
  it('docs/schema.graphql is current (regenerate with `npm run graphql:schema`)', () => {
    expect(fs.readFileSync(SDL_FILE, 'utf8')).toBe(printSdl());
  });
});
