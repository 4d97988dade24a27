import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** A request as the fake saw it, for assertions (which credentials did Packyard send?). */
export interface SeenRequest {
  method: string;
  path: string;
  /** Basic username/password or Bearer token sent, if any. */
  basic: { username: string; password: string } | null;
  bearer: string | null;
  body: Buffer;
}

export type RouteHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ctx: { url: URL; body: Buffer; match: RegExpMatchArray; seen: SeenRequest },
) => void | Promise<void>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

interface ServedRepo {
  /** Accepts the Basic credentials of a request; undefined = public repository. */
  authorize?: (username: string, password: string) => boolean;
}

/**
 * A small local git host: serves real repositories over smart HTTP through `git http-backend`
 * (optionally behind Basic auth, as GitHub and GitLab accept tokens), and any extra endpoints a
 * test registers (OAuth authorize/token, REST API). Packyard talks to it through its configurable
 * base URLs exactly as it would to the real host.
 */
export class FakeGitHost {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-fakehost-'));
  readonly requests: SeenRequest[] = [];
  private readonly routes: Route[] = [];
  private readonly repos = new Map<string, ServedRepo>();
  private server!: http.Server;
  url = '';

  static async start(): Promise<FakeGitHost> {
    const host = new FakeGitHost();
    host.server = http.createServer((req, res) => {
      host.handle(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake host error: ${err.message}`);
      });
    });
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    const address = host.server.address();
    host.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return host;
  }

  /**
   * Serves the git repository in `dir` (a working tree or a bare repository) as
   * `<url>/<fullName>.git`. With `authorize`, requests without accepted Basic credentials get 401.
   */
  serve(
    fullName: string,
    dir: string,
    authorize?: (username: string, password: string) => boolean,
  ): string {
    const gitDir = fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
    const link = path.join(this.root, `${fullName}.git`);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.rmSync(link, { force: true });
    fs.symlinkSync(gitDir, link);
    this.repos.set(fullName, { authorize });
    return this.cloneUrl(fullName);
  }

  cloneUrl(fullName: string): string {
    return `${this.url}/${fullName}.git`;
  }

  /** Registers an endpoint; `pattern` matches the path without the query string. */
  route(method: string, pattern: RegExp | string, handler: RouteHandler): void {
    const re = typeof pattern === 'string' ? new RegExp(`^${escape(pattern)}$`) : pattern;
    this.routes.push({ method: method.toUpperCase(), pattern: re, handler });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      ...credentialsOf(req.headers.authorization),
      body,
    };
    this.requests.push(seen);
    for (const route of this.routes) {
      const match = route.method === seen.method ? route.pattern.exec(url.pathname) : null;
      if (match) return route.handler(req, res, { url, body, match, seen });
    }
    const repo = /^\/(.+?)\.git(\/.*)$/.exec(url.pathname);
    const served = repo ? this.repos.get(repo[1] ?? '') : undefined;
    if (!repo || !served) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (served.authorize) {
      const ok = seen.basic && served.authorize(seen.basic.username, seen.basic.password);
      if (!ok) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="fake"' }).end('Unauthorized');
        return;
      }
    }
    await this.httpBackend(req, res, url, body, seen);
  }

  /** Runs `git http-backend` as a CGI program for one request. */
  private async httpBackend(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Buffer,
    seen: SeenRequest,
  ): Promise<void> {
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: url.pathname,
        REQUEST_METHOD: seen.method,
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(body.length),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: seen.basic?.username ?? '',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // http-backend may exit without reading its input (GET requests): not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(body);
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.resume();
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    const raw = Buffer.concat(out);
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString('latin1');
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers).end(raw.subarray(split + 4));
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function credentialsOf(header: string | undefined): Pick<SeenRequest, 'basic' | 'bearer'> {
  if (header?.startsWith('Basic ')) {
    const text = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = text.indexOf(':');
    return {
      basic: { username: text.slice(0, colon), password: text.slice(colon + 1) },
      bearer: null,
    };
  }
  if (header?.toLowerCase().startsWith('bearer ') || header?.toLowerCase().startsWith('token ')) {
    return { basic: null, bearer: header.slice(header.indexOf(' ') + 1) };
  }
  return { basic: null, bearer: null };
}

/** Answers JSON from a route handler. */
export function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
