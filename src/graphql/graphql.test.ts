import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql } from '../../test/helpers.js';
import type { GqlAnswer, TestApp } from '../../test/helpers.js';
import { addSyncedPackage, adminApi, insertPackageRow } from '../../test/factories.js';
import { GitFixture } from '../../test/fixtures/git-repo.js';

function gqlOf(t: TestApp) {
  return (
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = t.admin,
  ) => graphql(t, query, variables, headers);
}

const codes = (a: GqlAnswer) => (a.errors ?? []).map((e) => e.extensions.code);

let t: TestApp;
let gql: ReturnType<typeof gqlOf>;
let api: ReturnType<typeof adminApi>;
let repo: GitFixture;

beforeAll(async () => {
  t = await createTestApp();
  gql = gqlOf(t);
  api = adminApi(t);
  repo = new GitFixture('acme/widgets');
  repo.composerJson().commit('init').release('1.0.0').release('1.1.0');
  await addSyncedPackage(t, 'acme/widgets', repo.url);
  await insertPackageRow(t, 'acme/other');
}, 60_000);
afterAll(async () => t.close());

const CUSTOMER_FIELDS = `id name email externalId status packages { name constraint grantedAt } createdAt updatedAt`;

describe('GraphQL customers', () => {
  it('creates, reads, lists with pagination, updates and deletes customers', async () => {
    const created = await gql(
      `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`,
      { input: { name: 'Gql One', email: 'one@gql.test', externalId: 'ext-gql-1' } },
    );
    expect(created.errors).toBeUndefined();
    const customer = created.data!.createCustomer as { id: string; status: string };
    expect(customer).toMatchObject({ name: 'Gql One', status: 'ACTIVE', packages: [] });

    const byExt = await gql(`{ customerByExternalId(externalId: "ext-gql-1") { id } }`);
    expect(byExt.data!.customerByExternalId).toEqual({ id: customer.id });

    for (let i = 2; i <= 4; i++) {
      await api('POST', '/api/v1/customers', { name: `Gql ${i}`, email: `c${i}@gql.test` });
    }
    const page1 = await gql(
      `{ customers(first: 2) { edges { node { name } cursor } pageInfo { hasNextPage endCursor } totalCount } }`,
    );
    const conn = page1.data!.customers as {
      edges: { node: { name: string } }[];
      pageInfo: { hasNextPage: boolean; endCursor: string };
      totalCount: number;
    };
    expect(conn.edges).toHaveLength(2);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.totalCount).toBeGreaterThanOrEqual(4);
    const page2 = await gql(
      `query($after: String) { customers(pagination: { first: 100, after: $after }) { edges { node { name } } pageInfo { hasNextPage } } }`,
      { after: conn.pageInfo.endCursor },
    );
    const rest = page2.data!.customers as { edges: unknown[]; pageInfo: { hasNextPage: boolean } };
    expect(rest.edges).toHaveLength(conn.totalCount - 2);
    expect(rest.pageInfo.hasNextPage).toBe(false);

    const tooMany = await gql(`{ customers(first: 101) { totalCount } }`);
    expect(codes(tooMany)).toEqual(['VALIDATION_ERROR']);
    const badCursor = await gql(`{ customers(after: "nope") { totalCount } }`);
    expect(codes(badCursor)).toEqual(['VALIDATION_ERROR']);

    const updated = await gql(
      `mutation { updateCustomer(id: "${customer.id}", input: { name: "Renamed" }) { name } }`,
    );
    expect(updated.data!.updateCustomer).toEqual({ name: 'Renamed' });
    expect((await api('GET', `/api/v1/customers/${customer.id}`)).name).toBe('Renamed');

    const suspended = await gql(
      `mutation { suspendCustomer(id: "${customer.id}", reason: "unpaid") { status } }`,
    );
    expect(suspended.data!.suspendCustomer).toEqual({ status: 'SUSPENDED' });
    const filtered = await gql(
      `{ customers(filter: { status: SUSPENDED }) { edges { node { id } } totalCount } }`,
    );
    expect(filtered.data!.customers).toMatchObject({ totalCount: 1 });
    const reactivated = await gql(
      `mutation { reactivateCustomer(id: "${customer.id}") { status } }`,
    );
    expect(reactivated.data!.reactivateCustomer).toEqual({ status: 'ACTIVE' });

    const frozen = await gql(
      `mutation { freezeCustomer(id: "${customer.id}", versions: [{ package: "acme/widgets", version: "1.0.0" }]) { status } }`,
    );
    expect(frozen.data!.freezeCustomer).toEqual({ status: 'FROZEN' });

    const deleted = await gql(`mutation { deleteCustomer(id: "${customer.id}") }`);
    expect(deleted.data!.deleteCustomer).toBe(true);
    const gone = await gql(`{ customer(id: "${customer.id}") { id } }`);
    expect(codes(gone)).toEqual(['NOT_FOUND']);
    expect(gone.data).toEqual({ customer: null });
  });

  it('grants and revokes package access, and issues tokens', async () => {
    const c = await api('POST', '/api/v1/customers', { name: 'Access', email: 'a@gql.test' });
    const granted = await gql(
      `mutation { grantPackageAccess(customerId: "${c.id}", packages: [{ package: "acme/widgets", constraint: "^1.0" }, { package: "acme/other" }]) { packages { name constraint grantedAt } } }`,
    );
    expect(granted.errors).toBeUndefined();
    expect(granted.data!.grantPackageAccess).toMatchObject({
      packages: [
        { name: 'acme/other', constraint: '*' },
        { name: 'acme/widgets', constraint: '^1.0' },
      ],
    });
    const again = await gql(
      `mutation { grantPackageAccess(customerId: "${c.id}", packages: [{ package: "acme/widgets", constraint: "^1.1" }]) { packages { name constraint } } }`,
    );
    expect(again.data!.grantPackageAccess).toEqual({
      packages: [
        { name: 'acme/other', constraint: '*' },
        { name: 'acme/widgets', constraint: '^1.1' },
      ],
    });
    const badGrant = await gql(
      `mutation { grantPackageAccess(customerId: "${c.id}", packages: [{ package: "acme/nope" }]) { id } }`,
    );
    expect(codes(badGrant)).toEqual(['VALIDATION_ERROR']);
    const revoked = await gql(
      `mutation { revokePackageAccess(customerId: "${c.id}", packageName: "acme/other") { packages { name } } }`,
    );
    expect(revoked.data!.revokePackageAccess).toEqual({ packages: [{ name: 'acme/widgets' }] });

    const token = await gql(
      `mutation { createToken(customerId: "${c.id}", input: { name: "ci", scope: DOWNLOAD, packageScopes: ["acme/*"] }) {
        token { id name scope packageScopes expiresAt createdAt } plainToken composerAuth { username password repositoryUrl } } }`,
    );
    expect(token.errors).toBeUndefined();
    const issued = token.data!.createToken as {
      token: { id: string; scope: string; packageScopes: string[] };
      plainToken: string;
      composerAuth: { username: string; password: string; repositoryUrl: string };
    };
    expect(issued.token).toMatchObject({ scope: 'DOWNLOAD', packageScopes: ['acme/*'] });
    expect(issued.composerAuth).toEqual({
      username: 'token',
      password: issued.plainToken,
      repositoryUrl: 'http://packyard.test',
    });
    const rotated = await gql(
      `mutation { rotateToken(customerId: "${c.id}", tokenId: "${issued.token.id}") { token { id name } plainToken } }`,
    );
    const rot = rotated.data!.rotateToken as {
      token: { id: string; name: string };
      plainToken: string;
    };
    expect(rot.token.name).toBe('ci');
    expect(rot.plainToken).not.toBe(issued.plainToken);
    const revokeOld = await gql(
      `mutation { revokeToken(customerId: "${c.id}", tokenId: "${issued.token.id}") }`,
    );
    expect(codes(revokeOld)).toEqual(['NOT_FOUND']);
    const revokeNew = await gql(
      `mutation { revokeToken(customerId: "${c.id}", tokenId: "${rot.token.id}") }`,
    );
    expect(revokeNew.data!.revokeToken).toBe(true);
    const regen = await gql(
      `mutation { regenerateToken(customerId: "${c.id}") { token { id } plainToken } }`,
    );
    expect(regen.errors).toBeUndefined();
    const all = await gql(`mutation { revokeAllTokens(customerId: "${c.id}") }`);
    expect(all.data!.revokeAllTokens).toBe(true);
    const list = await api('GET', `/api/v1/customers/${c.id}/tokens`);
    expect(list.data).toEqual([]);
  });
});

