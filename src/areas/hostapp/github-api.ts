import crypto from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { request as octokitRequest } from '@octokit/request';
import type { AppError } from '../../errors.js';
import { upstreamError } from '../../errors.js';

/** What GET /app/installations/{id} tells about an installation. */
export interface GitHubInstallation {
  id: number;
  account: { login: string; type: string } | null;
  repository_selection: string;
  suspended_at: string | null;
}

/** One repository of GET /installation/repositories. */
export interface GitHubRepository {
  full_name: string;
  clone_url: string;
  html_url: string;
  private: boolean;
  default_branch: string | null;
}

export interface GitHubAppSettings {
  appId: string;
  privateKey: string;
  /** REST base URL: https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server. */
  apiUrl: string;
  /** A call not answered within this is abandoned (HOST_API_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** The App's OAuth client, for user authorization codes (proof of managing installations). */
  clientId?: string | null;
  clientSecret?: string | null;
}

/** An installation token is minted again when less than this is left of its life. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;
const PER_PAGE = 100;
/** 100 pages of 100: far more repositories than one installation holds in practice. */
const MAX_PAGES = 100;

const statusOf = (err: unknown): number | null => {
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' ? status : null;
};

/** A failure talking to GitHub, told as it is (the admin has to fix the app's settings). */
function hostFailure(what: string, err: unknown): AppError {
  const status = statusOf(err);
  const detail =
    status === 401
      ? 'GitHub refused the app credentials (401): check GITHUB_APP_ID and the private key'
      : status !== null
        ? `GitHub answered ${status}: ${(err as Error).message}`
        : `GitHub is unreachable: ${(err as Error).message}`;
  return upstreamError(`${what} failed. ${detail}`);
}

/** GitHub hands out PKCS#1 keys (BEGIN RSA PRIVATE KEY); WebCrypto signs with PKCS#8 only. */
export function toPkcs8(pem: string): string {
  if (!pem.includes('BEGIN RSA PRIVATE KEY')) return pem;
  return crypto.createPrivateKey(pem).export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The GitHub REST calls of the App: the app JWT (RS256, from @octokit/auth-app) for /app/…,
 * installation tokens for the rest. One instance per process: @octokit/auth-app caches
 * installation tokens, and a token with less than TOKEN_REFRESH_MARGIN_MS left is replaced.
 */
export class GitHubAppClient {
  private readonly request: typeof octokitRequest;
  private readonly auth: ReturnType<typeof createAppAuth>;
  /** The last token handed out per installation, to tell a cached token from a fresh one. */
  private readonly handedOut = new Map<number, string>();

  constructor(settings: GitHubAppSettings) {
    this.request = octokitRequest.defaults({
      baseUrl: settings.apiUrl,
      headers: { 'user-agent': 'Packyard', 'x-github-api-version': '2022-11-28' },
      request: {
        fetch: (url: string, init: RequestInit = {}) =>
          fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(settings.timeoutMs) }),
      },
    });
    this.auth = createAppAuth({
      appId: settings.appId,
      privateKey: toPkcs8(settings.privateKey),
      request: this.request,
      ...(settings.clientId && settings.clientSecret
        ? { clientId: settings.clientId, clientSecret: settings.clientSecret }
        : {}),
    });
  }

  /**
   * Who authorized the App with this one-time code, and the installations that GitHub user may
   * manage (`GET /user/installations` with the user's token). Null when GitHub refuses the code
   * (expired, used, or not this App's).
   */
  async userInstallations(
    code: string,
  ): Promise<{ login: string; installationIds: Set<number> } | null> {
    let token: string;
    try {
      ({ token } = (await this.auth({ type: 'oauth-user', code })) as { token: string });
    } catch (err) {
      const status = statusOf(err);
      if (status === null || status >= 500) throw hostFailure('Exchanging the code', err);
      return null;
    }
    const headers = { authorization: `token ${token}` };
    try {
      const { data: user } = await this.request('GET /user', { headers });
      const ids = new Set<number>();
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { data } = await this.request('GET /user/installations', {
          per_page: PER_PAGE,
          page,
          headers,
        });
        for (const installation of data.installations) ids.add(installation.id);
        if (data.installations.length === 0 || ids.size >= data.total_count) break;
      }
      return { login: user.login, installationIds: ids };
    } catch (err) {
      throw hostFailure('Listing the installations of the user', err);
    }
  }

  /** The installation as GitHub knows it for this app, or null when it does not. */
  async installation(installationId: string): Promise<GitHubInstallation | null> {
    const { token } = await this.auth({ type: 'app' });
    try {
      const { data } = await this.request('GET /app/installations/{installation_id}', {
        installation_id: Number(installationId),
        headers: { authorization: `Bearer ${token}` },
      });
      const account = data.account as { login?: string; slug?: string; type?: string } | null;
      return {
        id: data.id,
        account: account
          ? {
              login: account.login ?? account.slug ?? '',
              type: account.type ?? 'Organization',
            }
          : null,
        repository_selection: data.repository_selection,
        suspended_at: data.suspended_at ?? null,
      };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw hostFailure('Looking up the installation', err);
    }
  }

  /** An installation token (cached by @octokit/auth-app, renewed shortly before it expires). */
  async installationToken(installationId: string): Promise<string> {
    const id = Number(installationId);
    try {
      let auth = await this.auth({ type: 'installation', installationId: id });
      // A token handed out before (from the cache) close to its end is replaced; a fresh one is
      // used as it is, however short its life.
      const cached = this.handedOut.get(id) === auth.token;
      if (cached && Date.parse(auth.expiresAt) - Date.now() < TOKEN_REFRESH_MARGIN_MS) {
        auth = await this.auth({ type: 'installation', installationId: id, refresh: true });
      }
      this.handedOut.set(id, auth.token);
      return auth.token;
    } catch (err) {
      throw hostFailure('Creating an installation token', err);
    }
  }

  /** Every repository the installation grants, following GitHub's pagination. */
  async repositories(installationId: string): Promise<GitHubRepository[]> {
    const token = await this.installationToken(installationId);
    const out: GitHubRepository[] = [];
    try {
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { data } = await this.request('GET /installation/repositories', {
          per_page: PER_PAGE,
          page,
          headers: { authorization: `token ${token}` },
        });
        for (const repo of data.repositories) {
          out.push({
            full_name: repo.full_name,
            clone_url: repo.clone_url,
            html_url: repo.html_url,
            private: repo.private,
            default_branch: repo.default_branch ?? null,
          });
        }
        if (data.repositories.length === 0 || out.length >= data.total_count) break;
      }
    } catch (err) {
      throw hostFailure('Listing the installation repositories', err);
    }
    return out;
  }

  /** The text of composer.json at `ref`, or null when the file is not there. */
  async composerJson(
    installationId: string,
    fullName: string,
    ref: string,
  ): Promise<string | null> {
    const token = await this.installationToken(installationId);
    const [owner = '', repo = ''] = fullName.split('/');
    try {
      const { data } = await this.request('GET /repos/{owner}/{repo}/contents/{path}', {
        owner,
        repo,
        path: 'composer.json',
        ref,
        headers: { authorization: `token ${token}` },
      });
      const file = data as { type?: string; encoding?: string; content?: string };
      if (Array.isArray(data) || file.type !== 'file' || typeof file.content !== 'string') {
        return null;
      }
      return Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8').toString(
        'utf8',
      );
    } catch (err) {
      // 404: no such file (or no such ref); GitHub says 404 too for an empty repository.
      if (statusOf(err) === 404) return null;
      throw hostFailure(`Reading composer.json of ${fullName}`, err);
    }
  }
}
