import type { TestApp } from './helpers.js';
import { waitFor } from './helpers.js';

/** Adds a package over the API and waits for its first sync to finish. */
export async function addSyncedPackage(t: TestApp, name: string, url: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/packages',
    headers: t.admin,
    payload: { name, repository_url: url, type: 'git' },
  });
  if (res.statusCode !== 201) throw new Error(`add package failed: ${res.body}`);
  return waitForSync(t, name);
}

/** Adds a monorepo parent whose children live in folders matching `paths`, and waits for its sync. */
export async function addSyncedMonorepo(t: TestApp, name: string, url: string, paths: string[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/packages',
    headers: t.admin,
    payload: { name, repository_url: url, type: 'git', monorepo: { paths } },
  });
  if (res.statusCode !== 201) throw new Error(`add monorepo failed: ${res.body}`);
  return waitForSync(t, name);
}

/** Waits until no sync of the package is pending or running, and returns the package. */
export async function waitForSync(t: TestApp, name: string) {
  const res = await waitFor(
    () => t.app.inject({ url: `/api/v1/packages/${name}`, headers: t.admin }),
    (r) => !['pending', 'running'].includes(r.json().sync_status),
  );
  return res.json();
}

export async function createCustomer(t: TestApp, name = 'Customer') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/customers',
    headers: t.admin,
    payload: { name, email: `${name.toLowerCase().replace(/\W/g, '')}@example.test` },
  });
  if (res.statusCode !== 201) throw new Error(`create customer failed: ${res.body}`);
  return res.json<{ id: string; name: string }>();
}

/**
 * Calls the admin API as root and returns the JSON answer (null for 204); any error status
 * throws with the answer, so setup steps fail loudly.
 */
export function adminApi(t: TestApp) {
  return async (method: string, url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: t.admin,
      payload: payload as object,
    });
    if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
    return res.statusCode === 204 ? null : res.json();
  };
}

/**
 * A package row straight into the table, for tests of areas other than packages and sync.
 * Returns its id (`pkg-vendor-name`).
 */
export async function insertPackageRow(t: TestApp, name: string): Promise<string> {
  const id = `pkg-${name.replace('/', '-')}`;
  const now = new Date().toISOString();
  await t.db
    .insertInto('packages')
    .values({
      id,
      tenant_id: 'default',
      name,
      description: null,
      repository_url: `https://git.test/${name}.git`,
      repository_key: `git.test/${name}`,
      type: 'git',
      latest_version: null,
      default_branch: null,
      readme: null,
      synced_at: null,
      sync_status: 'ok',
      sync_error: null,
      sync_skipped: '[]',
      abandoned: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
