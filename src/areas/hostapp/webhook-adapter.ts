import type { WebhookAdapterFactory } from '../webhooks/types.js';
import { header } from '../webhooks/types.js';
import { verifyHubSignature } from '../webhooks/signatures.js';
import { handleGitHubEvent } from '../webhooks/adapters/github.js';

/**
 * The GitHub App's webhook: GitHub's signing; installation and installation_repositories keep the
 * installation list current; every other event is answered exactly as the github route answers
 * it (ping → pong, push/create/delete/release sync matching packages, the rest is ignored).
 */
export const hostAppAdapter: WebhookAdapterFactory = (services) => ({
  verify: (body, headers, secret) =>
    verifyHubSignature(body, header(headers, 'x-hub-signature-256'), secret),
  eventOf: (headers) => header(headers, 'x-github-event') ?? 'unknown',
  deliveryIdOf: (headers) => header(headers, 'x-github-delivery'),
  handle: async (ctx, event, payload) => {
    if (event === 'installation' || event === 'installation_repositories') {
      return services.hostApp.handleInstallationEvent(ctx, event, payload);
    }
    return handleGitHubEvent(services, ctx, event, payload);
  },
});
