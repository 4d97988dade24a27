import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../fixtures/git-repo.js';
import { FakeOAuthHost } from '../fakes/oauth-host.js';
import type { FakeOAuthProvider } from '../fakes/oauth-host.js';
import { adminApi, createCustomer, waitForSync } from '../factories.js';
import { ComposerProject } from './composer-client.js';
import { startServer } from './server.js';
import type { RunningServer } from './server.js';

/**
 * The done-criterion: a private repository, served by git http-backend behind the fake
 * host's token check, is cloned through the registry's OAuth connection, and the real Composer
 * client installs it. Everything goes over real HTTP, the browser's part included.
 */
describe.each(['github', 'gitlab'] as FakeOAuthProvider[])(
  'a private %s repository through the OAuth connection',
  (provider) => {
    let fake: FakeOAuthHost;
    let s: RunningServer;
    const cleanup: (() => void)[] = [];

    beforeAll(async () => {
      fake = await FakeOAuthHost.start({ provider, expiringTokens: true });
      s = await startServer({
        ...fake.env(),
        ENCRYPTION_KEY: 'e2e-encryption-key-0123456789abcdef',
      });
      fake.callbackUrl = `${s.url}/api/oauth/${provider}/callback`;
    });
    afterAll(async () => {
      await s?.close();
      await fake?.close();
      cleanup.forEach((fn) => fn());
    });

    it('connects in a browser, syncs with the token, and Composer installs the package', async () => {
      const api = adminApi(s);
      const init = await api('POST', `/api/v1/oauth/${provider}/initiate`);
      // The admin opens the URL, signs in on the host and approves; the host sends the browser back.
      const back = await fake.authorize(init.authorization_url);
      const page = await fetch(back, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/Connected to Git(Hub|Lab) as octo-admin/);

      const repo = new GitFixture('acme/secret-sauce');
      cleanup.push(() => repo.remove());
      repo.release('v1.2.0');
      const url = fake.servePrivate('acme/secret-sauce', repo.dir);
      await api('POST', '/api/v1/packages', {
        name: 'acme/secret-sauce',
        repository_url: url,
        type: provider,
      });
      const pkg = await waitForSync(s, 'acme/secret-sauce');
      expect(pkg.sync_status, pkg.sync_error).toBe('ok');
      const cloned = fake.gitRequests().filter((r) => r.basic);
      expect(cloned.length).toBeGreaterThan(0);
      expect(fake.validAccessTokens()).toContain(cloned.at(-1)!.basic!.password);

      const customer = await createCustomer(s, `Buyer ${provider}`);
      await api('POST', `/api/v1/customers/${customer.id}/packages`, {
        package: 'acme/secret-sauce',
        constraint: '^1.0',
      });
      const token = await api('POST', `/api/v1/customers/${customer.id}/tokens`, { name: 'ci' });
      const project = new ComposerProject(s.url, token.plain_token);
      cleanup.push(() => project.remove());
      const run = await project.run(['require', 'acme/secret-sauce']);
      expect(run.code, run.output).toBe(0);
      expect(project.lockedVersion('acme/secret-sauce')).toBe('v1.2.0');
      expect(project.installedFile('acme/secret-sauce', 'src/Version.php')).toContain("'v1.2.0'");
    });
  },
);
