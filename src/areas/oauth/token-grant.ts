import {
  ArcticFetchError,
  OAuth2RequestError,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from 'arctic';
import type { OAuth2Tokens } from 'arctic';
import { AppError } from '../../errors.js';
import type { OAuthConnectionRow } from './store.js';

/** A token this close to its expiry is refreshed before it is lent to git. */
export const REFRESH_MARGIN_MS = 60 * 1000;

/** What a token endpoint granted, read from its answer. */
export interface Grant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
  /** null when the host did not say (keep what was asked for or stored). */
  scopes: string[] | null;
}

/** The host answered the token request with an OAuth error, or not at all as expected. */
export class HostError extends Error {}

/** The token endpoint did not answer in time. */
class TokenTimeout extends Error {}

/**
 * Runs a token request of arctic with a deadline: arctic takes no AbortSignal, so a host that
 * accepts the connection and never answers would otherwise hold the callback (or a sync) forever.
 */
export async function withDeadline(
  request: Promise<OAuth2Tokens>,
  timeoutMs: number,
): Promise<Grant> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TokenTimeout(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    return grantOf(await Promise.race([request, deadline]));
  } finally {
    clearTimeout(timer);
  }
}

/** Binds each ciphertext to its row and kind: a value copied elsewhere does not decrypt. */
export function tokenContext(connectionId: string, kind: 'access' | 'refresh'): string {
  return `oauth_connections:${connectionId}:${kind}_token`;
}

export function expiresSoon(row: Pick<OAuthConnectionRow, 'expires_at'>): boolean {
  return row.expires_at !== null && Date.parse(row.expires_at) - Date.now() < REFRESH_MARGIN_MS;
}

/** True when the host refused (as opposed to failing or not answering). */
export function isRefusal(err: unknown): boolean {
  return err instanceof HostError || err instanceof OAuth2RequestError;
}

/**
 * Reads a token endpoint's answer. GitHub answers refusals with HTTP 200 and an `error` field,
 * so that is checked here too; GitHub separates scopes with commas, GitLab with spaces.
 */
function grantOf(tokens: OAuth2Tokens): Grant {
  const data = tokens.data as Record<string, unknown>;
  if (typeof data.error === 'string') {
    const why = typeof data.error_description === 'string' ? ` (${data.error_description})` : '';
    throw new HostError(`${data.error}${why}`);
  }
  if (typeof data.access_token !== 'string' || data.access_token === '') {
    throw new HostError('the answer holds no access_token');
  }
  const expiresIn = Number(data.expires_in);
  const hasExpiry = data.expires_in !== undefined && data.expires_in !== null && expiresIn > 0;
  return {
    accessToken: data.access_token,
    refreshToken:
      typeof data.refresh_token === 'string' && data.refresh_token !== ''
        ? data.refresh_token
        : null,
    expiresAt: hasExpiry ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
    scopes:
      typeof data.scope === 'string' ? data.scope.split(/[\s,]+/).filter((s) => s !== '') : null,
  };
}

/** Why a token request failed, in words fit for an admin (never containing a token). */
export function reasonOf(err: unknown): string {
  if (err instanceof HostError) return err.message;
  if (err instanceof TokenTimeout) return `the token endpoint gave ${err.message}`;
  if (err instanceof OAuth2RequestError) {
    return err.description ? `${err.code} (${err.description})` : err.code;
  }
  if (err instanceof ArcticFetchError) {
    const cause = err.cause instanceof Error ? err.cause.message : 'network error';
    return `the token endpoint could not be reached (${cause})`;
  }
  if (err instanceof UnexpectedErrorResponseBodyError || err instanceof UnexpectedResponseError) {
    return `the token endpoint answered HTTP ${err.status}`;
  }
  if (err instanceof AppError) return err.message;
  return 'unexpected answer from the token endpoint';
}
