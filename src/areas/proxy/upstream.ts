import { Readable, Transform, pipeline } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import type { ProxySettings } from '../../config/proxy.js';
import { PrivateArchiveHost, fetchPublicOnly } from './archive-hosts.js';

/**
 * Why an upstream request failed. `unreachable` (connection refused, timeout, 5xx, 429) means the
 * upstream is down and counts toward its health; `invalid` means it answered something we refuse
 * (too large, not JSON, not a zip, a redirect to another host, another 4xx).
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly kind: 'unreachable' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

export type DocumentAnswer =
  | { status: 'ok'; body: unknown; lastModified: string | null; bytes: number }
  | { status: 'not-modified' }
  | { status: 'missing' };

const MAX_REDIRECTS = 5;

/** True when a redirect from `from` to `to` stays with the same site (api.x.com -> codeload.x.com). */
function sameSite(from: URL, to: URL, exact: boolean): boolean {
  if (from.hostname === to.hostname) return true;
  if (exact || /^[\d.]+$|:/.test(from.hostname)) return false;
  const parent = (h: string) => h.split('.').slice(-2).join('.');
  return parent(from.hostname) === parent(to.hostname);
}

/**
 * Aborts a request when the upstream stays silent for `timeoutMs`: before the answer's headers,
 * or between two chunks of its body. `touch()` restarts the clock.
 */
class IdleTimer {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  constructor(private readonly ms: number) {
    this.timer = this.arm();
  }
  private arm(): NodeJS.Timeout {
    return setTimeout(
      () =>
        this.controller.abort(new UpstreamFailure('unreachable', `no answer for ${this.ms} ms`)),
      this.ms,
    );
  }
  touch(): void {
    clearTimeout(this.timer);
    this.timer = this.arm();
  }
  stop(): void {
    clearTimeout(this.timer);
  }
}

function describe(err: unknown): UpstreamFailure {
  if (err instanceof UpstreamFailure) return err;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (err as Error).message;
  return new UpstreamFailure('unreachable', `connection failed (${detail})`);
}

/** Reads of the upstream Composer repository and of the archives its metadata names. */
export class UpstreamClient {
  readonly base: URL;

  /** `Basic …` of PROXY_UPSTREAM_URL's credentials, or null without them. */
  private readonly authorization: string | null;

  constructor(
    private readonly settings: ProxySettings & { upstreamUrl: string; blockPrivateHosts: boolean },
  ) {
    this.base = new URL(settings.upstreamUrl);
    const credentials = settings.upstreamCredentials;
    this.authorization = credentials
      ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
      : null;
  }

  /**
   * The upstream's credentials go to the upstream's own origin only (scheme, host and port), on
   * every request there (root, change log, p2, archives) and on no other host, redirects included.
   */
  private credentialsFor(url: URL): Record<string, string> {
    return this.authorization && url.origin === this.base.origin
      ? { authorization: this.authorization }
      : {};
  }

  /**
   * GET with manual redirects: a redirect off the site (or off the host, when `exact`) is refused.
   * With `publicOnly`, every hop connects to public addresses only (archive-hosts.ts).
   */
  private async get(
    url: URL,
    headers: Record<string, string>,
    timer: IdleTimer,
    exact: boolean,
    publicOnly = false,
  ) {
    let current = url;
    for (let hop = 0; ; hop++) {
      let res: Response;
      const init: RequestInit = {
        headers: { 'user-agent': 'Packyard-Proxy', ...headers, ...this.credentialsFor(current) },
        redirect: 'manual',
        signal: timer.controller.signal,
      };
      try {
        res = publicOnly ? await fetchPublicOnly(current, init) : await fetch(current, init);
      } catch (err) {
        if (err instanceof PrivateArchiveHost) throw new UpstreamFailure('invalid', err.message);
        throw describe(timer.controller.signal.reason ?? err);
      }
      timer.touch();
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      await res.body?.cancel();
      const next = new URL(location, current);
      if (!sameSite(url, next, exact) || hop >= MAX_REDIRECTS) {
        throw new UpstreamFailure('invalid', `refused a redirect from ${url.host} to ${next.host}`);
      }
      current = next;
    }
  }

  private static statusFailure(res: Response, what: string): UpstreamFailure {
    const down = res.status >= 500 || res.status === 429 || res.status === 408;
    return new UpstreamFailure(down ? 'unreachable' : 'invalid', `${what} answered ${res.status}`);
  }

