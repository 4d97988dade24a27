import type { Ctx } from '../../../context.js';
import type { WebhookAdapterFactory, WebhookResult } from '../types.js';
import { header } from '../types.js';
import { verifyHubSignature } from '../signatures.js';
import { objectAt, requireUrls, stringsOf } from '../payload.js';
import { queueRepositorySyncs } from '../push.js';
import type { PushDeps } from '../push.js';

/** GitHub events that change tags, branches or releases: each syncs the repository's packages. */
export const GITHUB_SYNC_EVENTS: readonly string[] = ['push', 'create', 'delete', 'release'];

/** The URLs of a GitHub payload's `repository` (clone, ssh, web and git forms). */
export function githubRepositoryUrls(payload: unknown): string[] {
  return requireUrls(
    stringsOf(objectAt(payload, 'repository'), ['clone_url', 'ssh_url', 'html_url', 'git_url']),
    'repository',
  );
}

/**
 * What GitHub's repository events do, for the github route and the GitHub App's route alike:
 * push/create/delete/release queue the matching packages' syncs, ping answers pong, the rest is
 * ignored (and recorded).
 */
export async function handleGitHubEvent(
  deps: PushDeps,
  ctx: Ctx,
  event: string,
  payload: unknown,
): Promise<WebhookResult> {
  if (event === 'ping') return { status: 'processed', message: 'pong' };
  if (!GITHUB_SYNC_EVENTS.includes(event)) {
    return { status: 'ignored', message: `event ${event} is not handled` };
  }
  return queueRepositorySyncs(deps, ctx, githubRepositoryUrls(payload));
}

/** GitHub repository webhooks: X-Hub-Signature-256, X-GitHub-Event, X-GitHub-Delivery. */
export const githubAdapter: WebhookAdapterFactory<PushDeps> = (deps) => ({
  verify: (body, headers, secret) =>
    verifyHubSignature(body, header(headers, 'x-hub-signature-256'), secret),
  eventOf: (headers) => header(headers, 'x-github-event') ?? 'unknown',
  deliveryIdOf: (headers) => header(headers, 'x-github-delivery'),
  handle: (ctx, event, payload) => handleGitHubEvent(deps, ctx, event, payload),
});
