import type { FastifyError } from 'fastify';
import { AppError, ERROR_STATUS } from '../errors.js';
import type { ErrorCode, FieldError } from '../errors.js';
import { validationError } from '../validation.js';
import type { ValidationItem } from '../validation.js';

/** The body of every error answer (decisions.md section 3). */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  message: string;
  details?: FieldError[];
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  /** True when the cause is ours (5xx) and must be logged. */
  internal: boolean;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** VALIDATION_ERROR always carries `details` (decisions.md 3): the whole body when no field is named. */
function body(code: ErrorCode, message: string, details?: FieldError[]): ErrorBody {
  const fields =
    details ?? (code === 'VALIDATION_ERROR' ? [{ field: 'body', message }] : undefined);
  return fields
    ? { error: code.toLowerCase(), code, message, details: fields }
    : { error: code.toLowerCase(), code, message };
}

/** The one place that turns any thrown error into a status and a contract error body. */
export function mapError(err: unknown): MappedError {
  if (err instanceof AppError) {
    // Unreachable storage is ours to look into: logged with its cause, though the body is plain.
    const internal = err.code === 'SERVICE_UNAVAILABLE';
    return { status: err.status, body: body(err.code, err.message, err.details), internal };
  }
  const fe = err as Partial<FastifyError> & { validation?: ValidationItem[] };
  if (Array.isArray(fe.validation)) {
    const invalid = validationError(fe.validation, fe.validationContext);
    return {
      status: 400,
      body: body(invalid.code, invalid.message, invalid.details),
      internal: false,
    };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  const code = CODE_BY_STATUS[status];
  if (code && status < 500) {
    const message =
      fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'Request body is too large'
        : fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'Request body is not valid JSON'
          : (fe.message ?? 'Bad request');
    return { status: ERROR_STATUS[code], body: body(code, message), internal: false };
  }
  return {
    status: 500,
    body: body('INTERNAL_ERROR', 'Internal server error'),
    internal: true,
  };
}
