import { pageOf } from '../../infra/db/page.js';
import type { Selectable } from 'kysely';
import type { Db } from '../../infra/db/connection.js';
import { forTenant } from '../../infra/db/tenant-scope.js';
import type { TeamTokensTable } from '../../infra/db/schema.js';

export type TeamTokenRow = Selectable<TeamTokensTable>;

/** What a list shows of a team token: never its digest (nor, of course, its value). */
export type TeamTokenView = Omit<TeamTokenRow, 'tenant_id' | 'token_digest'>;

export async function listTeamTokens(
  db: Db,
  tenantId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: TeamTokenView[]; total: number }> {
  const base = db.selectFrom('team_tokens').where('tenant_id', '=', tenantId);
  return pageOf(
    base,
    (qb) =>
      qb
        .select(['id', 'name', 'level', 'created_at', 'last_used_at'])
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc'),
    page,
  );
}

export async function insertTeamToken(db: Db, row: TeamTokenRow): Promise<void> {
  await db.insertInto('team_tokens').values(row).execute();
}

export async function deleteTeamToken(db: Db, tenantId: string, id: string): Promise<boolean> {
  const result = await forTenant(db, tenantId)
    .deleteFrom('team_tokens')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
