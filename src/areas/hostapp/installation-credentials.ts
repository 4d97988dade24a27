import type { Deps } from '../../context.js';
import type { GitCredentials } from '../../infra/git/index.js';
import type { GitHubAppClient } from './github-api.js';
import * as store from './store.js';

/**
 * Credentials for cloning `url`: an installation token when the URL is a repository on the
 * configured GitHub, owned by the account of an active installation this tenant claimed that
 * covers it. Otherwise null, and the next source (OAuth connections) is asked.
 */
export async function installationCredentials(
  deps: Deps,
  api: () => GitHubAppClient,
  tenantId: string,
  url: string,
): Promise<GitCredentials | null> {
  const repo = repositoryOf(deps, url);
  if (!repo) return null;
  const rows = await store.activeClaimed(deps.db, tenantId);
  const fullName = `${repo.owner}/${repo.name}`.toLowerCase();
  const row = rows.find(
    (r) =>
      r.account_login.toLowerCase() === repo.owner.toLowerCase() &&
      (r.repository_selection === 'all' ||
        store.repositoriesOf(r).some((n) => n.toLowerCase() === fullName)),
  );
  if (!row) return null;
  try {
    const token = await api().installationToken(row.host_installation_id);
    return { username: 'x-access-token', password: token };
  } catch (err) {
    // GitHub refused or is down: let the next source (or an anonymous clone) try.
    deps.log.warn(
      { err, tenant: tenantId, installation: row.host_installation_id, repository: fullName },
      'GitHub App installation token could not be minted',
    );
    return null;
  }
}

/** owner/name of an http(s) URL on the configured GitHub, or null. */
function repositoryOf(deps: Deps, url: string): { owner: string; name: string } | null {
  let parsed: URL;
  let origin: string;
  try {
    parsed = new URL(url);
    origin = new URL(deps.config.github.url).origin;
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.origin !== origin) return null;
  const match = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(parsed.pathname);
  if (!match?.[1] || !match[2]) return null;
  return { owner: decodeURIComponent(match[1]), name: decodeURIComponent(match[2]) };
}
