import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedApp, versionsOf } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';

let p: Proxied;
let auth: { authorization: string };

beforeAll(async () => {
  // A TTL of 0: without the change log, every request would revalidate upstream.
  p = await proxiedApp({ PROXY_METADATA_TTL_SECONDS: '0' });
  p.upstream.changeLog = [];
  auth = (await p.customer()).auth;
});
afterAll(async () => p.close());

describe("the proxy following the upstream's change log", () => {
  it('revalidates only the documents the change log names', async () => {
    expect((await p.get('/p2/psr/log.json', auth)).statusCode).toBe(200);
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    expect(p.upstream.count('/packages.json')).toBe(1);
    const log = p.upstream.count('/p2/psr/log.json');
    const monolog = p.upstream.count('/p2/monolog/monolog.json');
    const polls = p.upstream.count('/metadata/changes.json');
    for (let i = 0; i < 3; i++) {
      expect((await p.get('/p2/psr/log.json', auth)).statusCode).toBe(200);
      expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    }
    // Nothing changed upstream: the change log was read, no document was asked again.
    expect(p.upstream.count('/metadata/changes.json')).toBeGreaterThan(polls);
    expect(p.upstream.count('/p2/psr/log.json')).toBe(log);
    expect(p.upstream.count('/p2/monolog/monolog.json')).toBe(monolog);

    p.upstream.addVersion('psr/log', { version: '3.0.9' });
    const fresh = await p.get('/p2/psr/log.json', auth);
    expect(versionsOf(fresh, 'psr/log')).toContain('3.0.9');
    expect(p.upstream.count('/p2/psr/log.json')).toBe(log + 1);
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    expect(p.upstream.count('/p2/monolog/monolog.json')).toBe(monolog);
  });

  it('revalidates everything after a resync, and after the TTL while the log fails', async () => {
    const monolog = p.upstream.count('/p2/monolog/monolog.json');
    p.upstream.changeLog!.push({ type: 'resync', package: '*', time: Date.now() * 10 });
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    expect(p.upstream.count('/p2/monolog/monolog.json')).toBe(monolog + 1);
    // The change log breaks: the TTL (0 here) applies again.
    const log = p.upstream.changeLog!;
    p.upstream.changeLog = null;
    expect((await p.get('/p2/monolog/monolog.json', auth)).statusCode).toBe(200);
    expect(p.upstream.count('/p2/monolog/monolog.json')).toBe(monolog + 2);
    p.upstream.changeLog = log;
  });
});
