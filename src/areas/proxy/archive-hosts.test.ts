import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';

let p: Proxied;
let auth: { authorization: string };

beforeAll(async () => {
  p = await proxiedApp({ BLOCK_PRIVATE_GIT_HOSTS: 'on', PROXY_METADATA_TTL_SECONDS: '0' });
  auth = (await p.customer()).auth;
});
afterAll(async () => p.close());

const download = async (name: string, version: string, normalized: string) => {
  await p.get(`/p2/${name}.json`, auth);
  const ref = p.upstream.reference(name, version);
  return p.get(`/dist-proxy/${name}/${normalized}/${ref}.zip`, auth);
};

describe('archive hosts with BLOCK_PRIVATE_GIT_HOSTS', () => {
  it('trusts the configured upstream host, wherever it runs', async () => {
    const res = await download('psr/log', '1.1.4', '1.1.4.0');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses an archive on another host that resolves to a private address, before connecting', async () => {
    // `localhost` is another host name than the upstream's 127.0.0.1, resolving to loopback.
    p.upstream.distBase = p.upstream.url.replace('127.0.0.1', 'localhost');
    const asked = p.upstream.count('/dist/monolog/');
    const res = await download('monolog/monolog', '2.9.2', '2.9.2.0');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(res.json().message).toMatch(/private network/);
    expect(p.upstream.count('/dist/monolog/')).toBe(asked);
  });

  it('refuses a private address literal as well', async () => {
    p.upstream.distBase = p.upstream.url.replace('127.0.0.1', '127.0.0.2');
    const res = await download('monolog/monolog', '3.5.0', '3.5.0.0');
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/private network/);
  });
});
