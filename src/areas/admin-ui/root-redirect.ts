import type { App } from '../../http/app-types.js';

/**
 * `GET /` sends a browser to the admin UI (on a Cloud tenant's host, that tenant's). 302, not
 * 301: the root may serve something else one day, and browsers must not remember the move. Every
 * other unknown path keeps its 404.
 */
export async function rootRedirectRoutes(app: App): Promise<void> {
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/admin', 302));
}
