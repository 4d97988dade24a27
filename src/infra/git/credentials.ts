/** A username/password pair for git over HTTPS (an OAuth or installation token as the password). */
export interface GitCredentials {
  username: string;
  password: string;
}

/**
 * Hands credentials to git as an Authorization header for the repository's origin only, through
 * GIT_CONFIG_* variables: the secret never appears on a command line (visible in `ps`) and is never
 * written into the mirror's config or remote URL.
 */
export function credentialEnv(
  url: string,
  credentials: GitCredentials | null | undefined,
): Record<string, string> {
  if (!credentials) return {};
  let origin: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return {};
    origin = parsed.origin;
  } catch {
    return {};
  }
  const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${origin}/.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

/**
 * The address a sync checked (BLOCK_PRIVATE_GIT_HOSTS), pinned for git's own connections so a
 * second DNS answer (rebinding) cannot send them elsewhere. HTTP(S) remotes only: curl takes it.
 */
export interface PinnedHost {
  host: string;
  port: number;
  address: string;
}

/**
 * Git configuration through GIT_CONFIG_* variables, so nothing lands on a command line or in
 * the mirror's config: the credentials header, and for a pinned host curl's resolve entry with
 * redirects off (a redirect would reach a host nobody checked).
 */
export function remoteConfigEnv(
  url: string,
  credentials: GitCredentials | null | undefined,
  pin: PinnedHost | null | undefined,
): Record<string, string> {
  const entries: [string, string][] = [];
  const auth = credentialEnv(url, credentials);
  if (auth.GIT_CONFIG_KEY_0 && auth.GIT_CONFIG_VALUE_0) {
    entries.push([auth.GIT_CONFIG_KEY_0, auth.GIT_CONFIG_VALUE_0]);
  }
  if (pin) {
    const address = pin.address.includes(':') ? `[${pin.address}]` : pin.address;
    entries.push(['http.curloptResolve', `${pin.host}:${pin.port}:${address}`]);
    entries.push(['http.followRedirects', 'false']);
  }
  const env: Record<string, string> = {};
  if (entries.length === 0) return env;
  env.GIT_CONFIG_COUNT = String(entries.length);
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}
