import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/app-types.js';
import { ADMIN_UI_CSP, WEB_DIST } from '../admin-ui/routes.js';

/**
 * The customer portal's page at /portal on every edition (docs/portal.md): web/dist/portal.html
 * for every path under /portal, so its client router takes over. Its scripts and styles are
 * the admin UI's build (one Vite build, two entries) and load from /admin/assets/, which the
 * admin UI's routes serve hashed and precompressed. Same security headers as the admin UI.
 */
export async function portalUiRoutes(app: App, opts: { dist?: string } = {}): Promise<void> {
  const file = path.join(opts.dist ?? WEB_DIST, 'portal.html');
  const html = fs.existsSync(file) ? fs.readFileSync(file) : null;

  const send = async (_req: unknown, reply: FastifyReply) => {
    reply
      .header('content-security-policy', ADMIN_UI_CSP)
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache');
    if (!html) {
      return reply.code(404).send({
        error: 'not_found',
        code: 'NOT_FOUND',
        message: 'The portal is not built: run `npm run build:web` (npm start does it)',
      });
    }
    return reply.type('text/html; charset=utf-8').send(html);
  };

  app.get('/portal', { schema: { hide: true } }, async (_req, reply) =>
    reply.redirect('/portal/', 301),
  );
  app.get('/portal/', { schema: { hide: true } }, send);
  app.get('/portal/*', { schema: { hide: true } }, send);
}