describe('GraphQL packages, collections and statistics', () => {
  it('reads packages with their versions', async () => {
    const one = await gql(
      `{ package(name: "acme/widgets") { id name description repositoryUrl type latestVersion syncedAt createdAt syncStatus versions { version versionNormalized releasedAt downloads yanked deprecated } } }`,
    );
    expect(one.errors).toBeUndefined();
    expect(one.data!.package).toMatchObject({
      name: 'acme/widgets',
      type: 'GIT',
      latestVersion: '1.1.0',
      syncStatus: 'ok',
    });
    const versions = (one.data!.package as { versions: { version: string }[] }).versions;
    expect(versions.map((v) => v.version)).toEqual(expect.arrayContaining(['1.1.0', '1.0.0']));
    expect(versions[0]!.version).toBe('1.1.0');

    const list = await gql(
      `{ packages(filter: { query: "acme" }, first: 1) { edges { node { name } } pageInfo { hasNextPage } totalCount } }`,
    );
    expect(list.data!.packages).toEqual({
      edges: [{ node: { name: 'acme/other' } }],
      pageInfo: { hasNextPage: true },
      totalCount: 2,
    });
    const missing = await gql(`{ package(name: "acme/none") { id } }`);
    expect(codes(missing)).toEqual(['NOT_FOUND']);
  });

  it('adds, syncs and deletes a package', async () => {
    const other = new GitFixture('acme/gadget');
    other.composerJson().commit('init').release('2.0.0');
    const added = await gql(
      `mutation($url: String!) { addPackage(input: { name: "acme/gadget", repositoryUrl: $url, repositoryType: GIT }) { id name type syncStatus } }`,
      { url: other.url },
    );
    expect(added.errors).toBeUndefined();
    expect(added.data!.addPackage).toMatchObject({ name: 'acme/gadget', type: 'GIT' });
    const dup = await gql(
      `mutation($url: String!) { addPackage(input: { name: "acme/gadget", repositoryUrl: $url }) { id } }`,
      { url: other.url },
    );
    expect(codes(dup)).toEqual(['CONFLICT']);
    const badName = await gql(`mutation { addPackage(input: { name: "Not A Name" }) { id } }`);
    expect(codes(badName)).toEqual(['VALIDATION_ERROR']);
    const synced = await gql(`mutation { syncPackage(name: "acme/gadget") { name syncStatus } }`);
    expect(synced.errors).toBeUndefined();
    const deleted = await gql(`mutation { deletePackage(name: "acme/gadget") }`);
    expect(deleted.data!.deletePackage).toBe(true);

    // The multi-tenant form of the same mutation.
    const created = await gql(
      `mutation($url: String!) { createPackage(input: { name: "acme/gizmo", repositoryUrl: $url, repositoryType: GIT }) { id name } }`,
      { url: other.url },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPackage).toMatchObject({
      id: expect.any(String),
      name: 'acme/gizmo',
    });
    const again = await gql(
      `mutation($url: String!) { createPackage(input: { name: "acme/gizmo", repositoryUrl: $url }) { id } }`,
      { url: other.url },
    );
    expect(codes(again)).toEqual(['CONFLICT']);
    expect((await gql(`mutation { deletePackage(name: "acme/gizmo") }`)).errors).toBeUndefined();
  }, 60_000);

  it('manages collections', async () => {
    const created = await gql(
      `mutation { createCollection(input: { name: "Core", slug: "core", packages: ["acme/widgets"] }) { slug name packages { name latestVersion } createdAt updatedAt } }`,
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createCollection).toMatchObject({
      slug: 'core',
      packages: [{ name: 'acme/widgets', latestVersion: '1.1.0' }],
    });
    const updated = await gql(
      `mutation { updateCollection(slug: "core", input: { addPackages: ["acme/other"] }) { packages { name } } }`,
    );
    expect(updated.data!.updateCollection).toEqual({
      packages: [{ name: 'acme/other' }, { name: 'acme/widgets' }],
    });
    const all = await gql(`{ collections { slug } one: collection(slug: "core") { name } }`);
    expect(all.data).toEqual({ collections: [{ slug: 'core' }], one: { name: 'Core' } });
    expect((await gql(`mutation { deleteCollection(slug: "core") }`)).data).toEqual({
      deleteCollection: true,
    });
    expect(codes(await gql(`{ collection(slug: "core") { slug } }`))).toEqual(['NOT_FOUND']);
  });

  it('answers statistics, audit logs and the later domains', async () => {
    const stats = await gql(
      `{ downloadStats(period: LAST_7_DAYS) { totalDownloads byPackage { name downloads } byDay { date downloads } }
         one: downloadStats(packageName: "acme/widgets") { totalDownloads byDay { date } }
         stats { totalDownloads packages customers versions byDay { date downloads } byPackage { name } byCustomer { customerId } } }`,
    );
    expect(stats.errors).toBeUndefined();
    expect((stats.data!.downloadStats as { byDay: unknown[] }).byDay).toHaveLength(7);
    expect((stats.data!.one as { byDay: unknown[] }).byDay).toHaveLength(30);
    expect(stats.data!.stats).toMatchObject({ packages: 2 });

    const audit = await gql(
      `{ auditLogs(filter: { action: "customer.create" }, first: 2) { edges { node { id action actor { kind } target { type id } summary createdAt } } totalCount pageInfo { hasNextPage } } }`,
    );
    expect(audit.errors).toBeUndefined();
    const conn = audit.data!.auditLogs as {
      edges: { node: { action: string } }[];
      totalCount: number;
    };
    expect(conn.edges.length).toBeGreaterThan(0);
    expect(conn.edges.every((e) => e.node.action === 'customer.create')).toBe(true);

    const later = await gql(
      `{ vulnerabilities { id } proxyStatus { enabled } hostAppStatus { configured appId appSlug } oauthConnections { id } }`,
    );
    expect(later).toMatchObject({
      data: {
        vulnerabilities: [],
        proxyStatus: { enabled: false },
        hostAppStatus: { configured: false, appId: null, appSlug: null },
        oauthConnections: [],
      },
    });
    // The GitHub App is not configured here: the same rule as REST (403 FEATURE_NOT_AVAILABLE).
    const installations = await gql(`{ hostAppInstallations { id } }`);
    expect(codes(installations)).toEqual(['FEATURE_NOT_AVAILABLE']);
    const remove = await gql(`mutation { removeHostAppInstallation(id: "1") }`);
    expect(codes(remove)).toEqual(['FEATURE_NOT_AVAILABLE']);
  });
});

