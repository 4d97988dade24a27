import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, basicAuth, createTestApp, waitFor } from '../../test/helpers.js';
import type { TestApp } from '../../test/helpers.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';
import { loadConfig, ConfigError } from '../config/index.js';
import { assertPublicGitHost, isPublicAddress } from '../infra/git/host-guard.js';

describe('TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => t?.close());

  const auditIp = async (app: TestApp, forwardedFor: string, remoteAddress: string) => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { ...app.admin, 'x-forwarded-for': forwardedFor },
      remoteAddress,
      payload: { name: 'Acme', email: `acme-${Math.random()}@example.test` },
    });
    expect(res.statusCode).toBe(201);
    const audit = await app.app.inject({ url: '/api/v1/audit', headers: app.admin });
    return audit.json().data[0].ip as string;
  };

  it('is off by default: X-Forwarded-For is ignored, the peer address is recorded', async () => {
    t = await createTestApp({ WORKER: 'off' });
    expect(await auditIp(t, '203.0.113.9', '127.0.0.1')).toBe('127.0.0.1');
  });

  it('believes X-Forwarded-For only from the listed proxies', async () => {
    t = await createTestApp({ WORKER: 'off', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    expect(await auditIp(t, '203.0.113.9', '10.1.2.3')).toBe('203.0.113.9');
    expect(await auditIp(t, '203.0.113.9', '192.0.2.50')).toBe('192.0.2.50');
  });

  it('refuses to trust every sender, and bad entries, at start', () => {
    for (const value of ['on', 'true', '*', '10.0.0.0/33', 'proxy.example.test']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
    }
    expect(loadConfig({ TRUST_PROXY: 'loopback,::1,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });
});

describe('failed authentications per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKER: 'off', AUTH_FAILURE_LIMIT: '3' });
  });
  afterAll(async () => t.close());

  const call = (authorization: string, remoteAddress: string, url = '/api/v1/customers') =>
    t.app.inject({ url, headers: { authorization }, remoteAddress });

  it('answers failing attempts past the limit 429, from that address only, never a valid token', async () => {
    const guesser = '192.0.2.10';
    for (let i = 0; i < 3; i++) {
      expect((await call(`Bearer guess-${i}`, guesser)).statusCode).toBe(401);
    }
    const blocked = await call('Bearer guess-3', guesser);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', error: 'rate_limited' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The Composer surface counts against the same address.
    expect((await call(basicAuth('pkt_guess'), guesser, '/packages.json')).statusCode).toBe(429);
    // The right token from the same address is served (a NAT address is many clients).
    expect((await call(t.admin.authorization, guesser)).statusCode).toBe(200);
    // Someone else is unaffected.
    expect((await call('Bearer guess-0', '192.0.2.11')).statusCode).toBe(401);
  });

  it('counts Composer and GraphQL failures too', async () => {
    const composer = '192.0.2.20';
    for (let i = 0; i < 3; i++) await call(basicAuth(`pkt_guess${i}`), composer, '/packages.json');
    expect((await call('Bearer guess', composer)).statusCode).toBe(429);
    expect((await call(t.admin.authorization, composer)).statusCode).toBe(200);

    const gql = '192.0.2.30';
    for (let i = 0; i < 3; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: `Bearer guess-${i}` },
        remoteAddress: gql,
        payload: { query: '{ customers { totalCount } }' },
      });
    }
    expect((await call('Bearer guess', gql)).statusCode).toBe(429);
    expect((await call(t.admin.authorization, gql)).statusCode).toBe(200);
  });

  it('does not count requests without credentials', async () => {
    const anonymous = '192.0.2.40';
    for (let i = 0; i < 5; i++) {
      expect(
        (await t.app.inject({ url: '/api/v1/customers', remoteAddress: anonymous })).statusCode,
      ).toBe(401);
    }
    expect((await call(t.admin.authorization, anonymous)).statusCode).toBe(200);
  });
});

describe('failed authentications with REDIS_URL', () => {
  it('are counted once for every node', async () => {
    const shared = {
      WORKER: 'off',
      AUTH_FAILURE_LIMIT: '3',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `packyard-test-${crypto.randomBytes(6).toString('hex')}:`,
    };
    const nodeA = await createTestApp(shared);
    const nodeB = await createTestApp(shared);
    try {
      const guesser = '192.0.2.50';
      const call = (node: TestApp, authorization: string) =>
        node.app.inject({
          url: '/api/v1/customers',
          headers: { authorization },
          remoteAddress: guesser,
        });
      expect((await call(nodeA, 'Bearer guess-1')).statusCode).toBe(401);
      expect((await call(nodeB, 'Bearer guess-2')).statusCode).toBe(401);
      expect((await call(nodeA, 'Bearer guess-3')).statusCode).toBe(401);
      // Three failures across two nodes: both refuse the address's failing attempts now, and
      // still serve its valid ones.
      expect((await call(nodeB, 'Bearer guess-4')).statusCode).toBe(429);
      expect((await call(nodeA, 'Bearer guess-5')).statusCode).toBe(429);
      expect((await call(nodeB, nodeB.admin.authorization)).statusCode).toBe(200);
      expect((await call(nodeA, nodeA.admin.authorization)).statusCode).toBe(200);
    } finally {
      await nodeA.close();
      await nodeB.close();
    }
  });
});

