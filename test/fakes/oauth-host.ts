import crypto from 'node:crypto';
import type http from 'node:http';
import { FakeGitHost, json } from './git-host.js';
import type { SeenRequest } from './git-host.js';

export type FakeOAuthProvider = 'github' | 'gitlab';

export interface FakeOAuthOptions {
  provider: FakeOAuthProvider;
  clientId?: string;
  clientSecret?: string;
  /** The signed-in user who clicks "Authorize". */
  user?: { login: string; id: number };
  /**
   * GitHub only: issue expiring user tokens with refresh tokens (what a GitHub App with "expire
   * user authorization tokens" does); an OAuth App's tokens never expire. GitLab tokens always
   * expire (2 hours) and come with a refresh token.
   */
  expiringTokens?: boolean;
}

interface PendingCode {
  redirectUri: string | null;
  challenge: string | null;
  method: string | null;
  scopes: string[];
  expiresAt: number;
}

interface Issued {
  access: string;
  refresh: string | null;
  /** ms since epoch; null = never. */
  accessExpiresAt: number | null;
  revoked: boolean;
  scopes: string[];
}

/** What Packyard sent to the token endpoint, for assertions. */
export interface TokenRequest {
  grantType: string;
  clientAuth: 'basic' | 'body' | 'none';
  params: Record<string, string>;
}

const random = (prefix: string, bytes = 27) =>
  `${prefix}${crypto.randomBytes(bytes).toString('base64url')}`;

/**
 * GitHub or GitLab as far as Packyard's OAuth connection sees them, on a FakeGitHost: the
 * authorize page (the signed-in user approves at once), the token endpoint (authorization code
 * with PKCE, refresh), the user API, and private repositories cloned over git http-backend with
 * an access token as the Basic password. Paths, parameters, answers and error shapes follow the
 * real hosts (GitHub answers token errors with HTTP 200 and an `error` field; GitLab with 400/401).
 */
export class FakeOAuthHost {
  readonly provider: FakeOAuthProvider;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly user: { login: string; id: number };
  /** The redirect URI registered with the OAuth app; null accepts any. */
  callbackUrl: string | null = null;
  expiringTokens: boolean;
  /** Lifetime of the access tokens issued from now on. */
  accessTokenTtlSeconds: number;
  /** The user clicks "Cancel" on the next authorize page. */
  denyNext = false;
  /** The token endpoint refuses refresh grants. */
  refuseRefresh = false;
  /** The token endpoint takes requests and never answers them. */
  stallTokens = false;
  readonly tokenRequests: TokenRequest[] = [];
  private readonly codes = new Map<string, PendingCode>();
  private readonly issued: Issued[] = [];

  private constructor(
    readonly host: FakeGitHost,
    options: FakeOAuthOptions,
  ) {
    this.provider = options.provider;
    this.clientId = options.clientId ?? random(this.provider === 'github' ? 'Iv1.' : '', 12);
    this.clientSecret = options.clientSecret ?? random('secret-', 24);
    this.user = options.user ?? { login: 'octo-admin', id: 4242 };
    this.expiringTokens = this.provider === 'gitlab' || (options.expiringTokens ?? false);
    this.accessTokenTtlSeconds = this.provider === 'gitlab' ? 7200 : 28800;
  }

  static async start(options: FakeOAuthOptions): Promise<FakeOAuthHost> {
    const fake = new FakeOAuthHost(await FakeGitHost.start(), options);
    fake.install();
    return fake;
  }

  get url(): string {
    return this.host.url;
  }

  /** Settings pointing Packyard at this host (GitHub Enterprise / self-managed GitLab style). */
  env(): Record<string, string> {
    return this.provider === 'github'
      ? {
          GITHUB_URL: this.url,
          GITHUB_API_URL: `${this.url}/api/v3`,
          GITHUB_CLIENT_ID: this.clientId,
          GITHUB_CLIENT_SECRET: this.clientSecret,
        }
      : {
          GITLAB_URL: this.url,
          GITLAB_CLIENT_ID: this.clientId,
          GITLAB_CLIENT_SECRET: this.clientSecret,
        };
  }

  /** Serves `dir` as a private repository: cloning needs a currently valid access token. */
  servePrivate(fullName: string, dir: string): string {
    return this.host.serve(fullName, dir, (username, password) => {
      if (this.provider === 'gitlab' && username !== 'oauth2') return false;
      return username !== '' && this.isValid(password);
    });
  }

