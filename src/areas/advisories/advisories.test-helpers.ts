import type { TestApp } from '../../../test/helpers.js';
import { packageZip } from '../artifacts/test-zips.js';

/** Uploads a version of an artifact package as the root admin. */
export async function uploadVersion(app: TestApp, name: string, version: string) {
  const res = await app.app.inject({
    method: 'POST',
    url: `/api/v1/packages/${name}/artifacts?version=${version}`,
    headers: { ...app.admin, 'content-type': 'application/zip' },
    payload: packageZip(
      { name, description: `v${version}` },
      { 'src/A.php': `<?php // ${version}` },
    ),
  });
  if (res.statusCode !== 201) throw new Error(`upload ${name} ${version}: ${res.body}`);
}
