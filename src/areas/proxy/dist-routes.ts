import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../errors.js';
import { requireFeature } from '../../editions.js';
import { customerCredentials } from '../composer-repository/credentials.js';
import { recordProxyDownload } from './downloads.js';
import { meterArchive } from '../usage/archive-meter.js';

const Params = Type.Object({
  vendor: Type.String({ maxLength: 100 }),
  package: Type.String({ maxLength: 100 }),
  version: Type.String({ maxLength: 255 }),
  file: Type.String({ maxLength: 300 }),
});

/**
 * `/dist-proxy/{vendor}/{package}/{version}/{reference}.zip`: archives of public packages, with
 * the headers, bandwidth accounting and download statistics of `/dist`.
 */
export async function distProxyRoutes(app: App): Promise<void> {
  const { composer, proxy } = app.services;

  app.get(
    '/dist-proxy/:vendor/:package/:version/:file',
    { schema: { hide: true, params: Params }, preHandler: requireFeature('proxy') },
    async (req, reply) => {
      const { vendor, package: pkg, version, file } = req.params;
      const name = `${vendor}/${pkg}`.toLowerCase();
      const principal = await composer.authenticate(
        req.tenantId,
        customerCredentials(req.headers.authorization),
      );
      if (
        !file.endsWith('.zip') ||
        !(await composer.isPublicFor(principal, name)) ||
        !(await composer.allowsPublicVersion(principal, name, version))
      ) {
        throw notFound(`Archive ${name}/${version}/${file}`);
      }
      const tenantId = principal.customer.tenant_id;
      await meterArchive(composer.usage, tenantId, reply);
      const found = await proxy.archive(tenantId, name, version, file.slice(0, -'.zip'.length));
      const { size, normalized } = found;
      try {
        await recordProxyDownload(app.services.deps, composer.usage, {
          tenantId,
          customerId: principal.customer.id,
          name,
          version,
          normalized,
          size,
        });
      } catch (err) {
        // Not counted, so not served (as /dist).
        found.body.destroy();
        throw err;
      }
      return reply
        .type('application/zip')
        .header('content-length', String(found.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(found.body);
    },
  );
}
