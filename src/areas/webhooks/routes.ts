import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { notFound } from '../../errors.js';
import { PROVIDER_ALIASES, WEBHOOK_PROVIDERS, type WebhookProvider } from './types.js';

function providerOf(word: string): WebhookProvider | null {
  const lower = word.toLowerCase();
  if ((WEBHOOK_PROVIDERS as readonly string[]).includes(lower)) return lower as WebhookProvider;
  return PROVIDER_ALIASES[lower] ?? null;
}

/**
 * POST /api/webhooks/{github,gitlab,bitbucket,hostapp,payment} (and provider-a/b/c). No admin
 * token: the body is kept raw so the sender's signature can be checked before anything reads it.
 */
export async function webhookRoutes(app: App): Promise<void> {
  const { services } = app;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post(
    '/api/webhooks/:provider',
    {
      bodyLimit: services.deps.config.webhookMaxBytes,
      schema: {
        tags: ['webhooks'],
        summary: 'Inbound webhook from a git host, the GitHub App or Stripe',
        security: [],
        params: Type.Object({ provider: Type.String() }),
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      if (provider === null) throw notFound(`Webhook route ${request.params.provider}`);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await services.webhooks.receive(
        {
          tenantId: request.tenantId,
          actor: { kind: 'webhook', id: provider },
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        },
        provider,
        body,
        request.headers,
        request.socket.remoteAddress,
      );
      return reply.code(outcome.status === 'queued' ? 202 : 200).send(outcome);
    },
  );
}
