// Writes the admin UI's API types (web/src/api/openapi.d.ts) from the OpenAPI document.
import fs from 'node:fs';
import { API_TYPES_FILE, exportOpenApi, renderApiTypes } from './openapi-types.js';

fs.writeFileSync(API_TYPES_FILE, await renderApiTypes(await exportOpenApi()));
console.log(`wrote ${API_TYPES_FILE}`);
