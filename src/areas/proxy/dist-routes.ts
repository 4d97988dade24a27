import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../errors.js';
import { requireFeature } from '../../editions.js';
import { customerCredentials } from '../composer-repository/credentials.js';
import * as store from './store.js';

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
  const db = app.services.deps.db;

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
      const figures = await composer.usage.figures(tenantId);
      reply
        .header('x-bandwidth-used', String(figures.bandwidthUsed))
        .header('x-bandwidth-limit', String(figures.bandwidthLimit))
        .header('x-storage-used', String(figures.storageUsed))
        .header('x-storage-limit', String(figures.storageLimit));
      composer.usage.assertBandwidthLeft(figures);
      const found = await proxy.archive(tenantId, name, version, file.slice(0, -'.zip'.length));
      try {
        await composer.usage.recordBandwidth(tenantId, found.size);
        await store.recordDownload(
          db,
          tenantId,
          principal.customer.id,
          name,
          found.normalized,
          found.size,
        );
        await store.count(db, tenantId, 'bytes_served', found.size);
      } catch (err) {
        // Not counted, so not served (as /dist).
        found.body.destroy();
        throw err;
      }
      app.services.deps.events.publish({
        type: 'customer.activity',
        tenantId,
        customerId: principal.customer.id,
        activity: 'DOWNLOAD',
        package: name,
        version,
        at: new Date().toISOString(),
      });
      return reply
        .type('application/zip')
        .header('content-length', String(found.size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(found.body);
    },
  );
}