  /**
   * Plays the browser: opens the authorization URL as the signed-in user and returns where the
   * host redirects (Packyard's callback with `code` and `state`, or `error`).
   */
  async authorize(authorizationUrl: string): Promise<URL> {
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) {
      throw new Error(`authorize page answered ${res.status}: ${await res.text()}`);
    }
    return new URL(location);
  }

  /** Every access token issued so far stops working (their lifetime ran out). */
  expireAccessTokens(): void {
    for (const t of this.issued) t.accessExpiresAt = Date.now() - 1000;
  }

  /** Access tokens that would be accepted now. */
  validAccessTokens(): string[] {
    return this.issued.filter((t) => this.isValid(t.access)).map((t) => t.access);
  }

  /** Every token (access and refresh) ever issued, to check none leaked anywhere. */
  allTokens(): string[] {
    return this.issued.flatMap((t) => (t.refresh ? [t.access, t.refresh] : [t.access]));
  }

  /** Git requests that reached a repository (not the OAuth or API endpoints). */
  gitRequests(): SeenRequest[] {
    return this.host.requests.filter((r) => /\.git\//.test(r.path));
  }

  async close(): Promise<void> {
    await this.host.close();
  }

  // ---- endpoints ------------------------------------------------------------------------------

  private install(): void {
    const github = this.provider === 'github';
    this.host.route('GET', github ? '/login/oauth/authorize' : '/oauth/authorize', (req, res, c) =>
      this.authorizePage(res, c.url),
    );
    this.host.route('POST', github ? '/login/oauth/access_token' : '/oauth/token', (req, res, c) =>
      this.token(req, res, c.body, c.seen),
    );
    this.host.route('GET', github ? '/api/v3/user' : '/api/v4/user', (_req, res, c) =>
      this.userApi(res, c.seen),
    );
  }

  private isValid(token: string): boolean {
    const t = this.issued.find((i) => i.access === token);
    return !!t && !t.revoked && (t.accessExpiresAt === null || t.accessExpiresAt > Date.now());
  }

  private authorizePage(res: http.ServerResponse, url: URL): void {
    const q = url.searchParams;
    const page = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'text/html' }).end(`<p>${text}</p>`);
    };
    if (q.get('client_id') !== this.clientId) return page(404, 'Unknown OAuth application');
    if (this.provider === 'gitlab' && q.get('response_type') !== 'code') {
      return page(400, 'The authorization server does not support this response type.');
    }
    const redirectUri = q.get('redirect_uri');
    if (this.callbackUrl !== null && redirectUri !== this.callbackUrl) {
      return page(400, 'The redirect_uri is not associated with this application.');
    }
    const target = new URL(redirectUri ?? this.callbackUrl ?? '');
    const challenge = q.get('code_challenge');
    const method = challenge === null ? null : (q.get('code_challenge_method') ?? 'plain');
    const methods = this.provider === 'github' ? ['S256'] : ['S256', 'plain'];
    if (method !== null && !methods.includes(method)) {
      return page(400, `Unsupported code_challenge_method; use ${methods.join(' or ')}.`);
    }
    const state = q.get('state');
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set(
        'error_description',
        this.provider === 'github'
          ? 'The user has denied your application access.'
          : 'The resource owner or authorization server denied the request.',
      );
    } else {
      const code = random('', 15);
      this.codes.set(code, {
        redirectUri,
        challenge,
        method,
        scopes: (q.get('scope') ?? '').split(/[\s,]+/).filter(Boolean),
        expiresAt: Date.now() + 10 * 60 * 1000,
      });
      target.searchParams.set('code', code);
    }
    if (state !== null) target.searchParams.set('state', state);
    res.writeHead(302, { location: target.toString() }).end();
  }

  private token(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer,
    seen: SeenRequest,
  ): void {
    const params = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    const github = this.provider === 'github';
    const grantType = params.grant_type ?? (github ? 'authorization_code' : '');
    const clientAuth = seen.basic ? 'basic' : params.client_secret ? 'body' : 'none';
    this.tokenRequests.push({ grantType, clientAuth, params });
    if (this.stallTokens) return;
    const refuse = (error: string, description: string, status = 400) =>
      github
        ? json(res, 200, { error, error_description: description, error_uri: 'https://docs' })
        : json(res, status, { error, error_description: description });

    const id = seen.basic ? seen.basic.username : params.client_id;
    const secret = seen.basic ? seen.basic.password : params.client_secret;
    if (id !== this.clientId || secret !== this.clientSecret) {
      return github
        ? refuse(
            'incorrect_client_credentials',
            'The client_id and/or client_secret are incorrect.',
          )
        : refuse('invalid_client', 'Client authentication failed.', 401);
    }

    let scopes: string[];
    if (grantType === 'authorization_code') {
      const pending = this.codes.get(params.code ?? '');
      this.codes.delete(params.code ?? '');
      const badCode = () =>
        github
          ? refuse('bad_verification_code', 'The code passed is incorrect or expired.')
          : refuse('invalid_grant', 'The provided authorization grant is invalid or expired.');
      if (!pending || pending.expiresAt < Date.now()) return badCode();
      if (pending.redirectUri !== null && params.redirect_uri !== pending.redirectUri) {
        return github
          ? refuse('redirect_uri_mismatch', 'The redirect_uri MUST match the registered URL.')
          : badCode();
      }
      if (pending.challenge !== null) {
        const verifier = params.code_verifier ?? '';
        const computed =
          pending.method === 'S256'
            ? crypto.createHash('sha256').update(verifier).digest('base64url')
            : verifier;
        if (verifier === '' || computed !== pending.challenge) return badCode();
      }
      scopes = pending.scopes;
    } else if (grantType === 'refresh_token') {
      const current = this.issued.find(
        (t) => t.refresh !== null && t.refresh === params.refresh_token,
      );
      if (!current || current.revoked || this.refuseRefresh) {
        return github
          ? refuse('bad_refresh_token', 'The refresh token passed is incorrect or expired.')
          : refuse('invalid_grant', 'The provided authorization grant is invalid or revoked.');
      }
      // Both hosts rotate: the old pair stops working once the new one is issued.
      current.revoked = true;
      scopes = current.scopes;
    } else {
      return refuse('unsupported_grant_type', 'The authorization grant type is not supported.');
    }
    this.answerTokens(req, res, this.issue(scopes));
  }

  private issue(scopes: string[]): Issued {
    const github = this.provider === 'github';
    const expiring = this.expiringTokens;
    const issued: Issued = {
      access: github ? random(expiring ? 'ghu_' : 'gho_') : random('glpat-oauth-', 24),
      refresh: expiring ? (github ? random('ghr_', 54) : random('glrt-', 32)) : null,
      accessExpiresAt: expiring ? Date.now() + this.accessTokenTtlSeconds * 1000 : null,
      revoked: false,
      scopes,
    };
    this.issued.push(issued);
    return issued;
  }

  private answerTokens(req: http.IncomingMessage, res: http.ServerResponse, t: Issued): void {
    if (this.provider === 'gitlab') {
      return json(res, 200, {
        access_token: t.access,
        token_type: 'Bearer',
        expires_in: this.accessTokenTtlSeconds,
        refresh_token: t.refresh,
        scope: t.scopes.join(' '),
        created_at: Math.floor(Date.now() / 1000),
      });
    }
    // GitHub: comma-separated scopes (empty for GitHub App user tokens); JSON only when asked.
    const answer: Record<string, string | number> = {
      access_token: t.access,
      token_type: 'bearer',
      scope: this.expiringTokens ? '' : t.scopes.join(','),
    };
    if (t.refresh) {
      answer.expires_in = this.accessTokenTtlSeconds;
      answer.refresh_token = t.refresh;
      answer.refresh_token_expires_in = 15_897_600;
    }
    if ((req.headers.accept ?? '').includes('application/json')) return json(res, 200, answer);
    const form = new URLSearchParams(
      Object.entries(answer).map(([k, v]): [string, string] => [k, String(v)]),
    );
    res
      .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
      .end(form.toString());
  }

  private userApi(res: http.ServerResponse, seen: SeenRequest): void {
    if (!seen.bearer || !this.isValid(seen.bearer)) {
      return this.provider === 'github'
        ? json(res, 401, {
            message: 'Bad credentials',
            documentation_url: 'https://docs.github.com/rest',
            status: '401',
          })
        : json(res, 401, { message: '401 Unauthorized' });
    }
    const { login, id } = this.user;
    return this.provider === 'github'
      ? json(res, 200, { login, id, node_id: `U_${id}`, type: 'User', name: login })
      : json(res, 200, { id, username: login, name: login, state: 'active' });
  }
}
