import type { Deps } from '../context.js';
import { AccessService } from './access/service.js';
import { accessRoutes } from './access/routes.js';
import { CollectionService } from './collections/service.js';
import { collectionRoutes } from './collections/routes.js';
import { TeamService } from './team/service.js';
import { teamRoutes } from './team/routes.js';
import { TokenService } from './tokens/service.js';
import { tokenRoutes } from './tokens/routes.js';

/** Route plugins of the token, team, access and collection areas, registered under /api/v1. */
export const areaRoutes = [tokenRoutes, teamRoutes, accessRoutes, collectionRoutes];

/** Their services, spread into Services by createServices. */
export function createAreaServices(deps: Deps) {
  return {
    tokens: new TokenService(deps),
    team: new TeamService(deps),
    access: new AccessService(deps),
    collections: new CollectionService(deps),
  };
}
