import createClient from 'openapi-fetch';
import type { paths } from '../api/openapi';
import type { Ok } from '../api/types';

// The customer portal's token lives in this tab's session storage only: never in a URL, gone
// with the tab, and apart from the admin UI's token.
const KEY = 'packyard.portal-token';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
}

/** Fired when the server says the stored token no longer works (401). */
export const SIGNED_OUT_EVENT = 'packyard:portal-signed-out';

/** The portal's REST client: the customer token as Bearer on every call. */
export const portalApi = createClient<paths>({ baseUrl: '' });

portalApi.use({
  onRequest({ request }) {
    const token = readToken();
    if (token && !request.headers.has('authorization')) {
      request.headers.set('authorization', `Bearer ${token}`);
    }
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && readToken()) {
      clearToken();
      window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    }
    return response;
  },
});

export type Me = Ok<'/api/v1/me', 'get'>;
export type PortalInfo = Ok<'/api/v1/portal', 'get'>;
export type MyPackages = Ok<'/api/v1/me/packages', 'get'>;
export type MyPackage = MyPackages['data'][number];
export type MyPackageDetail = Ok<'/api/v1/me/packages/{vendor}/{name}', 'get'>;
export type MyTokens = Ok<'/api/v1/me/tokens', 'get'>;
export type MyToken = MyTokens['data'][number];
export type CreatedToken = Ok<'/api/v1/me/tokens', 'post'>;
