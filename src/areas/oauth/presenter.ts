import type { ConnectionDto, StatusDto } from './schema.js';
import type { OAuthConnectionRow } from './store.js';
import type { OAuthProvider } from './providers.js';

/** Stored as a JSON array; an unreadable value shows as no scopes rather than failing. */
export function scopesOf(row: Pick<OAuthConnectionRow, 'scopes'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.scopes);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** A connection without its tokens: they never leave the service. */
export function presentConnection(row: OAuthConnectionRow): ConnectionDto {
  return {
    id: row.id,
    provider: row.provider,
    account_login: row.account_login,
    scopes: scopesOf(row),
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentStatus(
  provider: OAuthProvider,
  configured: boolean,
  row: OAuthConnectionRow | undefined,
): StatusDto {
  return {
    provider,
    configured,
    connected: row !== undefined,
    account_login: row?.account_login ?? null,
    scopes: row ? scopesOf(row) : [],
    expires_at: row?.expires_at ?? null,
    connected_at: row?.created_at ?? null,
  };
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The page the browser lands on after the host redirected it to the callback. */
export function connectedPage(label: string, login: string | null, hostUrl: string): string {
  const who = login ? ` as ${escapeHtml(login)}` : '';
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>Packyard: connected to ${escapeHtml(label)}</title></head>`,
    '<body>',
    `<h1>Connected to ${escapeHtml(label)}${who}</h1>`,
    `<p>Packyard now syncs private repositories on ${escapeHtml(hostUrl)} with this connection.`,
    ' You can close this window.</p>',
    '</body></html>',
    '',
  ].join('\n');
}
