import type { WebhookAdapterFactory } from '../types.js';
import type { PushDeps } from '../push.js';
import { header } from '../types.js';
import { verifySharedToken } from '../signatures.js';
import { objectAt, objectOrNull, requireUrls, stringsOf } from '../payload.js';
import { queueRepositorySyncs } from '../push.js';

/** GitLab events that change branches or tags. */
export const GITLAB_SYNC_EVENTS: readonly string[] = ['Push Hook', 'Tag Push Hook'];

/** The URLs of a GitLab push payload: `project` (current) and `repository` (older fields). */
export function gitlabRepositoryUrls(payload: unknown): string[] {
  const project = objectAt(payload, 'project');
  const repository = objectAt(payload, 'repository');
  return requireUrls(
    [
      ...stringsOf(project, ['git_http_url', 'git_ssh_url', 'web_url', 'http_url', 'ssh_url']),
      ...stringsOf(repository, ['git_http_url', 'git_ssh_url', 'url', 'homepage']),
    ],
    objectOrNull(payload)?.project === undefined ? 'repository' : 'project',
  );
}

/** GitLab project webhooks: X-Gitlab-Token, X-Gitlab-Event, X-Gitlab-Event-UUID. */
export const gitlabAdapter: WebhookAdapterFactory<PushDeps> = (deps) => ({
  verify: (_body, headers, secret) => verifySharedToken(header(headers, 'x-gitlab-token'), secret),
  eventOf: (headers) => header(headers, 'x-gitlab-event') ?? 'unknown',
  deliveryIdOf: (headers) => header(headers, 'x-gitlab-event-uuid'),
  handle: async (ctx, event, payload) => {
    if (!GITLAB_SYNC_EVENTS.includes(event)) {
      return { status: 'ignored', message: `event ${event} is not handled` };
    }
    return queueRepositorySyncs(deps, ctx, gitlabRepositoryUrls(payload));
  },
});
