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