describe('GraphQL authentication', () => {
  it('refuses missing and invalid tokens, and makes viewers read-only', async () => {
    const none = await gql(`{ stats { totalDownloads } }`, {}, {});
    expect(none.status).toBe(200);
    expect(codes(none)).toEqual(['UNAUTHORIZED']);
    const bad = await gql(`{ stats { totalDownloads } }`, {}, { authorization: 'Bearer nope' });
    expect(codes(bad)).toEqual(['UNAUTHORIZED']);

    const made = await api('POST', '/api/v1/team/tokens', { name: 'v', level: 'viewer' });
    const viewer = { authorization: `Bearer ${made.plain_token}` };
    const read = await gql(`{ customers { totalCount } }`, {}, viewer);
    expect(read.errors).toBeUndefined();
    const write = await gql(
      `mutation { createCustomer(input: { name: "V", email: "v@v.test" }) { id } }`,
      {},
      viewer,
    );
    expect(codes(write)).toEqual(['FORBIDDEN']);
  });

  it('answers queries over GET too', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('{ stats { packages } }')}`,
      headers: t.admin,
    });
    expect(res.json()).toEqual({ data: { stats: { packages: 2 } } });
    const mutation = await t.app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('mutation { deleteCustomer(id: "x") }')}`,
      headers: t.admin,
    });
    expect(mutation.json().errors).toHaveLength(1);
    expect(mutation.json().errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });
});