describe('repository_url', () => {
  let t: TestApp;
  let git: GitFixture;
  beforeAll(async () => {
    t = await createTestApp({ BLOCK_PRIVATE_GIT_HOSTS: 'on' });
    git = new GitFixture('acme/lib').release('1.0.0');
  });
  afterAll(async () => {
    await t.close();
    git.remove();
  });

  const add = (name: string, url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/packages',
      headers: t.admin,
      payload: { name, repository_url: url },
    });

  it('refuses credentials in the URL with a pointer to OAuth and the GitHub App, storing nothing', async () => {
    for (const url of [
      'https://alice:s3cret@git.example.test/acme/lib.git',
      'https://ghp_token@github.com/acme/lib.git',
      'ssh://git:pass@git.example.test/acme/lib.git',
    ]) {
      const res = await add('acme/secret', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'repository_url', message: expect.stringMatching(/OAuth.*GitHub App/) }],
      });
      expect(res.body).not.toContain('s3cret');
    }
    expect(
      (await t.app.inject({ url: '/api/v1/packages/acme/secret', headers: t.admin })).statusCode,
    ).toBe(404);
    const audit = await t.app.inject({ url: '/api/v1/audit', headers: t.admin });
    expect(audit.body).not.toContain('s3cret');
  });

  it('still takes ssh account names, which are no secret', async () => {
    expect((await add('acme/ssh', 'git@git.example.test:acme/lib.git')).statusCode).toBe(201);
    expect((await add('acme/ssh2', 'ssh://git@git.example.test/acme/lib.git')).statusCode).toBe(
      201,
    );
  });

  it('with BLOCK_PRIVATE_GIT_HOSTS, a sync of a loopback or private host fails naming the host', async () => {
    for (const [name, url, host] of [
      ['acme/loop', 'http://127.0.0.1:1/acme/lib.git', '127.0.0.1'],
      ['acme/meta', 'http://169.254.169.254/latest.git', '169.254.169.254'],
      ['acme/lan', 'https://[::1]:8443/acme/lib.git', '::1'],
    ] as const) {
      expect((await add(name, url)).statusCode).toBe(201);
      // A loaded machine (the whole suite at once) may take a while to reach the sync.
      const pkg = await waitFor(
        async () =>
          (await t.app.inject({ url: `/api/v1/packages/${name}`, headers: t.admin })).json<{
            sync_status: string;
            sync_error: string | null;
          }>(),
        (p) => p.sync_status === 'failed',
        { timeoutMs: 55_000 },
      );
      expect(pkg.sync_error).toBe(
        `Repository unreachable: ${url} (the host ${host} is on a private network; ` +
          'hosts on private networks are not allowed)',
      );
    }
  }, 240_000);

  it('with BLOCK_PRIVATE_GIT_HOSTS, a local repository still syncs (ALLOW_LOCAL_REPOSITORIES governs it)', async () => {
    expect((await add('acme/lib', git.url)).statusCode).toBe(201);
    const pkg = await waitFor(
      async () =>
        (await t.app.inject({ url: '/api/v1/packages/acme/lib', headers: t.admin })).json<{
          sync_status: string;
          sync_error: string | null;
        }>(),
      (p) => !['pending', 'running'].includes(p.sync_status),
      { timeoutMs: 55_000 },
    );
    expect(pkg).toMatchObject({ sync_status: 'ok', sync_error: null });
  }, 60_000);
});

describe('host guard', () => {
  it('tells public addresses from private, loopback, link-local and mapped ones', () => {
    for (const ip of ['8.8.8.8', '140.82.121.3', '2606:4700::1111'])
      expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('judges names by every address they resolve to', async () => {
    const lookup = (addresses: string[]) => async () => addresses.map((address) => ({ address }));
    // The checked address comes back, to be pinned for git's own connection.
    await expect(
      assertPublicGitHost('https://git.example.test/a.git', lookup(['140.82.121.3'])),
    ).resolves.toEqual({ host: 'git.example.test', port: 443, address: '140.82.121.3' });
    await expect(
      assertPublicGitHost('http://git.example.test:8080/a.git', lookup(['140.82.121.3'])),
    ).resolves.toEqual({ host: 'git.example.test', port: 8080, address: '140.82.121.3' });
    await expect(
      assertPublicGitHost('ssh://git@git.example.test/a.git', lookup(['140.82.121.3'])),
    ).resolves.toBeNull();
    for (const url of ['https://git.example.test/a.git', 'git@git.example.test:a/b.git']) {
      await expect(assertPublicGitHost(url, lookup(['140.82.121.3', '10.0.0.7']))).rejects.toThrow(
        /private networks/,
      );
    }
    await expect(
      assertPublicGitHost('https://nowhere.example.test/a.git', async () => {
        throw new Error('ENOTFOUND');
      }),
    ).rejects.toThrow(/^Repository unreachable: https:\/\/nowhere\.example\.test\/a\.git$/);
  });
});

describe('settings that cannot be honoured stop the start', () => {
  it.each([
    [{ EDITION: 'cloud' }, /EDITION=cloud needs BASE_DOMAIN/],
    [{ EDITION: 'cloud', BASE_DOMAIN: 'not a domain' }, /BASE_DOMAIN/],
    [{ BLOCK_PRIVATE_GIT_HOSTS: 'maybe' }, /BLOCK_PRIVATE_GIT_HOSTS/],
    [{ AUTH_FAILURE_LIMIT: '-1' }, /AUTH_FAILURE_LIMIT/],
    [{ AUTH_FAILURE_WINDOW_SECONDS: '0' }, /AUTH_FAILURE_WINDOW_SECONDS/],
  ])('%j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('turns the private-host refusal on by default in the Cloud edition only', () => {
    expect(
      loadConfig({ EDITION: 'cloud', BASE_DOMAIN: 'packages.example.com' }).blockPrivateGitHosts,
    ).toBe(true);
    expect(loadConfig({}).blockPrivateGitHosts).toBe(false);
  });
});
