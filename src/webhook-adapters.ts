import type { WebhookAdapter, WebhookProvider } from './areas/webhooks/types.js';
import { githubAdapter } from './areas/webhooks/adapters/github.js';
import { gitlabAdapter } from './areas/webhooks/adapters/gitlab.js';
import { bitbucketAdapter } from './areas/webhooks/adapters/bitbucket.js';
import { hostAppAdapter } from './areas/hostapp/webhook-adapter.js';
import type { HostAppWebhookDeps } from './areas/hostapp/webhook-adapter.js';
import { paymentAdapter } from './areas/billing/webhook-adapter.js';
import type { BillingService } from './areas/billing/service.js';

/** The services the adapters act on, each handed only its own part. */
export interface WebhookAdapterDeps extends HostAppWebhookDeps {
  billing: Pick<BillingService, 'handleEvent' | 'parseEvent'>;
}

/**
 * Each webhook route's adapter. Assembled here, beside the services, because the adapters of
 * the GitHub App (hostapp) and of payments (billing) belong to their own areas: the webhooks
 * area only receives, verifies and dispatches (docs/architecture.md).
 */
export function createWebhookAdapters(
  deps: WebhookAdapterDeps,
): Record<WebhookProvider, WebhookAdapter> {
  const push = { db: deps.db, packages: deps.packages };
  return {
    github: githubAdapter(push),
    gitlab: gitlabAdapter(push),
    bitbucket: bitbucketAdapter(push),
    hostapp: hostAppAdapter({ ...push, hostApp: deps.hostApp }),
    payment: paymentAdapter(deps.billing),
  };
}
