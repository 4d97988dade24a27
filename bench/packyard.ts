import { ChildServer, freePort, sleep } from './processes.js';

/** Starts `node bin/packyard.js serve` on a free port over DATA_DIR. */
export async function startPackyard(opts: {
  dataDir: string;
  adminToken: string;
  /** Write a V8 CPU profile of the server here when it stops. */
  cpuProfDir?: string | null;
  /** More settings (the proxy bench points PROXY_UPSTREAM_URL at its fake). */
  env?: Record<string, string>;
  /** `packyard serve` processes (WEB_CONCURRENCY); one unless asked. */
  webConcurrency?: number;
}): Promise<ChildServer> {
  const port = await freePort();
  const profile = opts.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir] : [];
  return ChildServer.start({
    label: 'packyard',
    port,
    nodeArgs: [...profile, 'bin/packyard.js', 'serve'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      ADMIN_TOKEN: opts.adminToken,
      BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      WORKER: 'on',
      WEB_CONCURRENCY: String(opts.webConcurrency ?? 1),
      // Limits on, so their cost is measured, but far above what one load generator sends.
      RATE_LIMIT_COMPOSER_PER_MINUTE: '100000000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '100000000',
      PROXY_UPSTREAM_URL: 'off',
      ...opts.env,
    },
    ready: async (url) => {
      const res = await fetch(`${url}/api/v1/packages?per_page=1`, {
        headers: { authorization: `Bearer ${opts.adminToken}` },
      });
      await res.arrayBuffer();
      return res.ok;
    },
  });
}

export function basicAuth(token: string): string {
  return `Basic ${Buffer.from(`token:${token}`).toString('base64')}`;
}

/** The admin REST API, with the root token; every non-2xx answer is an error. */
export class AdminApi {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** A customer granted `packages` with `constraint`, and a download token for it. */
  async customerWithToken(packages: string[], constraint: string): Promise<string> {
    const customer = await this.request<{ id: string }>('POST', '/api/v1/customers', {
      name: 'Bench Customer',
      email: 'bench@example.test',
    });
    for (const name of packages) {
      await this.request('POST', `/api/v1/customers/${customer.id}/packages`, {
        package: name,
        constraint,
      });
    }
    const issued = await this.request<{ plain_token: string }>(
      'POST',
      `/api/v1/customers/${customer.id}/tokens`,
      { name: 'bench' },
    );
    return issued.plain_token;
  }

  async addPackage(name: string, repositoryUrl: string): Promise<void> {
    await this.request('POST', '/api/v1/packages', {
      name,
      repository_url: repositoryUrl,
      type: 'git',
    });
  }

  /** Polls the package until its sync is neither pending nor running. */
  async waitForSync(
    name: string,
    { intervalMs = 25, timeoutMs = 120_000 } = {},
  ): Promise<PackageDetail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pkg = await this.request<PackageDetail>('GET', `/api/v1/packages/${name}`);
      if (pkg.sync_status !== 'pending' && pkg.sync_status !== 'running') return pkg;
      if (Date.now() > deadline) throw new Error(`Sync of ${name} still ${pkg.sync_status}`);
      await sleep(intervalMs);
    }
  }
}

export interface PackageDetail {
  name: string;
  sync_status: string;
  sync_error: string | null;
  versions: { version: string; version_normalized: string }[];
}
