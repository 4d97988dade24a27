import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedApp } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';

let p: Proxied;
let base: string;

beforeAll(async () => {
  p = await proxiedApp({ PROXY_METADATA_TTL_SECONDS: '300' });
  base = await p.t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => p.close());

describe('proxy metadata hits', () => {
  it('counts answers served from the response cache and its fast path, without a write each', async () => {
    const { auth } = await p.customer();
    const fetchP2 = () => fetch(`${base}/p2/psr/log.json`, { headers: auth });
    expect((await fetchP2()).status).toBe(200);
    const before = (await p.api('GET', '/api/v1/proxy/stats')).metadata_hits as number;
    const fastBefore = p.t.app.p2FastPath.hits;
    for (let i = 0; i < 5; i++) expect((await fetchP2()).status).toBe(200);
    // All five were answered before Fastify, from the cached answer.
    expect(p.t.app.p2FastPath.hits - fastBefore).toBe(5);
    const after = (await p.api('GET', '/api/v1/proxy/stats')).metadata_hits as number;
    expect(after - before).toBe(5);
  });
});
