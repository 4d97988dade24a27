import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const WEB = path.resolve(import.meta.dirname, '../web');
const INDEX = path.join(WEB, 'dist', 'index.html');

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
  if (!fs.existsSync(INDEX)) return true;
  if (!fs.existsSync(path.join(WEB, 'src'))) return false;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((f) =>
    newestMtime(path.join(WEB, f)),
  );
  return Math.max(...sources) > fs.statSync(INDEX).mtimeMs;
}

/** Builds the admin UI (vite) when its build is missing or stale; a fresh build is left alone. */
export function ensureWebBuild(): void {
  if (!webBuildStale()) return;
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
