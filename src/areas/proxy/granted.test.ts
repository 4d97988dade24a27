import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../test/helpers.js';
import { proxiedApp, versionsOf } from '../../../test/proxy-helpers.js';
import type { Proxied } from '../../../test/proxy-helpers.js';

let p: Proxied;

beforeAll(async () => {
  p = await proxiedApp({ PROXY_VISIBILITY: 'granted', PROXY_METADATA_TTL_SECONDS: '0' });
});
afterAll(async () => p.close());

const dist = (name: string, version: string, normalized: string) =>
  `/dist-proxy/${name}/${normalized}/${p.upstream.reference(name, version)}.zip`;

describe('PROXY_VISIBILITY=granted', () => {
  it('shows a public package only to customers granted it, filtered by the grant', async () => {
    const granted = await p.customer();
    const other = await p.customer();
    expect((await p.get('/p2/psr/log.json', granted.auth)).statusCode).toBe(403);
    expect((await p.get('/packages.json', granted.auth)).json()['available-packages']).toEqual([]);

    const answer = await p.api('POST', `/api/v1/customers/${granted.id}/packages`, {
      package: 'psr/log',
      constraint: '^1.0',
    });
    expect(answer).toMatchObject({ package: 'psr/log', constraint: '^1.0' });
    const listed = await p.api('GET', `/api/v1/customers/${granted.id}/packages`);
    expect((listed.data as { package: string }[]).map((a) => a.package)).toEqual(['psr/log']);

    const doc = await p.get('/p2/psr/log.json', granted.auth);
    expect(doc.statusCode).toBe(200);
    expect(versionsOf(doc, 'psr/log').sort()).toEqual(['1.0.0', '1.1.4']);
    expect((await p.get('/packages.json', granted.auth)).json()['available-packages']).toEqual([
      'psr/log',
    ]);
    expect((await p.get(dist('psr/log', '1.1.4', '1.1.4.0'), granted.auth)).statusCode).toBe(200);
    expect((await p.get(dist('psr/log', '3.0.0', '3.0.0.0'), granted.auth)).statusCode).toBe(404);

    // Someone else's grant shows nothing to this customer.
    expect((await p.get('/p2/psr/log.json', other.auth)).statusCode).toBe(403);
    expect((await p.get(dist('psr/log', '1.1.4', '1.1.4.0'), other.auth)).statusCode).toBe(403);
  });

  it('moves Last-Modified past what was served when the grant changes, even within the second', async () => {
    const c = await p.customer();
    await p.api('POST', `/api/v1/customers/${c.id}/packages`, {
      package: 'psr/log',
      constraint: '^1.0',
    });
    const first = await p.get('/p2/psr/log.json', c.auth);
    const since = String(first.headers['last-modified']);
    // The GraphQL mutation shares the service: it replaces the constraint.
    const changed = await graphql(
      p.t,
      `
        mutation ($id: ID!) {
          grantPackageAccess(customerId: $id, packages: [{ package: "psr/log", constraint: "*" }]) {
            id
          }
        }
      `,
      { id: c.id },
    );
    expect(changed.errors).toBeUndefined();
    const after = await p.get('/p2/psr/log.json', { ...c.auth, 'if-modified-since': since });
    expect(after.statusCode).toBe(200);
    expect(versionsOf(after, 'psr/log')).toContain('3.0.0');

    await p.api('DELETE', `/api/v1/customers/${c.id}/packages/psr/log`);
    expect((await p.get('/p2/psr/log.json', c.auth)).statusCode).toBe(403);
  });

  it('refuses a grant of a malformed name or constraint', async () => {
    const c = await p.customer();
    const res = await p.t.app.inject({
      method: 'POST',
      url: `/api/v1/customers/${c.id}/packages`,
      headers: p.t.admin,
      payload: { package: 'psr/log', constraint: '^^nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});
