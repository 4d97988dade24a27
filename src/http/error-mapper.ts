import type { FastifyError } from 'fastify';
import { AppError, ERROR_STATUS } from '../errors.js';
import type { ErrorCode, FieldError } from '../errors.js';
import { validationError } from '../validation.js';
import type { ValidationItem } from '../validation.js';

/** The body of every error answer (docs/api.md). */
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
  408: 'REQUEST_TIMEOUT',
  414: 'URI_TOO_LONG',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
};

/** Texts for the errors the HTTP layer raises, instead of Fastify's own (which echo input). */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL is not valid (bad percent-encoding)',
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment of the URL is too long',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_ASYNC_CONSTRAINT: 'The request could not be routed',
};

/** VALIDATION_ERROR always carries `details` (docs/api.md): the whole body when no field is named. */
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
  if (status >= 400 && status < 500) {
    // A 4xx outside the catalogue (Fastify or a plugin) is still the client's fault.
    const code = CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR';
    const message =
      (fe.code && FRAMEWORK_MESSAGES[fe.code]) ||
      (err instanceof SyntaxError ? 'Request body is not valid JSON' : null) ||
      (fe.message ?? 'Bad request');
    const details = fe.code === 'FST_ERR_BAD_URL' ? [{ field: 'url', message }] : undefined;
    return { status: ERROR_STATUS[code], body: body(code, message, details), internal: false };
  }
  return {
    status: 500,
    body: body('INTERNAL_ERROR', 'Internal server error'),
    internal: true,
  };
}

/** The answer to a malformed request Node's HTTP parser refused before Fastify saw it. */
export function clientErrorResponse(err: { code?: string }): string {
  const [status, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT' as const, 'The request was not received in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE' as const, 'Request headers are too large']
        : [400, 'VALIDATION_ERROR' as const, 'Malformed HTTP request'];
  const json = JSON.stringify(body(code, message));
  const reason =
    status === 408
      ? 'Request Timeout'
      : status === 431
        ? 'Request Header Fields Too Large'
        : 'Bad Request';
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
    `Content-Type: application/json\r\nConnection: close\r\n\r\n${json}`
  );
}
