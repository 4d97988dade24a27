import type { App } from '../../http/app-types.js';
import { originOf } from '../tenants/hook.js';
import { customerCredentials } from './credentials.js';
import { ChangeLog, SINCE_RE, nowTimestamp } from './change-log.js';

export const CHANGES_PATH = '/metadata/changes.json';

/** The URL packages.json gives as `metadata-changes-url`: absolute, as every URL a mirror reads. */
export const changesUrl = (origin: string): string => `${origin}${CHANGES_PATH}`;

/**
 * `GET /metadata/changes.json?since=<10,000 × unix time>` (docs/composer.md, "Change log"),
 * authenticated like every Composer route. A missing or malformed `since` is a 400 with the
 * contract's error body and, as packagist.org answers, the `timestamp` to start from.
 */
export async function changeLogRoutes(app: App): Promise<void> {
  const { composer, deps } = app.services;
  // Older events are gone (EVENT_RETENTION_DAYS, docs/webhooks-outgoing.md).
  const log = new ChangeLog(
    deps,
    (principal) => composer.availablePackages(principal),
    deps.config.eventRetentionDays,
  );
  app.get(CHANGES_PATH, { schema: { hide: true } }, async (req, reply) => {
    const principal = await composer.authenticate(
      req.tenantId,
      customerCredentials(req.headers.authorization),
    );
    const raw = (req.query as Record<string, unknown>).since;
    reply.header('cache-control', 'no-store');
    if (typeof raw !== 'string' || !SINCE_RE.test(raw)) {
      const timestamp = nowTimestamp();
      const example = `${changesUrl(originOf(req, deps.config.baseUrl))}?since=${timestamp}`;
      const message =
        'Invalid or missing "since" query parameter: store the timestamp of the point you ' +
        `started mirroring at and send it to receive the changes after it, e.g. ${example}`;
      return reply.code(400).send({
        error: 'validation_error',
        code: 'VALIDATION_ERROR',
        message,
        details: [{ field: 'since', message: 'must be 10,000 × a unix time, a whole number' }],
        timestamp,
      });
    }
    return log.changes(principal, Number(raw));
  });
}
