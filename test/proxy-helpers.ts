import { adminApi, createCustomer } from './factories.js';
import { basicAuth, createTestApp } from './helpers.js';
import type { TestApp } from './helpers.js';
import { FakePackagist } from './fakes/packagist.js';

/** An app whose proxy points at a started FakePackagist. */
export async function proxiedApp(env: Record<string, string> = {}) {
  const upstream = new FakePackagist();
  await upstream.start();
  const t = await createTestApp({ PROXY_UPSTREAM_URL: upstream.url, ...env });
  const api = adminApi(t);
  return {
    t,
    upstream,
    api,
    /** A customer with a download token (no grants: public packages need none with `all`). */
    async customer(): Promise<{ id: string; auth: { authorization: string } }> {
      const c = await createCustomer(t, `C${Math.random().toString(36).slice(2, 8)}`);
      const created = await api('POST', `/api/v1/customers/${c.id}/tokens`, { name: 't' });
      return { id: c.id, auth: { authorization: basicAuth(created.plain_token) } };
    },
    get: (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers }),
    async close() {
      await t.close();
      await upstream.stop();
    },
  };
}

export type Proxied = Awaited<ReturnType<typeof proxiedApp>>;
export type { TestApp };

export const versionsOf = (
  res: { json(): { packages: Record<string, { version: string }[]> } },
  name: string,
) => (res.json().packages[name] ?? []).map((v) => v.version);