  /** `/p2/<name>.json` (or `~dev`), conditional on the Last-Modified kept from last time. */
  async document(file: string, ifModifiedSince: string | null): Promise<DocumentAnswer> {
    const timer = new IdleTimer(this.settings.timeoutMs);
    try {
      const url = new URL(`${this.base.pathname.replace(/\/$/, '')}/p2/${file}`, this.base);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (ifModifiedSince) headers['if-modified-since'] = ifModifiedSince;
      const res = await this.get(url, headers, timer, true);
      if (res.status === 304) return { status: 'not-modified' };
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return { status: 'missing' };
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw UpstreamClient.statusFailure(res, `the upstream (${file})`);
      }
      const text = await this.readLimited(res, timer, this.settings.maxDocumentBytes, file);
      let body: unknown;
      try {
        body = JSON.parse(text.toString('utf8'));
      } catch {
        throw new UpstreamFailure('invalid', `the upstream's ${file} is not JSON`);
      }
      return {
        status: 'ok',
        body,
        lastModified: res.headers.get('last-modified'),
        bytes: text.length,
      };
    } catch (err) {
      throw describe(err);
    } finally {
      timer.stop();
    }
  }

  /**
   * A small JSON document of the upstream's own site (its root, its change log), with the HTTP
   * status: for 2xx and 4xx answers whose body is JSON. Off the upstream's host is refused.
   */
  async json(url: URL): Promise<{ status: number; body: unknown }> {
    if (url.origin !== this.base.origin) {
      throw new UpstreamFailure('invalid', `refused ${url.host}: not the upstream's host`);
    }
    const timer = new IdleTimer(this.settings.timeoutMs);
    try {
      const res = await this.get(url, { accept: 'application/json' }, timer, true);
      if (res.status >= 500 || res.status === 429 || res.status === 408) {
        await res.body?.cancel();
        throw UpstreamClient.statusFailure(res, `the upstream (${url.pathname})`);
      }
      const text = await this.readLimited(res, timer, 4 * 1024 * 1024, url.pathname);
      try {
        return { status: res.status, body: JSON.parse(text.toString('utf8')) as unknown };
      } catch {
        throw new UpstreamFailure('invalid', `the upstream's ${url.pathname} is not JSON`);
      }
    } catch (err) {
      throw describe(err);
    } finally {
      timer.stop();
    }
  }

  private async readLimited(res: Response, timer: IdleTimer, limit: number, what: string) {
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > limit) {
      await res.body?.cancel();
      throw new UpstreamFailure('invalid', `the upstream's ${what} is larger than ${limit} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (!res.body) return Buffer.alloc(0);
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      timer.touch();
      size += chunk.length;
      if (size > limit) {
        throw new UpstreamFailure(
          'invalid',
          `the upstream's ${what} is larger than ${limit} bytes`,
        );
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks, size);
  }

  /**
   * The archive at `url` as a stream that fails (so storage keeps nothing) when the upstream
   * stalls, passes the size limit, or sends something that is not a zip. `done()` stops the timer.
   */
  async archive(url: string): Promise<{ body: Readable; done: () => void; bytes: () => number }> {
    const timer = new IdleTimer(this.settings.timeoutMs);
    try {
      const target = new URL(url);
      // Archives may live anywhere the metadata says; only the configured upstream's own host is
      // trusted whatever its address (an operator may run a mirror on a private network).
      const publicOnly = this.settings.blockPrivateHosts && target.hostname !== this.base.hostname;
      const res = await this.get(target, { accept: 'application/zip' }, timer, false, publicOnly);
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        throw UpstreamClient.statusFailure(res, `the archive host (${new URL(url).host})`);
      }
      const check = new ZipCheck(this.settings.maxArchiveBytes, () => timer.touch());
      const source = Readable.fromWeb(res.body);
      timer.controller.signal.addEventListener('abort', () =>
        check.destroy(describe(timer.controller.signal.reason)),
      );
      // The reader of `check` (storage) sees every failure; this callback only keeps them handled.
      const body = pipeline(source, check, () => undefined);
      return { body, done: () => timer.stop(), bytes: () => check.size };
    } catch (err) {
      timer.stop();
      throw describe(err);
    }
  }
}

const LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
const EMPTY_ZIP = Buffer.from('PK\x05\x06', 'latin1');
const END_OF_DIRECTORY = EMPTY_ZIP;
/** The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes. */
const TAIL = 22 + 65_535;

/** Passes a zip through, failing on a body that does not start and end like one, or is too large. */
class ZipCheck extends Transform {
  size = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private readonly limit: number,
    private readonly onData: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.onData();
    this.size += chunk.length;
    if (this.size > this.limit) {
      cb(new UpstreamFailure('invalid', `the archive is larger than ${this.limit} bytes`));
      return;
    }
    if (this.head.length < 4) this.head = Buffer.concat([this.head, chunk]).subarray(0, 4);
    this.tail = Buffer.concat([this.tail, chunk]);
    if (this.tail.length > TAIL) this.tail = this.tail.subarray(this.tail.length - TAIL);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    const starts = this.head.equals(LOCAL_HEADER) || this.head.equals(EMPTY_ZIP);
    if (!starts || this.tail.lastIndexOf(END_OF_DIRECTORY) < 0) {
      cb(new UpstreamFailure('invalid', 'the archive is not a zip'));
      return;
    }
    cb();
  }
}
