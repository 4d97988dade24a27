import type { Config } from '../../config/index.js';

export const OAUTH_PROVIDERS = ['github', 'gitlab'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** The neutral path words of the service description (docs/oauth.md: provider A is GitHub, B is GitLab). */
const ALIASES: Record<string, OAuthProvider> = { 'provider-a': 'github', 'provider-b': 'gitlab' };

/** The provider a path word names (`github`, `gitlab`, `provider-a`, `provider-b`), or null. */
export function providerOf(word: string): OAuthProvider | null {
  const lower = word.toLowerCase();
  if ((OAUTH_PROVIDERS as readonly string[]).includes(lower)) return lower as OAuthProvider;
  return ALIASES[lower] ?? null;
}

/** The account the token belongs to, as the host's user API names it. */
export interface HostAccount {
  login: string;
  id: string | null;
}

/** Everything that differs between the two hosts; the flow itself is shared. */
export interface ProviderSpec {
  id: OAuthProvider;
  label: string;
  /** Where repositories, OAuth pages and (GitLab) the API live: GITHUB_URL / GITLAB_URL. */
  baseUrl: string;
  clientId: string | null;
  clientSecret: string | null;
  /** The settings to name when something is missing. */
  settingNames: { clientId: string; clientSecret: string };
  authorizeUrl: string;
  tokenUrl: string;
  userUrl: string;
  /** The smallest set that lets git clone private repositories over https and read the user. */
  scopes: string[];
  /** The username git sends with the token as password. */
  gitUsername: string;
  /** Extra headers of the user API request. */
  apiHeaders: Record<string, string>;
  /** Reads the account out of the user API's answer. */
  accountOf(body: Record<string, unknown>): HostAccount | null;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : null;

export function providerSpec(config: Readonly<Config>, id: OAuthProvider): ProviderSpec {
  if (id === 'github') {
    const { url, apiUrl, clientId, clientSecret } = config.github;
    return {
      id,
      label: 'GitHub',
      baseUrl: url,
      clientId,
      clientSecret,
      settingNames: { clientId: 'GITHUB_CLIENT_ID', clientSecret: 'GITHUB_CLIENT_SECRET' },
      authorizeUrl: `${url}/login/oauth/authorize`,
      tokenUrl: `${url}/login/oauth/access_token`,
      userUrl: `${apiUrl}/user`,
      // `repo` is the only OAuth-app scope that reaches private repositories; read:user reads the login.
      scopes: ['repo', 'read:user'],
      // GitHub takes any username with a token as password; this one is what its docs show.
      gitUsername: 'x-access-token',
      apiHeaders: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
      accountOf: (body) => {
        const login = text(body.login);
        return login ? { login, id: text(body.id) } : null;
      },
    };
  }
  const { url, clientId, clientSecret } = config.gitlab;
  return {
    id,
    label: 'GitLab',
    baseUrl: url,
    clientId,
    clientSecret,
    settingNames: { clientId: 'GITLAB_CLIENT_ID', clientSecret: 'GITLAB_CLIENT_SECRET' },
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    userUrl: `${url}/api/v4/user`,
    // read_repository: git over https on private projects; read_user: GET /api/v4/user.
    scopes: ['read_repository', 'read_user'],
    gitUsername: 'oauth2',
    apiHeaders: { accept: 'application/json' },
    accountOf: (body) => {
      const login = text(body.username);
      return login ? { login, id: text(body.id) } : null;
    },
  };
}

/** The origin (scheme, host, port) of a URL, or null when it is not http(s). */
export function httpOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The provider whose host serves `url` (same origin as GITHUB_URL or GITLAB_URL), if any. */
export function providerForUrl(config: Readonly<Config>, url: string): OAuthProvider | null {
  const origin = httpOrigin(url);
  if (origin === null) return null;
  for (const id of OAUTH_PROVIDERS) {
    if (httpOrigin(providerSpec(config, id).baseUrl) === origin) return id;
  }
  return null;
}
