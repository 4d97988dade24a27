import fastifyCookie from '@fastify/cookie';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { notFound } from '../../errors.js';
import { connectedPage, presentConnection } from './presenter.js';
import { bindingCookieName, bindingCookieOptions } from './browser-binding.js';
import { providerOf } from './providers.js';
import { STATE_TTL_MS } from './service.js';
import type { OAuthProvider } from './providers.js';
import {
  CallbackQuery,
  ConnectionListSchema,
  InitiateBody,
  InitiateSchema,
  ProviderParams,
  StatusSchema,
} from './schema.js';

const tags = ['oauth'];
const errors = ErrorResponses;

/** `github`, `gitlab` or an alias (`provider-a`, `provider-b`); anything else is a 404. */
function provider(word: string): OAuthProvider {
  const found = providerOf(word);
  if (found === null) throw notFound(`OAuth provider "${word}"`);
  return found;
}

const callbackPath = (provider: OAuthProvider) => `/api/oauth/${provider}/callback`;

/** /api/v1/oauth/… (admin API). */
export async function oauthRoutes(app: App): Promise<void> {
  const oauth = app.services.oauth;
  const { config } = app.services.deps;
  await app.register(fastifyCookie);

  app.get(
    '/oauth/connections',
    {
      schema: { tags, querystring: PageQuery, response: { 200: ConnectionListSchema, ...errors } },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await oauth.list(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentConnection), total, page, perPage);
    },
  );

  app.post(
    '/oauth/:provider/initiate',
    {
      schema: {
        tags,
        summary: 'Start connecting to the git host: returns the URL to open in a browser',
        params: ProviderParams,
        body: InitiateBody,
        response: { 200: InitiateSchema, ...errors },
      },
    },
    async (req, reply) => {
      const which = provider(req.params.provider);
      const { browserBinding, ...answer } = await oauth.initiate(ctxOf(req), which);
      reply.setCookie(
        bindingCookieName(which),
        browserBinding,
        bindingCookieOptions(config, callbackPath(which), STATE_TTL_MS / 1000),
      );
      return answer;
    },
  );

  app.get(
    '/oauth/:provider/status',
    { schema: { tags, params: ProviderParams, response: { 200: StatusSchema, ...errors } } },
    async (req) => oauth.status(ctxOf(req), provider(req.params.provider)),
  );

  app.post(
    '/oauth/:provider/disconnect',
    {
      schema: {
        tags,
        params: ProviderParams,
        body: InitiateBody,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (req, reply) => {
      await oauth.disconnect(ctxOf(req), provider(req.params.provider));
      return reply.code(204).send(null);
    },
  );
}

/** The OAuth callback: the git host redirects the browser here, without an admin token. */
export async function oauthCallbackRoutes(app: App): Promise<void> {
  const oauth = app.services.oauth;
  const { config } = app.services.deps;
  await app.register(fastifyCookie);

  app.get(
    '/api/oauth/:provider/callback',
    {
      schema: {
        tags,
        summary: 'Where the git host sends the browser back (the single-use state authorizes it)',
        security: [],
        params: ProviderParams,
        querystring: CallbackQuery,
      },
    },
    async (req, reply) => {
      const which = provider(req.params.provider);
      // The flow ends here, whatever its outcome: the browser forgets its binding.
      reply.clearCookie(
        bindingCookieName(which),
        bindingCookieOptions(config, callbackPath(which), 0),
      );
      const result = await oauth.callback(
        {
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? null,
          browserBinding: req.cookies[bindingCookieName(which)] ?? null,
        },
        which,
        req.query,
      );
      // Nothing here may be cached or framed: it ends an authorization.
      reply.header('cache-control', 'no-store');
      // Browsers ask for text/html; API clients and scripts for application/json.
      const accept = req.headers.accept ?? '';
      if (/application\/json/i.test(accept) && !/text\/html/i.test(accept)) {
        return reply.send(result.status);
      }
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      return reply
        .type('text/html; charset=utf-8')
        .send(connectedPage(result.label, result.status.account_login, result.hostUrl));
    },
  );
}
