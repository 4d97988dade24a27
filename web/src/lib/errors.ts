export interface FieldError {
  field: string;
  message?: string;
}

/** An error answer of the admin API (docs/api.md), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static from(status: number, body: unknown): ApiError {
    if (body && typeof body === 'object') {
      const b = body as { code?: unknown; message?: unknown; details?: unknown };
      const details = Array.isArray(b.details)
        ? (b.details as unknown[]).filter(
            (d): d is FieldError =>
              !!d && typeof d === 'object' && typeof (d as FieldError).field === 'string',
          )
        : [];
      return new ApiError(
        status,
        typeof b.code === 'string' ? b.code : `HTTP_${status}`,
        typeof b.message === 'string' ? b.message : `The server answered ${status}`,
        details,
      );
    }
    return new ApiError(status, `HTTP_${status}`, `The server answered ${status}`);
  }

  static network(cause: unknown): ApiError {
    const err = new ApiError(0, 'NETWORK', 'The server could not be reached');
    err.cause = cause;
    return err;
  }
}

const LEADS: Record<string, string> = {
  VALIDATION_ERROR: 'Please check the form',
  UNAUTHORIZED: 'Your session has ended; sign in again',
  FORBIDDEN: 'Not allowed',
  FEATURE_NOT_AVAILABLE: 'Not available in this edition',
  NOT_FOUND: 'Not found',
  CONFLICT: 'That conflicts with the current state',
  PAYLOAD_TOO_LARGE: 'Too large',
  RATE_LIMITED: 'Too many requests; try again later',
  UPSTREAM_ERROR: 'A host Packyard talks to failed',
  INTERNAL_ERROR: 'Something went wrong on the server',
  NETWORK: 'The server could not be reached',
};

/** An error in words for the person who caused it, shown next to the form. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) {
    const lead = LEADS[err.code] ?? `The server answered ${err.status}`;
    if (err.code === 'NETWORK') return `${lead}. Check your connection and try again.`;
    if (err.details.length > 0) {
      const parts = err.details.map((d) => `${d.field}: ${d.message ?? 'invalid'}`);
      return `${lead}: ${parts.join('; ')}.`;
    }
    const message = err.message.replace(/\.$/, '');
    return message && message !== lead ? `${lead}: ${message}.` : `${lead}.`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Whether the API answered that what was asked for is not there (404). */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** Whether the edition lacks the feature (403 FEATURE_NOT_AVAILABLE). */
export function isFeatureMissing(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'FEATURE_NOT_AVAILABLE';
}

/** What a VALIDATION_ERROR says about one field of the form, if anything. */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const found = err.details.filter((d) => d.field === field);
  return found.length > 0 ? found.map((d) => d.message ?? 'is not valid').join('; ') : undefined;
}
