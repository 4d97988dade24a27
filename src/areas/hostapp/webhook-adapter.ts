import type { WebhookAdapterFactory } from '../webhooks/types.js';
import { header } from '../webhooks/types.js';
import { verifyHubSignature } from '../webhooks/signatures.js';
import { handleGitHubEvent } from '../webhooks/adapters/github.js';
import type { PushDeps } from '../webhooks/push.js';
import type { HostAppService } from './service.js';

/** The GitHub App's route acts on installations, and on pushes as the github route does. */
export interface HostAppWebhookDeps extends PushDeps {
  hostApp: Pick<HostAppService, 'handleInstallationEvent'>;
}

/**
 * The GitHub App's webhook: GitHub's signing; installation and installation_repositories keep the
 * installation list current; every other event is answered exactly as the github route answers
 * it (ping → pong, push/create/delete/release sync matching packages, the rest is ignored).
 */
export const hostAppAdapter: WebhookAdapterFactory<HostAppWebhookDeps> = (deps) => ({
  verify: (body, headers, secret) =>
    verifyHubSignature(body, header(headers, 'x-hub-signature-256'), secret),
  eventOf: (headers) => header(headers, 'x-github-event') ?? 'unknown',
  deliveryIdOf: (headers) => header(headers, 'x-github-delivery'),
  handle: async (ctx, event, payload) => {
    if (event === 'installation' || event === 'installation_repositories') {
      return deps.hostApp.handleInstallationEvent(ctx, event, payload);
    }
    return handleGitHubEvent(deps, ctx, event, payload);
  },
});
