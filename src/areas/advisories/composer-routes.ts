import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { invalid, notFound } from '../../errors.js';
import { requireFeature } from '../../editions.js';
import { customerCredentials } from '../composer-repository/credentials.js';
import { originOf } from '../tenants/hook.js';

const hidden = { hide: true };

/** Names from `packages[]=a&packages[]=b` or `packages[0]=a` (PHP's http_build_query) pairs. */
export function packageNames(pairs: Iterable<[string, unknown]>): string[] {
  const out: string[] = [];
  for (const [key, value] of pairs) {
    if (!/^packages(\[\d*\])?$/.test(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string' && v.length <= 255) out.push(v);
    }
  }
  return out;
}

/** `updatedSince` (unix time) as a date; absent = everything. */
function since(value: unknown): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw invalid('updatedSince', 'must be a unix time');
  return new Date(n * 1000);
}

/**
 * The advisory routes of the Composer surface (docs/advisories.md), with the customer-token rules
 * of section 6: what a token may not see is left out (or 403/404 as p2 for one package).
 */
export async function composerAdvisoryRoutes(app: App): Promise<void> {
  const { composer, advisoryFeed: feed } = app.services;
  const { baseUrl } = app.services.deps.config;
  const preHandler = requireFeature('security_advisories');
  const principalOf = (req: FastifyRequest) =>
    composer.authenticate(req.tenantId, customerCredentials(req.headers.authorization));

  // Composer 2.5.5 posts `packages[]=a/b&packages[]=c/d` (and updatedSince) as a form body.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => {
      const params = new URLSearchParams(String(body));
      done(null, {
        packages: packageNames(params),
        updatedSince: params.get('updatedSince') ?? undefined,
      });
    },
  );

  app.post('/api/security-advisories/', { schema: hidden, preHandler }, async (req) => {
    const principal = await principalOf(req);
    const body = (req.body ?? {}) as { packages?: unknown; updatedSince?: unknown };
    const names = packageNames(Object.entries({ packages: body.packages ?? [] }));
    return feed.answer(
      principal,
      composer,
      names,
      originOf(req, baseUrl),
      since(body.updatedSince),
    );
  });

  app.get('/api/security-advisories/', { schema: hidden, preHandler }, async (req) => {
    const principal = await principalOf(req);
    const query = (req.query ?? {}) as Record<string, unknown>;
    return feed.answer(
      principal,
      composer,
      packageNames(Object.entries(query)),
      originOf(req, baseUrl),
      since(query.updatedSince),
    );
  });

  app.get('/security-advisories.json', { schema: hidden, preHandler }, async (req) =>
    feed.everything(await principalOf(req), composer, originOf(req, baseUrl)),
  );

  app.get(
    '/api/security-advisories/:vendor/:file',
    {
      schema: { ...hidden, params: Type.Object({ vendor: Type.String(), file: Type.String() }) },
      preHandler,
    },
    async (req) => {
      const principal = await principalOf(req);
      const match = /^(.+)\.json$/.exec(req.params.file);
      if (!match?.[1]) throw notFound(`Advisories of ${req.params.vendor}/${req.params.file}`);
      return feed.one(
        principal,
        composer,
        `${req.params.vendor}/${match[1]}`.toLowerCase(),
        originOf(req, baseUrl),
      );
    },
  );
}
