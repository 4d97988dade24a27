/**
 * The data of the mixed load: packages made from real git repositories with a few tags each,
 * added through the admin REST API and synced by the worker, and customers with grants and
 * download tokens. Returns what the load asks for: p2 paths and dist paths, each with its token.
 */
import crypto from 'node:crypto';
import { createTaggedRepo } from './git-tags.js';
import type { TaggedRepo } from './git-tags.js';
import { AdminApi, basicAuth } from './packyard.js';

export interface Target {
  path: string;
  /** Request headers (the customer's Basic auth, or the admin Bearer token). */
  headers: Record<string, string>;
}

export interface Seeded {
  packages: string[];
  customers: number;
  p2: Target[];
  dist: Target[];
  admin: Target[];
  /** Seconds from adding the first package to the last one synced. */
  syncSeconds: number;
  /** Removes the git repositories (kept while the load runs, in case the worker syncs again). */
  remove(): void;
}

interface P2Document {
  packages: Record<string, { version: string; dist: { url: string; shasum: string } }[]>;
}

/**
 * `packageCount` packages of `tags` tags each; customer c is granted every package but those
 * with index ≡ c (mod customers), so grants differ and every package is granted to someone.
 */
export async function seedMixed(opts: {
  baseUrl: string;
  adminToken: string;
  packageCount: number;
  tags: number;
  customers: number;
}): Promise<Seeded> {
  const api = new AdminApi(opts.baseUrl, opts.adminToken);
  const names = Array.from({ length: opts.packageCount }, (_, i) => `mixed/lib-${i}`);
  const repos: TaggedRepo[] = [];
  const remove = () => repos.forEach((repo) => repo.remove());
  try {
    const started = performance.now();
    for (const name of names) {
      const repo = createTaggedRepo(name, opts.tags);
      repos.push(repo);
      await api.addPackage(name, repo.url);
    }
    for (const name of names) {
      const pkg = await api.waitForSync(name, { intervalMs: 200, timeoutMs: 180_000 });
      if (pkg.sync_status !== 'ok') {
        throw new Error(`Sync of ${name} ended ${pkg.sync_status}: ${pkg.sync_error ?? ''}`);
      }
    }
    const syncSeconds = (performance.now() - started) / 1000;
    const p2: Target[] = [];
    const dist: Target[] = [];
    for (let c = 0; c < opts.customers; c++) {
      const granted = names.filter((_, i) => opts.customers < 2 || i % opts.customers !== c);
      const headers = { authorization: basicAuth(await customerToken(api, c, granted)) };
      for (const name of granted) {
        const path = `/p2/${name}.json`;
        const res = await fetch(opts.baseUrl + path, { headers });
        if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${await res.text()}`);
        const versions = ((await res.json()) as P2Document).packages[name] ?? [];
        if (versions.length !== opts.tags) {
          throw new Error(`GET ${path} lists ${versions.length} versions, not ${opts.tags}`);
        }
        p2.push({ path, headers });
        for (const v of versions) {
          const target = { path: new URL(v.dist.url).pathname, headers };
          if (!dist.some((d) => d.path === target.path)) {
            await checkArchive(opts.baseUrl, target, v.dist.shasum);
          }
          dist.push(target);
        }
      }
    }
    const bearer = { authorization: `Bearer ${opts.adminToken}` };
    const admin = ['/api/v1/packages', '/api/v1/customers'].map((path) => ({
      path,
      headers: bearer,
    }));
    return { packages: names, customers: opts.customers, p2, dist, admin, syncSeconds, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

/** The archive is served whole: a zip whose SHA-1 is the one its p2 document names. */
async function checkArchive(baseUrl: string, target: Target, shasum: string): Promise<void> {
  const res = await fetch(baseUrl + target.path, { headers: target.headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const sha1 = crypto.createHash('sha1').update(bytes).digest('hex');
  if (res.status !== 200 || bytes.subarray(0, 2).toString('latin1') !== 'PK' || sha1 !== shasum) {
    throw new Error(`GET ${target.path} -> ${res.status}, ${bytes.length} bytes, SHA-1 ${sha1}`);
  }
}

async function customerToken(api: AdminApi, index: number, granted: string[]): Promise<string> {
  const customer = await api.request<{ id: string }>('POST', '/api/v1/customers', {
    name: `Mixed Customer ${index}`,
    email: `mixed-${index}@example.test`,
  });
  for (const name of granted) {
    await api.request('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: name,
      constraint: '*',
    });
  }
  const issued = await api.request<{ plain_token: string }>(
    'POST',
    `/api/v1/customers/${customer.id}/tokens`,
    { name: 'bench', scope: 'download' },
  );
  return issued.plain_token;
}
