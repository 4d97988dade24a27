import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildZip } from '../../src/areas/artifacts/test-zips.js';

/** One version of a fake public package, with its real-looking requirements. */
export interface FakeVersion {
  version: string;
  require?: Record<string, string>;
  /** A branch (served from `~dev`). */
  dev?: boolean;
}

/** How the fake misbehaves, for the failure tests. */
export type UpstreamMode =
  'ok' | 'error-500' | 'hang' | 'malformed' | 'huge' | 'redirect-offhost' | 'not-zip';

interface Pkg {
  name: string;
  versions: FakeVersion[];
  lastModified: Date;
}

/** Real constraints of psr/log and monolog/monolog, as Packagist lists them. */
export const REAL_PACKAGES: Record<string, FakeVersion[]> = {
  'psr/log': [
    { version: '3.0.0', require: { php: '>=8.0.0' } },
    { version: '2.0.0', require: { php: '>=8.0.0' } },
    { version: '1.1.4', require: { php: '>=5.3.0' } },
    { version: '1.0.0' },
    { version: 'dev-master', dev: true, require: { php: '>=8.0.0' } },
  ],
  'monolog/monolog': [
    { version: '3.5.0', require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' } },
    { version: '3.0.0', require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' } },
    { version: '2.9.2', require: { php: '>=7.2', 'psr/log': '^1.0.1 || ^2.0 || ^3.0' } },
    { version: '2.0.0', require: { php: '>=7.2', 'psr/log': '^1.0.1' } },
  ],
};

const pretty = (v: string) => v.replace(/^v/, '');
const normalized = (v: string) =>
  v.startsWith('dev-')
    ? v
    : `${pretty(v).split('.').concat(['0', '0', '0']).slice(0, 4).join('.')}`;

/**
 * A local stand-in for repo.packagist.org speaking its protocol: minified p2 documents
 * (`"minified": "composer/2.0"`), dist zips it builds itself, Last-Modified and 304, and counters
 * of what it was asked. `mode` makes it fail the ways an upstream does.
 */
export class FakePackagist {
  readonly requests: string[] = [];
  mode: UpstreamMode = 'ok';
  private readonly packages = new Map<string, Pkg>();
  private readonly zips = new Map<string, Buffer>();
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();
  url = '';
  /** Where the metadata says archives are (default: this server), to test other archive hosts. */
  distBase: string | null = null;

  constructor(packages: Record<string, FakeVersion[]> = REAL_PACKAGES) {
    for (const [name, versions] of Object.entries(packages)) this.setPackage(name, versions);
  }

  /**
   * When not null, packages.json names `metadata-changes-url` and `/metadata/changes.json`
   * answers in packagist.org's format from this log (`time` in 1/10,000 s), which every
   * setPackage adds an update to; a test may push `resync` or `delete` actions itself.
   */
  changeLog: { type: 'update' | 'delete' | 'resync'; package: string; time: number }[] | null =
    null;

  /** Adds or replaces a package; its Last-Modified moves to now. */
  setPackage(name: string, versions: FakeVersion[]): void {
    const previous = this.packages.get(name)?.lastModified.getTime() ?? 0;
    const now = Math.max(Math.floor(Date.now() / 1000) * 1000, previous + 1000);
    this.packages.set(name, { name, versions, lastModified: new Date(now) });
    this.changeLog?.push({ type: 'update', package: name, time: Date.now() * 10 });
  }

  private changes(req: http.IncomingMessage, res: http.ServerResponse): void {
    const now = Date.now() * 10;
    const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('since'));
    res.setHeader('content-type', 'application/json');
    if (!since) {
      res
        .writeHead(400)
        .end(JSON.stringify({ error: 'Invalid or missing "since"', timestamp: now }));
      return;
    }
    const actions = this.changeLog!.filter((a) => a.time >= since).map((a) => ({
      type: a.type,
      package: a.package,
      time: Math.floor(a.time / 10000),
    }));
    res.writeHead(200).end(JSON.stringify({ actions, timestamp: now }));
  }

  addVersion(name: string, version: FakeVersion): void {
    this.setPackage(name, [version, ...(this.packages.get(name)?.versions ?? [])]);
  }

  /** How often a path (or any path starting with it) was asked. */
  count(prefix: string): number {
    return this.requests.filter((r) => r.startsWith(prefix)).length;
  }

  reference(name: string, version: string): string {
    return crypto.createHash('sha1').update(`${name}@${version}`).digest('hex');
  }

  zip(name: string, version: string): Buffer {
    const key = `${name}@${version}`;
    let zip = this.zips.get(key);
    if (!zip) {
      const [vendor, short] = name.split('/');
      const dir = `${vendor}-${short}-${this.reference(name, version).slice(0, 7)}`;
      const composer = { name, type: 'library', autoload: { 'psr-4': { 'Fake\\': 'src/' } } };
      zip = buildZip([
        { name: `${dir}/composer.json`, data: JSON.stringify(composer) },
        { name: `${dir}/src/Version.php`, data: `<?php // ${name} ${version}\n` },
      ]);
      this.zips.set(key, zip);
    }
    return zip;
  }

  private entry(pkg: Pkg, v: FakeVersion): Record<string, unknown> {
    const reference = this.reference(pkg.name, v.version);
    return {
      name: pkg.name,
      description: `${pkg.name}, as served by the fake upstream`,
      version: v.version,
      version_normalized: normalized(v.version),
      license: ['MIT'],
      type: 'library',
      source: { type: 'git', url: `https://github.com/${pkg.name}.git`, reference },
      dist: {
        type: 'zip',
        url: `${this.distBase ?? this.url}/dist/${pkg.name}/${reference}.zip`,
        reference,
        shasum: '',
      },
      require: v.require ?? {},
      time: '2023-01-01T00:00:00+00:00',
      autoload: { 'psr-4': { 'Fake\\': 'src/' } },
    };
  }

  /** The p2 document, minified the way Packagist minifies it. */
  document(name: string, dev: boolean): unknown {
    const pkg = this.packages.get(name);
    if (!pkg) return null;
    const full = pkg.versions.filter((v) => Boolean(v.dev) === dev).map((v) => this.entry(pkg, v));
    const minified: Record<string, unknown>[] = [];
    let previous: Record<string, unknown> | null = null;
    for (const entry of full) {
      if (!previous) minified.push(entry);
      else {
        const diff: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(entry)) {
          if (JSON.stringify(previous[k]) !== JSON.stringify(v)) diff[k] = v;
        }
        for (const k of Object.keys(previous)) if (!(k in entry)) diff[k] = '__unset';
        minified.push(diff);
      }
      previous = entry;
    }
    return { minified: 'composer/2.0', packages: { [name]: minified } };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    this.requests.push(path);
    if (this.mode === 'hang') return; // never answers
    if (this.mode === 'error-500') {
      res.writeHead(500).end('upstream broke');
      return;
    }
    if (this.mode === 'redirect-offhost') {
      res.writeHead(302, { location: `http://evil.example${path}` }).end();
      return;
    }
    if (path === '/packages.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const changes = this.changeLog ? { 'metadata-changes-url': '/metadata/changes.json' } : {};
      res.end(JSON.stringify({ packages: [], 'metadata-url': '/p2/%package%.json', ...changes }));
      return;
    }
    if (path === '/metadata/changes.json' && this.changeLog) return this.changes(req, res);
    const p2 = /^\/p2\/([^/]+\/[^/]+?)(~dev)?\.json$/.exec(path);
    if (p2?.[1]) return this.p2(req, res, p2[1], Boolean(p2[2]));
    const dist = /^\/dist\/([^/]+\/[^/]+)\/([0-9a-f]{40})\.zip$/.exec(path);
    if (dist?.[1] && dist[2]) {
      const pkg = this.packages.get(dist[1]);
      const v = pkg?.versions.find((x) => this.reference(dist[1]!, x.version) === dist[2]);
      if (!pkg || !v) {
        res.writeHead(404).end();
        return;
      }
      const body =
        this.mode === 'not-zip'
          ? Buffer.from('<html>not a zip</html>')
          : this.zip(pkg.name, v.version);
      res
        .writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length })
        .end(body);
      return;
    }
    res.writeHead(404).end();
  }

  private p2(req: http.IncomingMessage, res: http.ServerResponse, name: string, dev: boolean) {
    const pkg = this.packages.get(name);
    if (!pkg) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (this.mode === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"packages": {"oops');
      return;
    }
    if (this.mode === 'huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ packages: { [name]: [] }, padding: 'x'.repeat(4 * 1024 * 1024) }));
      return;
    }
    const lastModified = pkg.lastModified.toUTCString();
    const since = Date.parse(req.headers['if-modified-since'] ?? '');
    if (!Number.isNaN(since) && since >= pkg.lastModified.getTime()) {
      res.writeHead(304, { 'last-modified': lastModified }).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json', 'last-modified': lastModified })
      .end(JSON.stringify(this.document(name, dev)));
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Stops listening and drops open connections (an upstream that is down). */
  async stop(): Promise<void> {
    if (!this.server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
