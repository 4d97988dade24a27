/** The error catalogue: a stable code, its HTTP status, and nothing else. */
export const ERROR_STATUS = {
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
  FEATURE_NOT_AVAILABLE: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  /** Cloud: the Host names no tenant (no subdomain under BASE_DOMAIN). */
  TENANT_REQUIRED: 400,
  /** Cloud: no tenant has the Host's subdomain (or it was deleted). */
  TENANT_NOT_FOUND: 404,
  /** Cloud: the tenant of the Host is suspended; every route of its host refuses. */
  TENANT_SUSPENDED: 403,
  /** Cloud: the tenant's plan allows no more of this (packages, customers). */
  PLAN_LIMIT_REACHED: 403,
  /** Raised by the HTTP layer itself: the client took too long to send its request. */
  REQUEST_TIMEOUT: 408,
  /** Raised by the HTTP layer itself: a path parameter longer than any valid one. */
  URI_TOO_LONG: 414,
  /** Raised by the HTTP layer itself: request headers beyond the server's limit. */
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  /** A host we depend on (GitHub, GitLab) failed or refused us; the message says which and why. */
  UPSTREAM_ERROR: 502,
  /** Something we depend on inside the installation (archive storage) cannot be reached right now. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

/** An error whose code and message may be shown to the caller as they are. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const forbidden = (message = 'Insufficient permissions') =>
  new AppError('FORBIDDEN', message);
export const unauthorized = (message = 'Missing or invalid token') =>
  new AppError('UNAUTHORIZED', message);
export const featureNotAvailable = (message: string) =>
  new AppError('FEATURE_NOT_AVAILABLE', message);
export const upstreamError = (message: string) => new AppError('UPSTREAM_ERROR', message);
export const serviceUnavailable = (message: string) => new AppError('SERVICE_UNAVAILABLE', message);

/** A VALIDATION_ERROR about one field. */
export function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field}: ${message}`, [{ field, message }]);
}
