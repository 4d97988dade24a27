import type { FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../tenants/hook.js';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../errors.js';
import { hasFeature } from '../../editions.js';
import { customerCredentials } from './credentials.js';
import type { MetadataKind } from '../../composer/metadata.js';
import { digest } from '../../infra/crypto.js';
import { CUSTOMER_TOKEN_PREFIX } from '../auth/service.js';
import type { CustomerPrincipal } from '../auth/service.js';
import type { PackageDocument } from './service.js';
import { render } from './rendered-document.js';
import type { RenderedDocument } from './rendered-document.js';
import { metadataAnswer, p2Path } from './fast-path.js';
import { recordArchiveDownload } from './downloads.js';
import { meterArchive } from '../usage/archive-meter.js';
import { changeLogRoutes, changesUrl } from './change-log-routes.js';

const hidden = { hide: true };

function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: RenderedDocument,
): FastifyReply {
  const answer = metadataAnswer(request, doc, ['last-modified', doc.lastModified]);
  const { headers } = answer;
  for (let i = 0; i < headers.length; i += 2) reply.header(String(headers[i]), headers[i + 1]);
  return reply.code(answer.status).send(answer.body);
}

/** The Composer v2 repository: root, p2 metadata, archives, notify-batch. */
export async function composerRoutes(app: App): Promise<void> {
  const composer = app.services.composer;
  const { baseUrl, edition } = app.services.deps.config;

  const cache = composer.responses;
  const principalOf = (req: FastifyRequest) =>
    composer.authenticate(req.tenantId, customerCredentials(req.headers.authorization));

  /** Answers from the audience's cache, or computes, caches and answers. */
  async function cached(
    req: FastifyRequest,
    reply: FastifyReply,
    /** The canonical request path: what the answer is cached under in its audience. */
    path: string,
    compute: (principal: CustomerPrincipal) => Promise<PackageDocument>,
    /** The package of a p2 answer. */
    packageName?: string,
  ): Promise<FastifyReply> {
    const credentials = customerCredentials(req.headers.authorization);
    const tokenDigest = digest(credentials.secret);
    // Requests that reach here missed the fast path (see fast-path.ts) or are not p2.
    let audience = cache.audienceOf(req.tenantId, tokenDigest);
    const hit = audience && cache.get(audience, path);
    if (hit) {
      hit.onServe?.();
      return sendRendered(req, reply, hit);
    }
    // Read before the database: a change committed meanwhile makes these entries stale at once.
    const generation = cache.generation(req.tenantId);
    const mark = packageName ? cache.packageMark(req.tenantId, packageName) : undefined;
    let principal: CustomerPrincipal;
    if (!audience) {
      // A stored token's access is read while the token is authenticated: one round trip, not
      // two. A JWT has no token row; its customer's access is read once it is known.
      const stored = credentials.secret.startsWith(CUSTOMER_TOKEN_PREFIX);
      const [found, access] = await Promise.all([
        composer.authenticate(req.tenantId, credentials),
        stored ? composer.accessOfToken(req.tenantId, tokenDigest) : undefined,
      ]);
      principal = found;
      const fingerprint = await composer.audienceOf(principal, access);
      audience = cache.remember(req.tenantId, tokenDigest, fingerprint, generation, [
        principal.expiresAt,
        principal.customer.access_expires_at,
      ]);
      const shared = cache.get(audience, path);
      if (shared) {
        shared.onServe?.();
        return sendRendered(req, reply, shared);
      }
    } else {
      principal = await composer.authenticate(req.tenantId, credentials);
    }
    const { body, lastModified, rendered, validUntil } = await compute(principal);
    const doc = rendered ?? render(body, lastModified);
    cache.set(audience, generation, path, doc, [validUntil ?? null], mark);
    return sendRendered(req, reply, doc);
  }

  const rootDocument = async (principal: CustomerPrincipal, origin: string) => {
    const root: Record<string, unknown> = {
      packages: {},
      'metadata-url': '/p2/%package%.json',
      'providers-lazy-url': '/p/%package%.json',
      'notify-batch': `${origin}/downloads/`,
      // For mirrors: what changed since a time, in packagist.org's format (change-log.ts).
      'metadata-changes-url': changesUrl(origin),
    };
    // With public names open to all, Composer must ask for any name: no list (docs/proxy.md).
    if (!composer.publicNamesOpen) {
      root['available-packages'] = await composer.availablePackages(principal);
    }
    if (hasFeature(edition, 'security_advisories')) {
      root['security-advisories'] = {
        metadata: true,
        'api-url': `${origin}/api/security-advisories/`,
      };
    }
    return { body: root, lastModified: new Date() };
  };

  app.get('/packages.json', { schema: hidden }, async (req, reply) =>
    cached(req, reply, '/packages.json', (principal) =>
      rootDocument(principal, originOf(req, baseUrl)),
    ),
  );

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
      const name = `${req.params.vendor}/${match[1]}`.toLowerCase();
      const kind: MetadataKind = match[2] ? 'dev' : 'tags';
      return cached(
        req,
        reply,
        p2Path(name, kind),
        (principal) => composer.packageDocument(principal, name, kind, originOf(req, baseUrl)),
        name,
      );
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
      await meterArchive(composer.usage, principal.customer.tenant_id, reply);
      const found = await composer.archive(principal, name, file.slice(0, -'.zip'.length));
      const { body, size } = found.archive;
      // HEAD (Fastify answers it with this handler) asks about the archive: not a download.
      if (req.method !== 'HEAD') {
        try {
          await recordArchiveDownload(app.services.deps, composer.usage, {
            tenantId: principal.customer.tenant_id,
            customerId: principal.customer.id,
            packageId: found.pkg.id,
            name: found.pkg.name,
            version: found.version.version,
            normalized: found.version.version_normalized,
            size,
          });
        } catch (err) {
          body.destroy();
          throw err;
        }
      }
      // Streamed from storage as it arrives: an archive is never held whole in memory.
      return reply
        .type('application/zip')
        .header('content-length', String(size))
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(body);
    },
  );

  await changeLogRoutes(app);

  // Composer reports installs here; archives are already counted when served.
  app.post('/downloads/', { schema: hidden }, async (_req, reply) => reply.code(204).send());
}
