import type { Services } from '../../../services.js';
import type { WebhookAdapter, WebhookProvider } from '../types.js';
import { githubAdapter } from './github.js';
import { gitlabAdapter } from './gitlab.js';
import { bitbucketAdapter } from './bitbucket.js';
import { hostAppAdapter } from '../../hostapp/webhook-adapter.js';
import { paymentAdapter } from '../../billing/webhook-adapter.js';

/** Each webhook route's adapter. */
export function createWebhookAdapters(services: Services): Record<WebhookProvider, WebhookAdapter> {
  return {
    github: githubAdapter(services),
    gitlab: gitlabAdapter(services),
    bitbucket: bitbucketAdapter(services),
    hostapp: hostAppAdapter(services),
    payment: paymentAdapter(services),
  };
}
