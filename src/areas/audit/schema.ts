import { Type } from 'typebox';
import type { Static } from 'typebox';
import { IsoDateTime, Nullable, PageNumber } from '../../http/schemas.js';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String(),
    actor: Type.Object({ kind: Type.String(), id: Nullable(Type.String()) }),
    action: Type.String(),
    target: Type.Object({ type: Type.String(), id: Type.String() }),
    summary: Type.Record(Type.String(), Type.Unknown()),
    ip: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
    created_at: IsoDateTime,
  },
  { $id: 'AuditEntry' },
);
export type AuditEntryDto = Static<typeof AuditEntrySchema>;

export const AuditQuery = Type.Object(
  {
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    from: Type.Optional(IsoDateTime),
    to: Type.Optional(IsoDateTime),
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export type AuditFilter = Static<typeof AuditQuery>;
