import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/app-types.js';

/** Where `npm run build:web` writes the admin UI (web/dist). */
export const WEB_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

/**
 * No inline scripts or styles in markup, nothing from other origins, no framing. `'self'` in
 * connect-src covers the same-origin GraphQL WebSocket (ws:/wss:) in current browsers.
 */
export const ADMIN_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secure(reply: FastifyReply): void {
  reply.header('content-security-policy', ADMIN_UI_CSP);
  reply.header('x-frame-options', 'DENY');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
}

/**
 * The admin UI at /admin on every edition: the built files of web/dist (hashed assets cached for
 * good), and index.html for every other path under /admin so the client router takes over.
 */
export async function adminUiRoutes(app: App, opts: { dist?: string } = {}): Promise<void> {
  const dist = opts.dist ?? WEB_DIST;
  const indexFile = path.join(dist, 'index.html');
  const built = fs.existsSync(indexFile);

  app.addHook('onSend', async (request, reply) => {
    if (request.url === '/admin' || request.url.startsWith('/admin/')) secure(reply);
  });

  app.get('/admin', { schema: { hide: true } }, async (_req, reply) =>
    reply.redirect('/admin/', 301),
  );

  if (!built) {
    app.get('/admin/*', { schema: { hide: true } }, async (_req, reply) =>
      reply.code(404).send({
        error: 'not_found',
        code: 'NOT_FOUND',
        message: 'The admin UI is not built: run `npm run build:web` (npm start does it)',
      }),
    );
    return;
  }

  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/admin/',
    wildcard: false,
    index: false,
    decorateReply: true,
    // The build writes .br and .gz copies beside each file (scripts/web-build.ts): sent as they are.
    preCompressed: true,
    setHeaders: (res, file) => {
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const html = fs.readFileSync(indexFile);
  const sendIndex = async (_req: unknown, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  app.get('/admin/', { schema: { hide: true } }, sendIndex);
  app.get('/admin/*', { schema: { hide: true } }, async (req, reply) => {
    // A missing asset is a 404, not the page (a stale tab asking for an old bundle).
    if (req.url.startsWith('/admin/assets/')) {
      return reply.code(404).send({
        error: 'not_found',
        code: 'NOT_FOUND',
        message: `Route GET ${req.url.split('?')[0]} not found`,
      });
    }
    return sendIndex(req, reply);
  });
}
