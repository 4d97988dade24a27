import type { Ctx, Deps } from '../../context.js';
import { nowIso } from '../../context.js';
import { notFound } from '../../errors.js';
import { digest, generateSecret, newId } from '../../infra/crypto.js';
import { TEAM_TOKEN_PREFIX } from '../auth/service.js';
import type { CreateTeamTokenInput } from './schema.js';
import * as store from './store.js';
import type { TeamTokenRow } from './store.js';
import { transact } from '../../unit-of-work.js';

/**
 * CMA tokens (`cma_…`) for the team. Any admin level may list them (no secrets are listed); only
 * owners create and revoke (the routes enforce it).
 */
export class TeamService {
  constructor(private readonly deps: Deps) {}

  async list(ctx: Ctx, page: { offset: number; limit: number }) {
    return store.listTeamTokens(this.deps.db, ctx.tenantId, page);
  }

  async create(
    ctx: Ctx,
    input: CreateTeamTokenInput,
  ): Promise<{ row: TeamTokenRow; plain: string }> {
    const plain = generateSecret(TEAM_TOKEN_PREFIX);
    const row: TeamTokenRow = {
      id: newId(),
      tenant_id: ctx.tenantId,
      name: input.name,
      level: input.level,
      token_digest: digest(plain),
      created_at: nowIso(),
      last_used_at: null,
    };
    await transact(this.deps, ctx, async ({ db: trx, audit }) => {
      await store.insertTeamToken(trx, row);
      await audit({
        action: 'team_token.create',
        target: { type: 'team_token', id: row.id },
        summary: { name: row.name, level: row.level },
      });
    });
    return { row, plain };
  }

  async revoke(ctx: Ctx, id: string): Promise<void> {
    await transact(this.deps, ctx, async ({ db: trx, audit }) => {
      if (!(await store.deleteTeamToken(trx, ctx.tenantId, id))) throw notFound('Team token');
      await audit({
        action: 'team_token.revoke',
        target: { type: 'team_token', id },
      });
    });
  }
}
