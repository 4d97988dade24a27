import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, exportOpenApi, renderApiTypes } from '../../scripts/openapi-types.js';

describe('the admin UI API types', () => {
  it('match the OpenAPI document the server serves (run `npm run api:types` if not)', async () => {
    const expected = await renderApiTypes(await exportOpenApi());
    expect(fs.readFileSync(API_TYPES_FILE, 'utf8') === expected).toBe(true);
  });
});
