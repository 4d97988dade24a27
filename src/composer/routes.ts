import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-types.js';
import { featureNotAvailable, notFound } from '../errors.js';
import { customerSecret } from './credentials.js';
import type { MetadataKind } from './metadata.js';

const hidden = { hide: true };

function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  lastModified: Date,
): FastifyReply {
  const json = JSON.stringify(body);
  const etag = `"${crypto.createHash('sha1').update(json).digest('hex')}"`;
  const seconds = Math.floor(lastModified.getTime() / 1000) * 1000;
  reply.header('last-modified', new Date(seconds).toUTCString()).header('etag', etag);
  const inm = request.headers['if-none-match'];
  const ims = request.headers['if-modified-since'];
  const fresh = inm
    ? inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
    : ims !== undefined && !Number.isNaN(Date.parse(ims)) && Date.parse(ims) >= seconds;
  if (fresh) return reply.code(304).send();
  return reply.type('application/json').send(json);
}

/** The Composer v2 repository: root, p2 metadata, archives, notify-batch. */
export async function composerRoutes(app: App): Promise<void> {
  const composer = app.services.composer;
  const { baseUrl, edition } = app.services.deps.config;

  const principalOf = (req: FastifyRequest) =>
    composer.authenticate(req.tenantId, customerSecret(req));

  app.get('/packages.json', { schema: hidden }, async (req, reply) => {
    const principal = await principalOf(req);
    const root: Record<string, unknown> = {
      packages: {},
      'metadata-url': '/p2/%package%.json',
      'providers-lazy-url': '/p/%package%.json',
      'available-packages': await composer.availablePackages(principal),
      'notify-batch': `${baseUrl}/downloads/`,
    };
    if (edition !== 'community') {
      root['security-advisories'] = {
        metadata: false,
        'api-url': `${baseUrl}/api/security-advisories/`,
      };
    }
    return reply.header('cache-control', 'no-cache').send(root);
  });

  app.get(
    '/p2/:vendor/:file',
    {
      schema: {
        ...hidden,
        params: Type.Object({ vendor: Type.String(), file: Type.String() }),
      },
    },
    async (req, reply) => {
      const match = /^(.+?)(~dev)?\.json$/.exec(req.params.file);
      if (!match?.[1]) throw notFound(`Metadata file ${req.params.vendor}/${req.params.file}`);
      const principal = await principalOf(req);
      const name = `${req.params.vendor}/${match[1]}`.toLowerCase();
      const kind: MetadataKind = match[2] ? 'dev' : 'tags';
      const doc = await composer.packageDocument(principal, name, kind, baseUrl);
      return sendCacheable(req, reply, doc.body, doc.lastModified);
    },
  );

  app.get(
    '/dist/:vendor/:package/:file',
    {
      schema: {
        ...hidden,
        params: Type.Object({ vendor: Type.String(), package: Type.String(), file: Type.String() }),
      },
    },
    async (req, reply) => {
      const { vendor, package: pkg, file } = req.params;
      if (!file.endsWith('.zip')) throw notFound(`Archive ${vendor}/${pkg}/${file}`);
      const principal = await principalOf(req);
      const name = `${vendor}/${pkg}`.toLowerCase();
      const figures = await composer.usage.figures(principal.customer.tenant_id);
      reply
        .header('x-bandwidth-used', String(figures.bandwidthUsed))
        .header('x-bandwidth-limit', String(figures.bandwidthLimit))
        .header('x-storage-used', String(figures.storageUsed))
        .header('x-storage-limit', String(figures.storageLimit));
      composer.usage.assertBandwidthLeft(figures);
      const found = await composer.archive(principal, name, file.slice(0, -'.zip'.length));
      await composer.usage.recordDownload(
        principal.customer.tenant_id,
        principal.customer.id,
        found.pkg.id,
        found.version.version_normalized,
        found.bytes.length,
      );
      app.services.deps.events.publish({
        type: 'customer.activity',
        tenantId: principal.customer.tenant_id,
        customerId: principal.customer.id,
        activity: 'DOWNLOAD',
        package: found.pkg.name,
        version: found.version.version,
        at: new Date().toISOString(),
      });
      return reply
        .type('application/zip')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(found.bytes);
    },
  );

  // Composer reports installs here; archives are already counted when served.
  app.post('/downloads/', { schema: hidden }, async (_req, reply) => reply.code(204).send());

  // Composer posts `packages[0]=a/b&packages[1]=c/d` (PHP http_build_query).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => {
      const packages: string[] = [];
      for (const [key, value] of new URLSearchParams(String(body))) {
        if (/^packages\[\d*\]$/.test(key)) packages.push(value);
      }
      done(null, { packages });
    },
  );

  // No advisories are known yet: every asked-for package gets an empty list, so audits pass.
  app.post('/api/security-advisories/', { schema: hidden }, async (req) => {
    if (edition === 'community') {
      throw featureNotAvailable('Security advisories need the Pro edition or higher');
    }
    await principalOf(req);
    const body = (req.body ?? {}) as { packages?: unknown };
    const names = Array.isArray(body.packages)
      ? body.packages.filter((n): n is string => typeof n === 'string')
      : [];
    return { advisories: Object.fromEntries(names.map((n) => [n, []])) };
  });
}
