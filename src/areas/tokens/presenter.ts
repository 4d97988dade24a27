import type { IssuedTokenDto, TokenDto, TokenScope } from './schema.js';
import type { IssuedToken } from './service.js';
import type { TokenRow } from './store.js';

export function presentToken(row: TokenRow): TokenDto {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as TokenScope,
    package_scopes: JSON.parse(row.package_scopes) as string[],
    expires_at: row.expires_at,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

/** The one answer that carries the plain value, with ready-to-paste Composer credentials. */
export function presentIssued(issued: IssuedToken, baseUrl: string): IssuedTokenDto {
  return {
    token: presentToken(issued.row),
    plain_token: issued.plain,
    composer_auth: { username: 'token', password: issued.plain, repository_url: baseUrl },
  };
}
