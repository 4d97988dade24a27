import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** A request a `RecordingFront` passed on. */
export interface FrontRequest {
  method: string;
  path: string;
  authorization: string | null;
}

/**
 * An HTTP server that passes every request on to 127.0.0.1:`target` and records it (method,
 * path, Authorization): what one Packyard asks another, seen from outside both.
 */
export async function recordingFront() {
  const requests: FrontRequest[] = [];
  let target = 0;
  const server = http.createServer((req, res) => {
    requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      authorization: req.headers.authorization ?? null,
    });
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Where requests go from now on. */
    forwardTo(to: number) {
      target = to;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
