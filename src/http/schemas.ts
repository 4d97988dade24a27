import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { invalid } from '../errors.js';

/** Schemas shared by every area: error bodies, list envelopes, common parameters. */
export const IsoDateTime = Type.String({ format: 'date-time' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBodySchema = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'Error' },
);

/** The error answers every admin route documents (the body of docs/api.md). */
export const ErrorResponses = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};

export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

export const ListOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: PaginationSchema });

/** Highest page number accepted: beyond it offsets outgrow what databases take (1e20 was a 500). */
export const MAX_PAGE = 1_000_000;

/** The `page` query parameter of every list. */
export const PageNumber = Type.Integer({ minimum: 1, maximum: MAX_PAGE });

export const PageQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const PackageParams = Type.Object({
  vendor: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
});

export interface Page<T> {
  data: T[];
  pagination: { page: number; per_page: number; total: number; total_pages: number };
}

export function pageOf<T>(data: T[], total: number, page: number, perPage: number): Page<T> {
  return {
    data,
    pagination: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
  };
}

/** page/per_page with the defaults of docs/api.md. */
export function paging(query: { page?: number; per_page?: number }) {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 25;
  if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE) {
    throw invalid('page', `must be a whole number from 1 to ${MAX_PAGE}`);
  }
  return { page, perPage, offset: (page - 1) * perPage };
}
