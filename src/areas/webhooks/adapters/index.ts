import type { WebhookAdapter, WebhookProvider } from '../types.js';
import { githubAdapter } from './github.js';
import { gitlabAdapter } from './gitlab.js';
import { bitbucketAdapter } from './bitbucket.js';
import { hostAppAdapter } from '../../hostapp/webhook-adapter.js';
import type { HostAppWebhookDeps } from '../../hostapp/webhook-adapter.js';
import { paymentAdapter } from '../../billing/webhook-adapter.js';
import type { BillingService } from '../../billing/service.js';

/** The services the adapters act on, each handed only its own part. */
export interface WebhookAdapterDeps extends HostAppWebhookDeps {
  billing: Pick<BillingService, 'handleEvent' | 'parseEvent'>;
}

/** Each webhook route's adapter. */
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
