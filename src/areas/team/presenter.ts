import type { AdminLevel } from '../../context.js';
import type { TeamTokenDto } from './schema.js';
import type { TeamTokenView } from './store.js';

export function presentTeamToken(row: TeamTokenView): TeamTokenDto {
  return {
    id: row.id,
    name: row.name,
    level: row.level as AdminLevel,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}
