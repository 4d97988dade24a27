import type { Ok } from '../api/types';
import { createRestClient } from '../lib/rest-client';
import { createTokenStore } from '../lib/token-store';

// The customer portal's token lives in this tab's session storage only: never in a URL, gone
// with the tab, and apart from the admin UI's token.
export const portalToken = createTokenStore('packyard.portal-token');

/** Fired when the server says the stored token no longer works (401). */
export const SIGNED_OUT_EVENT = 'packyard:portal-signed-out';

/** The portal's REST client: the customer token as Bearer on every call. */
export const portalApi = createRestClient(portalToken, SIGNED_OUT_EVENT);

export type Me = Ok<'/api/v1/me', 'get'>;
export type PortalInfo = Ok<'/api/v1/portal', 'get'>;
export type MyPackages = Ok<'/api/v1/me/packages', 'get'>;
export type MyPackage = MyPackages['data'][number];
export type MyPackageDetail = Ok<'/api/v1/me/packages/{vendor}/{name}', 'get'>;
export type MyTokens = Ok<'/api/v1/me/tokens', 'get'>;
export type MyToken = MyTokens['data'][number];
export type CreatedToken = Ok<'/api/v1/me/tokens', 'post'>;
