import type { GitCredentials } from '../../infra/git/index.js';

/** Something that can lend credentials for a repository: the GitHub App, an OAuth connection. */
export interface CredentialSource {
  /** Credentials for fetching `url` on behalf of `tenantId`, or null when this source has none. */
  forRepository(tenantId: string, url: string): Promise<GitCredentials | null>;
}

/**
 * The credentials a sync uses for a repository: the first registered source that has some wins
 * (the GitHub App before OAuth connections). Public repositories need none.
 */
export class RepositoryCredentials {
  private readonly sources: CredentialSource[] = [];

  register(source: CredentialSource): void {
    this.sources.push(source);
  }

  async resolve(tenantId: string, url: string): Promise<GitCredentials | null> {
    for (const source of this.sources) {
      const found = await source.forRepository(tenantId, url);
      if (found) return found;
    }
    return null;
  }
}
