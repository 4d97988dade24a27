import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ErrorBodySchema } from '../../http/schemas.js';

export const SessionSchema = Type.Object({
  kind: Type.Union([Type.Literal('root'), Type.Literal('cma')]),
  level: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('viewer')]),
  /** The team token's id (null for the root ADMIN_TOKEN). */
  token_id: Type.Union([Type.String(), Type.Null()]),
});

/** GET /session: who the bearer token is, so a client (the admin UI) can show what it may do. */
export async function sessionRoutes(app: App): Promise<void> {
  app.get(
    '/session',
    {
      schema: {
        tags: ['session'],
        summary: 'The calling admin token: root or team (CMA), and its level',
        response: { 200: SessionSchema, 401: ErrorBodySchema, 403: ErrorBodySchema },
      },
    },
    async (req) => {
      const actor = req.actor;
      if (actor.kind === 'root')
        return { kind: 'root' as const, level: 'owner' as const, token_id: null };
      if (actor.kind === 'cma')
        return { kind: 'cma' as const, level: actor.level, token_id: actor.id };
      // Customer tokens never reach here (403 in authentication); nothing else has a session.
      throw new Error(`unexpected actor ${actor.kind}`);
    },
  );
}
