import { generateState } from 'arctic';
import type { Ctx, Deps } from '../../context.js';
import { featureNotAvailable, forbidden, invalid } from '../../errors.js';
import { digest } from '../../infra/crypto.js';
import { transact } from '../../unit-of-work.js';
import { assertSameBrowser } from '../oauth/browser-binding.js';
import * as states from '../oauth/states.js';
import { canonicalHostId } from './claim.js';
import type { GitHubAppClient } from './github-api.js';

/** The App's Setup URL: GitHub sends the browser here after an install or a configuration. */
export const SETUP_PATH = '/api/hostapp/setup';
/** Pending install links live in oauth_states under this flow name. */
const FLOW = 'hostapp';
export const LINK_TTL_MS = 10 * 60 * 1000;

/**
 * Proof that the claimer manages an installation: the one-time `code` GitHub hands the browser
 * when the App asks for user authorization during installation, exchanged for that user's token,
 * whose installations must include this one. Returns the GitHub login that proved it, or null
 * when no code was given outside Cloud (one registry per server: the admin's word is enough).
 * In Cloud, where registries are strangers, the proof is required: an installation id is easy
 * to learn, and claiming someone else's would hand their private repositories to a stranger.
 */
export async function proveManages(
  deps: Pick<Deps, 'config'>,
  api: () => GitHubAppClient,
  installationId: string | number,
  code: string | undefined,
): Promise<string | null> {
  if (code === undefined) {
    if (deps.config.edition !== 'cloud') return null;
    throw forbidden(
      'Claiming an installation needs proof that you manage it: open the link of ' +
        'POST /api/v1/hostapp/installations/claim-link, or pass the `code` GitHub gives when you ' +
        'authorize the App during installation',
    );
  }
  const app = deps.config.githubApp;
  if (!app.clientId || !app.clientSecret) {
    throw featureNotAvailable(
      'Proving an installation needs the App’s OAuth client: set GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET',
    );
  }
  const hostId = canonicalHostId(String(installationId));
  const user = await api().userInstallations(code);
  if (!user) {
    throw invalid('code', 'GitHub refused the code: it was used, has expired or is another App’s');
  }
  if (!user.installationIds.has(Number(hostId))) {
    throw forbidden(`The GitHub user ${user.login} does not manage installation ${hostId}`);
  }
  return user.login;
}

/**
 * `POST /hostapp/installations/claim-link`: the install link for this registry. GitHub carries
 * its `state` to the Setup URL with the user's code; the state names the registry and is bound
 * to the browser that asked (a cookie), valid for ten minutes, once.
 */
export async function createClaimLink(deps: Deps, ctx: Ctx, installUrl: string) {
  const app = deps.config.githubApp;
  if (!app.clientId || !app.clientSecret) {
    throw featureNotAvailable(
      'Claim links need the App’s OAuth client: set GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET',
    );
  }
  const state = generateState();
  const browserBinding = generateState();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
  await transact(deps, ctx, async ({ db }) => {
    await states.deleteExpiredStates(db, ctx.tenantId, now.toISOString());
    await states.insertState(db, {
      state,
      tenant_id: ctx.tenantId,
      provider: FLOW,
      code_verifier: null,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      browser_digest: digest(browserBinding),
    });
  });
  const url = new URL(installUrl);
  url.searchParams.set('state', state);
  return { url: url.toString(), state, expires_at: expiresAt, browserBinding };
}

/** The Setup URL's query, as GitHub sends it. */
export interface SetupQuery {
  installation_id?: string;
  setup_action?: string;
  code?: string;
  state?: string;
}

/** Where a Setup URL visit came from: the browser's binding cookie, and for the audit entry. */
export interface SetupOrigin {
  browserBinding: string | null;
  ip?: string;
  userAgent?: string | null;
}

/**
 * The context a Setup URL visit claims in: the registry (tenant) its state names, acting as the
 * system. Spends the state and checks the browser.
 */
export async function setupContext(
  deps: Deps,
  query: SetupQuery,
  origin: SetupOrigin,
): Promise<Ctx> {
  const browserBinding = origin.browserBinding;
  const restart = 'start again with POST /api/v1/hostapp/installations/claim-link';
  if (!query.state) throw invalid('state', `is required; ${restart}`);
  const pending = await states.takeState(deps.db, FLOW, query.state);
  if (!pending) throw invalid('state', `is unknown or was already used; ${restart}`);
  if (Date.parse(pending.expires_at) <= Date.now()) {
    throw invalid('state', `has expired (links last 10 minutes); ${restart}`);
  }
  assertSameBrowser(deps.config, pending.browser_digest, browserBinding, restart);
  if (!query.installation_id) throw invalid('installation_id', 'is required');
  if (!query.code) {
    throw invalid(
      'code',
      'is required: turn on "Request user authorization (OAuth) during installation" in the App’s settings',
    );
  }
  return {
    tenantId: pending.tenant_id,
    actor: { kind: 'system', id: null },
    ip: origin.ip,
    userAgent: origin.userAgent ?? null,
  };
}
