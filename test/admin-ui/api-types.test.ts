import { describe, expect, it } from 'vitest';
import { exportOpenApi, renderApiTypes } from '../../scripts/openapi-types.js';

describe('the admin UI API types', () => {
  it('are generated from the OpenAPI document the server serves, every path of it', async () => {
    const doc = (await exportOpenApi()) as { paths: Record<string, unknown> };
    const types = await renderApiTypes(doc);
    const paths = Object.keys(doc.paths);
    expect(paths.length).toBeGreaterThan(40);
    for (const p of paths) expect(types, p).toContain(`"${p}": {`);
  });
});
