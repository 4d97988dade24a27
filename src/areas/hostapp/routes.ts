import fastifyCookie from '@fastify/cookie';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { bindingCookieName, bindingCookieOptions } from '../oauth/browser-binding.js';
import { LINK_TTL_MS, SETUP_PATH } from './claim-proof.js';
import { ErrorResponses, IdParams, ListOf, PageQuery, pageOf, paging } from '../../http/schemas.js';
import { presentInstallation, presentRepository, presentStatus } from './presenter.js';
import {
  ClaimBody,
  ClaimLinkSchema,
  SetupQuery,
  HostAppStatusSchema,
  InstallUrlSchema,
  InstallationSchema,
  RepositorySchema,
} from './schema.js';
import { TaskSchema } from '../tasks/schema.js';
import { presentTask } from '../tasks/presenter.js';

const tags = ['hostapp'];
const errors = ErrorResponses;

/** /api/v1/hostapp/… (admin API): the GitHub App's installations. */
export async function hostAppRoutes(app: App): Promise<void> {
  const hostApp = app.services.hostApp;
  const { config } = app.services.deps;
  await app.register(fastifyCookie);

  app.get(
    '/hostapp/status',
    { schema: { tags, response: { 200: HostAppStatusSchema, ...errors } } },
    async (req) => presentStatus(await hostApp.status(ctxOf(req))),
  );

  app.get(
    '/hostapp/install-url',
    { schema: { tags, response: { 200: InstallUrlSchema, ...errors } } },
    async (req) => ({ url: await hostApp.installUrl(ctxOf(req)) }),
  );

  app.get(
    '/hostapp/installations',
    {
      schema: {
        tags,
        querystring: PageQuery,
        response: { 200: ListOf(InstallationSchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await hostApp.list(ctxOf(req), { offset, limit: perPage });
      return pageOf(rows.map(presentInstallation), total, page, perPage);
    },
  );

  app.post(
    '/hostapp/installations/claim',
    {
      schema: {
        tags,
        body: ClaimBody,
        response: { 200: InstallationSchema, 201: InstallationSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { row, created } = await hostApp.claim(
        ctxOf(req),
        req.body.installation_id,
        req.body.code,
      );
      return reply.code(created ? 201 : 200).send(presentInstallation(row));
    },
  );

  app.post(
    '/hostapp/installations/claim-link',
    {
      schema: {
        tags,
        summary: 'An install link that claims the installation for this registry, with proof',
        response: { 200: ClaimLinkSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { browserBinding, ...link } = await hostApp.claimLink(ctxOf(req));
      reply.setCookie(
        bindingCookieName('hostapp'),
        browserBinding,
        bindingCookieOptions(config, SETUP_PATH, LINK_TTL_MS / 1000),
      );
      return link;
    },
  );

  app.get(
    '/hostapp/installations/by-host-id/:id',
    { schema: { tags, params: IdParams, response: { 200: InstallationSchema, ...errors } } },
    async (req) => {
      return presentInstallation(await hostApp.getByHostId(ctxOf(req), req.params.id));
    },
  );

  app.get(
    '/hostapp/installations/:id',
    { schema: { tags, params: IdParams, response: { 200: InstallationSchema, ...errors } } },
    async (req) => {
      return presentInstallation(await hostApp.get(ctxOf(req), req.params.id));
    },
  );

  app.get(
    '/hostapp/installations/:id/repositories',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: PageQuery,
        response: { 200: ListOf(RepositorySchema), ...errors },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await hostApp.repositories(ctxOf(req), req.params.id, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentRepository), total, page, perPage);
    },
  );

  app.post(
    '/hostapp/installations/:id/sync',
    { schema: { tags, params: IdParams, response: { 202: TaskSchema, ...errors } } },
    async (req, reply) =>
      reply.code(202).send(presentTask(await hostApp.queueSync(ctxOf(req), req.params.id))),
  );
}

/** The App's Setup URL: GitHub sends the browser here after an install; no admin token. */
export async function hostAppSetupRoutes(app: App): Promise<void> {
  const hostApp = app.services.hostApp;
  const { config } = app.services.deps;
  await app.register(fastifyCookie);
  app.get(
    SETUP_PATH,
    {
      schema: {
        tags,
        summary: 'Where GitHub sends the browser after installing the App from a claim link',
        security: [],
        querystring: SetupQuery,
      },
    },
    async (req, reply) => {
      reply.clearCookie(bindingCookieName('hostapp'), bindingCookieOptions(config, SETUP_PATH, 0));
      const row = await hostApp.completeSetup(req.query, {
        browserBinding: req.cookies[bindingCookieName('hostapp')] ?? null,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
      });
      reply.header('cache-control', 'no-store');
      const accept = req.headers.accept ?? '';
      if (/application\/json/i.test(accept) && !/text\/html/i.test(accept)) {
        return reply.send(presentInstallation(row));
      }
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
      return reply.type('text/html; charset=utf-8').send(claimedPage(row.account_login));
    },
  );
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function claimedPage(account: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>GitHub App installed</title>
<h1>The GitHub App installation of ${escapeHtml(account)} is now part of your registry</h1>
<p>You can close this page and sync its repositories from Packyard.</p></html>`;
}
