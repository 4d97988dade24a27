import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorResponses, ListOf, pageOf, paging } from '../../http/schemas.js';
import { requireFeature } from '../../editions.js';
import { AuditEntrySchema, AuditQuery } from './schema.js';
import { presentAuditEntry } from './service.js';

export async function auditRoutes(app: App): Promise<void> {
  app.get(
    '/audit',
    {
      preHandler: requireFeature('audit_log'),
      schema: {
        tags: ['audit'],
        querystring: AuditQuery,
        response: { 200: ListOf(AuditEntrySchema), ...ErrorResponses },
      },
    },
    async (req) => {
      const { page, perPage, offset } = paging(req.query);
      const { rows, total } = await app.services.audit.list(ctxOf(req), req.query, {
        offset,
        limit: perPage,
      });
      return pageOf(rows.map(presentAuditEntry), total, page, perPage);
    },
  );
}
