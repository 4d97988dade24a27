import type { WebhookAdapterFactory } from '../webhooks/types.js';
import { header } from '../webhooks/types.js';
import { verifyHubSignature } from '../webhooks/signatures.js';
import { githubAdapter } from '../webhooks/adapters/github.js';

/** Repository events the App receives like a repository webhook: handled as the github route. */
const REPOSITORY_EVENTS = new Set(['push', 'create', 'delete', 'release']);

/**
 * The GitHub App's webhook: GitHub's signing; installation and installation_repositories keep the
 * installation list current, push/create/delete/release sync matching packages exactly as the
 * github route does, anything else is acknowledged and ignored.
 */
export const hostAppAdapter: WebhookAdapterFactory = (services) => {
  const repository = githubAdapter(services);
  return {
    verify: (body, headers, secret) =>
      verifyHubSignature(body, header(headers, 'x-hub-signature-256'), secret),
    eventOf: (headers) => header(headers, 'x-github-event') ?? 'unknown',
    deliveryIdOf: (headers) => header(headers, 'x-github-delivery'),
    handle: async (ctx, event, payload) => {
      if (event === 'installation' || event === 'installation_repositories') {
        return services.hostApp.handleInstallationEvent(event, payload);
      }
      if (REPOSITORY_EVENTS.has(event)) return repository.handle(ctx, event, payload);
      return { status: 'ignored', message: `event ${event} is not handled` };
    },
  };
};
