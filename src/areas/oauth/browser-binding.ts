import type { Config } from '../../config/index.js';
import { invalid } from '../../errors.js';
import { constantTimeEqual, digest } from '../../infra/crypto.js';

/**
 * A flow that leaves for a git host and comes back in a browser (an OAuth authorization, a GitHub
 * App installation) is bound to the browser that started it: `initiate` keeps a random value in
 * an HttpOnly cookie and its digest with the state; the return must carry the same value.
 */
export const bindingCookieName = (flow: string) => `packyard_oauth_${flow}`;

/**
 * Only the return path reads the cookie; HttpOnly; Lax, so the host's top-level redirect back
 * carries it; in Cloud on the base domain, because the return URL is the platform's while the
 * flow starts on a tenant's host.
 */
export function bindingCookieOptions(
  config: Readonly<Config>,
  path: string,
  maxAgeSeconds: number,
) {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.baseUrl.startsWith('https:'),
    maxAge: maxAgeSeconds,
    ...(config.edition === 'cloud' && config.baseDomain ? { domain: config.baseDomain } : {}),
  };
}

/**
 * The return must come from the browser that started the flow. Without that, an admin could send
 * the link to someone who already authorized the application, and the host (skipping its
 * consent screen) would hand that person's grant to the admin's registry. Cloud, where
 * registries' admins are strangers to each other, requires the cookie; elsewhere a missing
 * cookie (an API client that opened the URL in a browser) is accepted, and a different one
 * refused.
 */
export function assertSameBrowser(
  config: Readonly<Config>,
  expectedDigest: string | null,
  binding: string | null,
  restart: string,
): void {
  if (expectedDigest === null) return;
  if (binding === null && config.edition !== 'cloud') return;
  if (binding === null || !constantTimeEqual(digest(binding), expectedDigest)) {
    throw invalid(
      'state',
      `was issued to another browser session: finish in the browser that started it; ${restart}`,
    );
  }
}
