import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const WEB = path.resolve(import.meta.dirname, '../web');
const INDEX = path.join(WEB, 'dist', 'index.html');
/** The customer portal's page, a second entry of the same build (docs/portal.md). */
const PORTAL = path.join(WEB, 'dist', 'portal.html');

function newestMtime(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Whether web/dist is missing or older than the UI's sources. */
export function webBuildStale(): boolean {
  if (!fs.existsSync(INDEX) || !fs.existsSync(PORTAL)) return true;
  if (!fs.existsSync(path.join(WEB, 'src'))) return false;
  // The UI also bundles the server's list of event types (a module of plain values).
  const shared = ['../src/areas/events/event-types.ts'];
  const sources = [
    'src',
    'index.html',
    'portal.html',
    'vite.config.ts',
    'package.json',
    ...shared,
  ].map((f) => newestMtime(path.join(WEB, f)));
  return Math.max(...sources) > fs.statSync(INDEX).mtimeMs;
}

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Writes a `.gz` (gzip -9) and a `.br` (brotli, best) copy beside every compressible file of the
 * build that lacks a current one, so the server sends them as they are (@fastify/static's
 * `preCompressed`) and never compresses the UI per request.
 */
export function precompress(dir = path.join(WEB, 'dist')): number {
  let written = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      written += precompress(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const mtime = fs.statSync(file).mtimeMs;
    const current = (copy: string) => fs.existsSync(copy) && fs.statSync(copy).mtimeMs >= mtime;
    if (current(`${file}.gz`) && current(`${file}.br`)) continue;
    const body = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(body, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
      }),
    );
    written += 1;
  }
  return written;
}

/** Builds the admin UI (vite) when its build is missing or stale; a fresh build is left alone. */
export function ensureWebBuild(): void {
  if (webBuildStale()) build();
  precompress();
}

function build(): void {
  const vite = path.resolve(import.meta.dirname, '../node_modules/vite/bin/vite.js');
  if (!fs.existsSync(vite)) {
    throw new Error('The admin UI is not built and vite is not installed: run `npm install`');
  }
  const run = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB,
    stdio: 'inherit',
    // Under a test runner NODE_ENV is `test`, which would bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (run.status !== 0) throw new Error(`Building the admin UI failed (exit ${run.status})`);
}
