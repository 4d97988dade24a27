import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { buildApp } from '../src/app.js';

/**
 * Where the admin UI's generated API types are written (not committed: `npm run api:types`, which
 * `npm run typecheck` runs first, writes them; the UI's build only erases type imports).
 */
export const API_TYPES_FILE = path.resolve(import.meta.dirname, '../web/src/api/openapi.d.ts');

/** The OpenAPI document GET /api/openapi.json serves, from an app on a throwaway data dir. */
export async function exportOpenApi(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: 'x'.repeat(32), WORKER: 'off' });
    const runtime = await openRuntime(config);
    const app = await buildApp({ services: runtime.services });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
      await runtime.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The TypeScript the UI's client is typed with, generated from that document. */
export async function renderApiTypes(doc: unknown): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)) as never, { alphabetize: true });
  return `// Generated from GET /api/openapi.json by \`npm run api:types\`; do not edit.\n${astToString(ast)}`;
}
