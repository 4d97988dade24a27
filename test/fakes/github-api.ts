import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import type http from 'node:http';
import { importSPKI, jwtVerify } from 'jose';
import { FakeGitHost, json } from './git-host.js';
import type { SeenRequest } from './git-host.js';

/** An RSA key pair as GitHub hands out App keys: the private key as PKCS#1 PEM. */
export function generateAppKey(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface FakeInstallation {
  id: number;
  account: { login: string; type: 'Organization' | 'User' };
  repository_selection: 'all' | 'selected';
  /** Full names granted when the selection is 'selected'. */
  repositories: string[];
  suspended?: boolean;
}

interface FakeRepository {
  id: number;
  fullName: string;
  dir: string;
  private: boolean;
  defaultBranch: string | null;
}

interface IssuedToken {
  installationId: number;
  expiresAt: number;
}

/**
 * The GitHub REST endpoints a GitHub App uses, on a FakeGitHost (which also serves the git
 * repositories, as GitHub Enterprise Server serves its API under /api/v3 on the same host):
 * - /app/… check the RS256 app JWT against the app's PUBLIC key (iss = app id, iat/exp);
 * - POST /app/installations/{id}/access_tokens mints `ghs_…` installation tokens;
 * - /installation/repositories and /repos/{o}/{r}/contents/… take an installation token;
 * - git over HTTP accepts only `x-access-token` with an unexpired token of an installation
 *   that covers the repository.
 */
export class FakeGitHubApi {
  readonly installations = new Map<number, FakeInstallation>();
  private readonly repos = new Map<string, FakeRepository>();
  private readonly tokens = new Map<string, IssuedToken>();
  private publicKey: Awaited<ReturnType<typeof importSPKI>> | null = null;
  private nextRepoId = 1000;
  /** Life of the installation tokens minted from now on (GitHub: one hour). */
  tokenTtlSeconds = 3600;
  /** GitHub caps per_page at 100; a test may lower it to exercise pagination. */
  maxPerPage = 100;
  /** The App's OAuth credentials (GITHUB_APP_CLIENT_ID / _SECRET). */
  readonly clientId = `Iv23.${crypto.randomBytes(6).toString('hex')}`;
  readonly clientSecret = crypto.randomBytes(20).toString('hex');
  /** GitHub users, by login: the installations each may manage. */
  readonly users = new Map<string, { id: number; installations: number[] }>();
  private readonly codes = new Map<string, string>();
  private readonly userTokens = new Map<string, string>();

  private constructor(
    readonly host: FakeGitHost,
    readonly appId: string,
    readonly prefix: string,
  ) {}

  /** Starts a fake host (or uses `host`) with the API under `prefix` (/api/v3 as on GHES). */
  static async start(options: {
    appId: string;
    publicKey: string;
    host?: FakeGitHost;
    prefix?: string;
  }): Promise<FakeGitHubApi> {
    const host = options.host ?? (await FakeGitHost.start());
    const api = new FakeGitHubApi(host, options.appId, options.prefix ?? '/api/v3');
    api.publicKey = await importSPKI(options.publicKey, 'RS256');
    api.registerRoutes();
    return api;
  }

  /** GITHUB_URL and GITHUB_API_URL for Packyard, and the App's OAuth credentials. */
  get env(): Record<string, string> {
    return {
      GITHUB_URL: this.host.url,
      GITHUB_API_URL: `${this.host.url}${this.prefix}`,
      GITHUB_APP_CLIENT_ID: this.clientId,
      GITHUB_APP_CLIENT_SECRET: this.clientSecret,
    };
  }

  /**
   * Plays "Request user authorization (OAuth) during installation": the user `login` approves,
   * and GitHub hands the browser a one-time code for the Setup URL.
   */
  authorizationCode(login: string): string {
    const code = crypto.randomBytes(10).toString('hex');
    this.codes.set(code, login);
    return code;
  }

  addInstallation(installation: FakeInstallation): FakeInstallation {
    this.installations.set(installation.id, installation);
    return installation;
  }

  /**
   * Serves the git repository in `dir` as `<host>/<fullName>.git`; private ones only to
   * installation tokens. Returns the clone URL.
   */
  addRepository(options: {
    fullName: string;
    dir: string;
    private?: boolean;
    defaultBranch?: string | null;
  }): string {
    const repo: FakeRepository = {
      id: this.nextRepoId++,
      fullName: options.fullName,
      dir: options.dir,
      private: options.private ?? true,
      defaultBranch: options.defaultBranch === undefined ? 'main' : options.defaultBranch,
    };
    this.repos.set(repo.fullName.toLowerCase(), repo);
    return this.host.serve(
      repo.fullName,
      repo.dir,
      repo.private ? (user, pass) => this.gitAllowed(repo, user, pass) : undefined,
    );
  }

  /** The access token requests seen (one per token minted). */
  accessTokenRequests(installationId?: number): SeenRequest[] {
    const re = new RegExp(`^${this.prefix}/app/installations/(\\d+)/access_tokens$`);
    return this.host.requests.filter((r) => {
      const m = re.exec(r.path);
      return (
        r.method === 'POST' &&
        m &&
        (installationId === undefined || Number(m[1]) === installationId)
      );
    });
  }

  /** Git requests that carried an installation token as Basic credentials. */
  gitRequestsWithToken(fullName: string): SeenRequest[] {
    return this.host.requests.filter(
      (r) =>
        r.path.startsWith(`/${fullName}.git/`) &&
        r.basic?.username === 'x-access-token' &&
        r.basic.password.startsWith('ghs_'),
    );
  }

  /** The payload GitHub sends as `repositories` of an installation event. */
  repositoryPayload(fullName: string) {
    const repo = this.repos.get(fullName.toLowerCase());
    return {
      id: repo?.id ?? 0,
      name: fullName.split('/')[1],
      full_name: fullName,
      private: repo?.private ?? true,
    };
  }

  private covers(installation: FakeInstallation, repo: FakeRepository): boolean {
    const [owner] = repo.fullName.split('/');
    if (owner?.toLowerCase() !== installation.account.login.toLowerCase()) return false;
    return (
      installation.repository_selection === 'all' ||
      installation.repositories.some((n) => n.toLowerCase() === repo.fullName.toLowerCase())
    );
  }

  private tokenInstallation(token: string | null): FakeInstallation | null {
    if (!token) return null;
    const issued = this.tokens.get(token);
    if (!issued || issued.expiresAt <= Date.now()) return null;
    const installation = this.installations.get(issued.installationId);
    return installation && !installation.suspended ? installation : null;
  }

  private gitAllowed(repo: FakeRepository, username: string, password: string): boolean {
    if (username !== 'x-access-token') return false;
    const installation = this.tokenInstallation(password);
    return installation !== null && this.covers(installation, repo);
  }

  /** Verifies the app JWT as GitHub does: RS256 by the app's key, iss = app id, exp <= 10 min. */
  private async appAuthorized(bearer: string | null): Promise<boolean> {
    if (!bearer || !this.publicKey) return false;
    try {
      const { payload, protectedHeader } = await jwtVerify(bearer, this.publicKey, {
        algorithms: ['RS256'],
        clockTolerance: 60,
      });
      const now = Math.floor(Date.now() / 1000);
      return (
        protectedHeader.alg === 'RS256' &&
        String(payload.iss) === this.appId &&
        typeof payload.iat === 'number' &&
        typeof payload.exp === 'number' &&
        payload.iat <= now + 60 &&
        payload.exp - payload.iat <= 11 * 60
      );
    } catch {
      return false;
    }
  }

  private registerRoutes(): void {
    const p = this.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const unauthorized = (res: http.ServerResponse) =>
      json(res, 401, {
        message: 'A JSON web token could not be decoded',
        documentation_url: 'https://docs.github.com/rest',
      });
    const notFound = (res: http.ServerResponse) =>
      json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });

    this.host.route(
      'GET',
      new RegExp(`^${p}/app/installations/(\\d+)$`),
      async (_req, res, ctx) => {
        if (!(await this.appAuthorized(ctx.seen.bearer))) return unauthorized(res);
        const installation = this.installations.get(Number(ctx.match[1]));
        if (!installation) return notFound(res);
        json(res, 200, this.installationJson(installation));
      },
    );

    this.host.route(
      'POST',
      new RegExp(`^${p}/app/installations/(\\d+)/access_tokens$`),
      async (_req, res, ctx) => {
        if (!(await this.appAuthorized(ctx.seen.bearer))) return unauthorized(res);
        const installation = this.installations.get(Number(ctx.match[1]));
        if (!installation) return notFound(res);
        if (installation.suspended) {
          return json(res, 403, { message: 'This installation has been suspended' });
        }
        const token = `ghs_${crypto.randomBytes(18).toString('base64url')}`;
        const expiresAt = Date.now() + this.tokenTtlSeconds * 1000;
        this.tokens.set(token, { installationId: installation.id, expiresAt });
        json(res, 201, {
          token,
          expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          permissions: { contents: 'read', metadata: 'read' },
          repository_selection: installation.repository_selection,
        });
      },
    );

    // The App's user authorization (web flow): a code for a user-to-server token.
    this.host.route('POST', '/login/oauth/access_token', (req, res, ctx) => {
      const form: Record<string, string> = /json/.test(req.headers['content-type'] ?? '')
        ? (JSON.parse(ctx.body.toString('utf8') || '{}') as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(ctx.body.toString('utf8')));
      const login = form.code ? this.codes.get(form.code) : undefined;
      if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) {
        return json(res, 200, { error: 'incorrect_client_credentials' });
      }
      if (!login) return json(res, 200, { error: 'bad_verification_code' });
      this.codes.delete(form.code!);
      const token = `ghu_${crypto.randomBytes(18).toString('base64url')}`;
      this.userTokens.set(token, login);
      json(res, 200, { access_token: token, token_type: 'bearer', scope: '' });
    });

    this.host.route('GET', new RegExp(`^${p}/user$`), (_req, res, ctx) => {
      const login = ctx.seen.bearer ? this.userTokens.get(ctx.seen.bearer) : undefined;
      if (!login) return json(res, 401, { message: 'Bad credentials' });
      json(res, 200, { login, id: this.users.get(login)?.id ?? 1, type: 'User' });
    });

    this.host.route('GET', new RegExp(`^${p}/user/installations$`), (_req, res, ctx) => {
      const login = ctx.seen.bearer ? this.userTokens.get(ctx.seen.bearer) : undefined;
      if (!login) return json(res, 401, { message: 'Bad credentials' });
      const mine = (this.users.get(login)?.installations ?? [])
        .map((id) => this.installations.get(id))
        .filter((i): i is FakeInstallation => i !== undefined);
      const perPage = Math.min(Number(ctx.url.searchParams.get('per_page') ?? 30), this.maxPerPage);
      const page = Math.max(1, Number(ctx.url.searchParams.get('page') ?? 1));
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (page * perPage < mine.length) {
        headers.link = `<${this.host.url}${this.prefix}/user/installations?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      }
      res.writeHead(200, headers).end(
        JSON.stringify({
          total_count: mine.length,
          installations: mine
            .slice((page - 1) * perPage, page * perPage)
            .map((i) => this.installationJson(i)),
        }),
      );
    });

    this.host.route('GET', new RegExp(`^${p}/installation/repositories$`), (_req, res, ctx) => {
      const installation = this.tokenInstallation(ctx.seen.bearer);
      if (!installation) return json(res, 401, { message: 'Bad credentials' });
      const all = [...this.repos.values()]
        .filter((r) => this.covers(installation, r))
        .sort((a, b) => a.fullName.localeCompare(b.fullName));
      const perPage = Math.min(Number(ctx.url.searchParams.get('per_page') ?? 30), this.maxPerPage);
      const page = Math.max(1, Number(ctx.url.searchParams.get('page') ?? 1));
      const slice = all.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (page * perPage < all.length) {
        headers.link = `<${this.host.url}${this.prefix}/installation/repositories?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      }
      res.writeHead(200, headers).end(
        JSON.stringify({
          total_count: all.length,
          repository_selection: installation.repository_selection,
          repositories: slice.map((r) => this.repositoryJson(r)),
        }),
      );
    });

    this.host.route(
      'GET',
      new RegExp(`^${p}/repos/([^/]+)/([^/]+)/contents/(.+)$`),
      (_req, res, ctx) => {
        const installation = this.tokenInstallation(ctx.seen.bearer);
        const repo = this.repos.get(`${ctx.match[1]}/${ctx.match[2]}`.toLowerCase());
        if (!repo || (repo.private && (!installation || !this.covers(installation, repo)))) {
          return notFound(res);
        }
        const ref = ctx.url.searchParams.get('ref') ?? repo.defaultBranch ?? 'HEAD';
        const file = decodeURIComponent(ctx.match[3] ?? '');
        let content: Buffer;
        try {
          content = execFileSync('git', ['show', `${ref}:${file}`], {
            cwd: repo.dir,
            stdio: ['ignore', 'pipe', 'ignore'],
          });
        } catch {
          return notFound(res);
        }
        json(res, 200, {
          type: 'file',
          encoding: 'base64',
          name: file.split('/').pop(),
          path: file,
          size: content.length,
          content: content.toString('base64').replace(/(.{60})/g, '$1\n'),
        });
      },
    );
  }

  installationJson(installation: FakeInstallation) {
    return {
      id: installation.id,
      app_id: Number(this.appId),
      app_slug: 'packyard-test',
      target_type: installation.account.type,
      account: { login: installation.account.login, id: 1, type: installation.account.type },
      repository_selection: installation.repository_selection,
      permissions: { contents: 'read', metadata: 'read' },
      events: ['push', 'create', 'delete', 'release'],
      suspended_at: installation.suspended ? new Date().toISOString() : null,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
  }

  private repositoryJson(repo: FakeRepository) {
    const [owner = '', name = ''] = repo.fullName.split('/');
    return {
      id: repo.id,
      name,
      full_name: repo.fullName,
      private: repo.private,
      owner: { login: owner },
      clone_url: this.host.cloneUrl(repo.fullName),
      html_url: `${this.host.url}/${repo.fullName}`,
      default_branch: repo.defaultBranch,
    };
  }
}
