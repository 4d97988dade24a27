import type { WebhookAdapterFactory } from '../types.js';
import type { PushDeps } from '../push.js';
import { header } from '../types.js';
import { verifyHubSignature } from '../signatures.js';
import { objectAt, objectOrNull, requireUrls, stringsOf } from '../payload.js';
import { queueRepositorySyncs } from '../push.js';

/** The URLs of a Bitbucket payload's repository: `links.html.href`, and clone links if sent. */
export function bitbucketRepositoryUrls(payload: unknown): string[] {
  const links = objectAt(payload, 'repository', 'links');
  const clone = Array.isArray(links?.clone) ? links.clone : [];
  return requireUrls(
    [
      ...stringsOf(objectAt(links, 'html'), ['href']),
      ...clone.flatMap((link) => stringsOf(objectOrNull(link), ['href'])),
    ],
    'repository',
  );
}

/** Bitbucket Cloud webhooks: X-Hub-Signature, X-Event-Key, X-Request-UUID. */
export const bitbucketAdapter: WebhookAdapterFactory<PushDeps> = (deps) => ({
  verify: (body, headers, secret) =>
    verifyHubSignature(body, header(headers, 'x-hub-signature'), secret),
  eventOf: (headers) => header(headers, 'x-event-key') ?? 'unknown',
  // X-Request-UUID names one delivery; X-Hook-UUID names the webhook (the same on every push), so
  // it must not be used to ignore replays.
  deliveryIdOf: (headers) => header(headers, 'x-request-uuid'),
  handle: async (ctx, event, payload) => {
    if (event !== 'repo:push')
      return { status: 'ignored', message: `event ${event} is not handled` };
    return queueRepositorySyncs(deps, ctx, bitbucketRepositoryUrls(payload));
  },
});
