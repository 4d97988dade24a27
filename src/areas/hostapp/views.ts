import type { GitHubRepository } from './github-api.js';

/** What `status` tells about the App's configuration. */
export interface HostAppStatus {
  configured: boolean;
  appId: string | null;
  appSlug: string | null;
  installUrl: string | null;
}

export interface RepositoryView {
  repo: GitHubRepository;
  /** The package of this tenant using the repository, or null. */
  package: string | null;
}
