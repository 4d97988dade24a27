import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../fixtures/git-repo.js';
import { adminApi, addSyncedPackage } from '../factories.js';
import { basicAuth } from '../helpers.js';
import { deliver, invoice, stripeEvent, stripeId, subscription } from '../fakes/stripe.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

const SECRET = 'whsec_e2e_5f1c0a9b8e7d6c5b4a39281706f5e4d3';

let s: RunningServer;
const cleanup: (() => void)[] = [];
const api = (method: string, url: string, payload?: unknown) => adminApi(s)(method, url, payload);

function project(token: string): ComposerProject {
  const p = new ComposerProject(s.url, token);
  cleanup.push(() => p.remove());
  return p;
}

beforeAll(async () => {
  s = await startServer({ STRIPE_WEBHOOK_SECRET: SECRET });
  const lib = new GitFixture('acme/lib');
  lib.release('1.0.0').release('1.1.0');
  cleanup.push(() => lib.remove());
  await addSyncedPackage(s, 'acme/lib', lib.url);
});

afterAll(async () => {
  await s.close();
  cleanup.forEach((fn) => fn());
});

describe('Stripe decides whether the real composer client may install', () => {
  it('fails with 403 once the subscription is deleted, and installs again once an invoice is paid', async () => {
    const cus = stripeId('cus', 14);
    const customer = await api('POST', '/api/v1/customers', {
      name: 'Paying Customer',
      email: 'billing@paying.test',
      external_id: cus,
    });
    await api('POST', `/api/v1/customers/${customer.id}/packages`, {
      package: 'acme/lib',
      constraint: '^1.0',
    });
    const { plain_token: token } = await api('POST', `/api/v1/customers/${customer.id}/tokens`, {
      name: 'ci',
    });

    const paying = project(token);
    const first = await paying.run(['require', 'acme/lib']);
    expect(first.code, first.output).toBe(0);
    expect(paying.lockedVersion('acme/lib')).toBe('1.1.0');
    // Metadata now sits in the response cache, where the p2 fast path answers from.
    const metadata = () =>
      fetch(`${s.url}/p2/acme/lib.json`, { headers: { authorization: basicAuth(token) } });
    expect((await metadata()).status).toBe(200);

    const webhook = `${s.url}/api/webhooks/payment`;
    const deleted = await deliver(
      webhook,
      stripeEvent('customer.subscription.deleted', subscription(cus, 'canceled')),
      { secret: SECRET },
    );
    expect(deleted.status).toBe(200);
    expect(deleted.json).toMatchObject({ status: 'processed' });
    expect(await api('GET', `/api/v1/customers/${customer.id}`)).toMatchObject({
      status: 'EXPIRED',
      status_reason: 'payment: subscription deleted',
    });

    // The cached metadata is gone at once, not after a cache lifetime.
    expect((await metadata()).status).toBe(403);
    const refused = await project(token).run(['require', 'acme/lib']);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/403/);

    const paid = await deliver(webhook, stripeEvent('invoice.paid', invoice(cus)), {
      secret: SECRET,
    });
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ status: 'processed' });
    expect((await api('GET', `/api/v1/customers/${customer.id}`)).status).toBe('ACTIVE');

    const again = project(token);
    const installed = await again.run(['require', 'acme/lib']);
    expect(installed.code, installed.output).toBe(0);
    expect(again.lockedVersion('acme/lib')).toBe('1.1.0');
    expect(again.installedFile('acme/lib', 'src/Version.php')).toContain("'1.1.0'");
  });
});
