/**
 * The proxy's two figures (issue 12): (e) a proxied p2 document served from the cache against a
 * private package's p2 document, same server and token, interleaved rounds; (f) a cold
 * `composer update` of a project needing 30 public packages through Packyard against the same
 * update pointed straight at the (local, fake) upstream.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FakePackagist } from '../test/fakes/packagist.js';
import type { FakeVersion } from '../test/fakes/packagist.js';
import { ComposerProject } from '../test/e2e/composer-client.js';
import { seedCatalogue } from './catalogue.js';
import { meanOf, measure } from './load.js';
import type { LoadResult } from './load.js';
import { AdminApi, basicAuth, startPackyard } from './packyard.js';
import { sleep } from './processes.js';
import { fmt, heading, item } from './report.js';

export const PROXY_TARGETS = {
  /** (e) proxied p2 req/s over private p2 req/s. */
  cachedRatio: 0.9,
  /** (f) cold update through Packyard over straight at the upstream. */
  coldUpdateRatio: 1.5,
};

export interface ProxyBench {
  privateLoad: LoadResult;
  publicLoad: LoadResult;
  direct: number;
  proxied: number;
}

interface Opts {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
}

const PUBLIC_PACKAGES = 30;
const VERSIONS: FakeVersion[] = ['1.2.0', '1.1.0', '1.0.1', '1.0.0'].map((version) => ({
  version,
  require: { php: '>=7.4' },
}));

function upstreamCatalogue(): Record<string, FakeVersion[]> {
  const out: Record<string, FakeVersion[]> = {};
  for (let i = 1; i <= PUBLIC_PACKAGES; i++) out[`public/lib-${i}`] = VERSIONS;
  return out;
}

async function coldUpdate(repoUrl: string, token: string): Promise<number> {
  const project = new ComposerProject(repoUrl, token);
  try {
    const require: Record<string, string> = {};
    for (let i = 1; i <= PUBLIC_PACKAGES; i++) require[`public/lib-${i}`] = '^1.0';
    const composer = project.readJson<Record<string, unknown>>('composer.json');
    project.writeJson('composer.json', { ...composer, require });
    const started = performance.now();
    const run = await project.run(['update']);
    if (run.code !== 0) throw new Error(`composer update failed:\n${run.output}`);
    return (performance.now() - started) / 1000;
  } finally {
    project.remove();
  }
}

export async function benchProxy(o: Opts, work: string, adminToken: string): Promise<ProxyBench> {
  const upstream = new FakePackagist(upstreamCatalogue());
  await upstream.start();
  // Built now, so neither timed update pays for making the fake's zips.
  for (const name of Object.keys(upstreamCatalogue())) {
    for (const v of VERSIONS) upstream.zip(name, v.version);
  }
  const dataDir = path.join(work, 'proxy');
  const catalogue = await seedCatalogue({ dataDir, adminToken, count: 30, grants: 30 });
  const server = await startPackyard({
    dataDir,
    adminToken,
    env: { PROXY_UPSTREAM_URL: upstream.url, PROXY_METADATA_TTL_SECONDS: '3600' },
  });
  try {
    const api = new AdminApi(server.url, adminToken);
    const token = await api.customerWithToken(catalogue.granted, '^1.0');
    const headers = { authorization: basicAuth(token) };
    const load = (paths: string[]) => ({
      baseUrl: server.url,
      paths,
      headers,
      connections: o.connections,
      seconds: o.seconds,
    });
    const privatePaths = catalogue.granted.map((n) => `/p2/${n}.json`);
    const publicPaths = Object.keys(upstreamCatalogue()).map((n) => `/p2/${n}.json`);
    for (const p of publicPaths) {
      const res = await fetch(server.url + p, { headers });
      if (res.status !== 200) throw new Error(`GET ${p} -> ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const size = async (p: string) =>
      (await (await fetch(server.url + p, { headers })).arrayBuffer()).byteLength;
    item(
      'document sizes',
      `private ${fmt.kb(await size(privatePaths[0]!))}, public ${fmt.kb(await size(publicPaths[0]!))}`,
    );
    const asked = upstream.requests.length;
    heading(`(e) proxied p2 from the cache vs private p2, ${PUBLIC_PACKAGES} packages each`);
    await measure({ ...load(privatePaths), seconds: o.warmupSeconds });
    await measure({ ...load(publicPaths), seconds: o.warmupSeconds });
    const priv: LoadResult[] = [];
    const pub: LoadResult[] = [];
    for (let round = 1; round <= o.rounds; round++) {
      const order = round % 2 === 1 ? ['private', 'public'] : ['public', 'private'];
      for (const which of order) {
        const result = await measure(load(which === 'private' ? privatePaths : publicPaths));
        (which === 'private' ? priv : pub).push(result);
        item(`round ${round}, ${which}`, `${fmt.int(result.rps)} req/s, p99 ${fmt.ms(result.p99)}`);
      }
    }
    if (upstream.requests.length !== asked) throw new Error('the cached load reached the upstream');

    heading(`(f) cold composer update of ${PUBLIC_PACKAGES} public packages`);
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let round = 1; round <= o.rounds; round++) {
      await api.request('POST', '/api/v1/proxy/purge', {});
      // The purge reaches the server's other processes (WEB_CONCURRENCY) by their generation
      // poll, within a second; until then one may still serve a purged document from memory.
      await sleep(1500);
      const through = await coldUpdate(server.url, token);
      const straight = await coldUpdate(upstream.url, token);
      proxied.push(through);
      direct.push(straight);
      item(`round ${round}`, `through Packyard ${fmt.s(through)}, direct ${fmt.s(straight)}`);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      privateLoad: meanOf(priv),
      publicLoad: meanOf(pub),
      direct: mean(direct),
      proxied: mean(proxied),
    };
  } finally {
    await server.stop();
    await upstream.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
