import { execFile, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, sleep } from './processes.js';
import { stolenSeconds, treeCpuSeconds } from './yardstick-proc.js';

/**
 * The physical yardstick of issue 15: nginx serving the same p2 bytes as static files behind
 * Basic auth ({SHA} htpasswd, sendfile on, one worker per core, keepalive), and wrk (Debian's)
 * as the load generator for every server compared with it.
 */
export const NGINX = '/usr/sbin/nginx';
export const WRK = '/usr/bin/wrk';

/**
 * nginx and wrk, installed from Debian when missing (as root with apt-get, as `npm test` does for
 * PHP); otherwise one line saying what to install.
 */
export function ensureYardstickTools(): void {
  const missing = [
    ['nginx', NGINX],
    ['wrk', WRK],
  ].filter(([, bin]) => !fs.existsSync(bin!));
  if (missing.length === 0) return;
  const names = missing.map(([name]) => name!);
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `The bench needs ${names.join(' and ')}: sudo apt-get install ${names.join(' ')}`,
    );
  }
  console.log(`Installing ${names.join(' and ')} for the yardstick`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...names], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers plus socket errors. */
  errors: number;
  /** The server's CPU time per answer in microseconds, when its pid was given. */
  cpuUs?: number;
  /** The kernel's share of it (system time). */
  sysUs?: number;
  /** The share of the machine's two-core time the hypervisor stole during the run (0..1). */
  stolen: number;
}

export interface Nginx {
  url: string;
  /** The master's pid (its workers are its children). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * nginx on a free port serving `bodies` (path -> bytes) to `token:<token>` only, and their
 * `gzip -9` copies (`.gz` beside each, gzip_static) to requests that accept gzip.
 */
export async function startNginx(work: string, bodies: Map<string, Buffer>, token: string) {
  const root = fs.mkdtempSync(path.join(work, 'nginx-'));
  fs.chmodSync(root, 0o755);
  const docs = path.join(root, 'docs');
  for (const [p, bytes] of bodies) {
    const file = path.join(docs, p);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
    // The `gzip -9` copy beside it, which gzip_static sends to clients that accept gzip.
    execFileSync('gzip', ['-9', '-k', '-n', '-f', file]);
  }
  const sha = crypto.createHash('sha1').update(token).digest('base64');
  fs.writeFileSync(path.join(root, 'htpasswd'), `token:{SHA}${sha}\n`);
  const port = await freePort();
  const conf = path.join(root, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `# one worker per core, as docs/deployment.md names the settings
worker_processes auto;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  gzip_static on;
  gzip_vary on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  client_body_temp_path ${root}/tmp;
  proxy_temp_path ${root}/tmp;
  fastcgi_temp_path ${root}/tmp;
  uwsgi_temp_path ${root}/tmp;
  scgi_temp_path ${root}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${docs};
    default_type application/json;
    location / {
      auth_basic "Packyard";
      auth_basic_user_file ${root}/htpasswd;
    }
  }
}
`,
  );
  fs.mkdirSync(path.join(root, 'tmp'));
  const child = spawn(NGINX, ['-p', root, '-c', conf], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}${bodies.keys().next().value ?? '/'}`, {
      headers: { authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` },
    }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error(`nginx did not start: ${readLog(root)}`);
    await sleep(50);
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGQUIT');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  } satisfies Nginx;
}

function readLog(root: string): string {
  try {
    return fs.readFileSync(path.join(root, 'error.log'), 'utf8');
  } catch {
    return '';
  }
}

/** Milliseconds of a wrk latency figure ("1.23ms", "850.00us", "1.02s"). */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/** wrk with `connections` connections for `seconds`, rotating over `paths` with `headers`. */
export async function runWrk(opts: {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  work: string;
  /** The server's (tree's) pid, to measure its CPU time per answer. */
  pid?: number;
}): Promise<WrkResult> {
  const headers = Object.entries(opts.headers)
    .map(([k, v]) => `[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
    .join(', ');
  return wrkWithScript(
    opts,
    `local paths = { ${opts.paths.map((p) => JSON.stringify(p)).join(', ')} }
local headers = { ${headers} }
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
`,
  );
}

/**
 * wrk rotating over `requests`, each a path and its Authorization header (many tokens in turn).
 * Each wrk thread starts at another point of the list.
 */
export async function runWrkRequests(opts: {
  url: string;
  requests: [path: string, authorization: string][];
  seconds: number;
  connections: number;
  work: string;
}): Promise<WrkResult> {
  // Read from a file: thousands of string constants in one Lua chunk would pass LuaJIT's limits.
  const file = path.join(opts.work, `wrk-${crypto.randomBytes(4).toString('hex')}.tsv`);
  fs.writeFileSync(file, opts.requests.map(([p, a]) => `${p}\t${a}\n`).join(''));
  return wrkWithScript(
    opts,
    `local requests = {}
for line in io.lines(${JSON.stringify(file)}) do
  local p, a = line:match("^([^\t]+)\t(.+)$")
  requests[#requests + 1] = { p, a }
end
local i = math.random(#requests)
request = function()
  i = i % #requests + 1
  local r = requests[i]
  return wrk.format("GET", r[1], { ["authorization"] = r[2] })
end
`,
  );
}

async function wrkWithScript(
  opts: { url: string; seconds: number; connections: number; work: string; pid?: number },
  lua: string,
): Promise<WrkResult> {
  const cpuBefore = opts.pid === undefined ? null : treeCpuSeconds(opts.pid);
  const stolenBefore = stolenSeconds();
  const startedAt = performance.now();
  const script = path.join(opts.work, `wrk-${crypto.randomBytes(4).toString('hex')}.lua`);
  fs.writeFileSync(script, lua);
  const threads = Math.max(1, Math.min(os.availableParallelism(), opts.connections));
  const { stdout } = await promisify(execFile)(
    WRK,
    [
      `-t${threads}`,
      `-c${opts.connections}`,
      `-d${opts.seconds}s`,
      '--latency',
      '-s',
      script,
      opts.url,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const cpuAfter = opts.pid === undefined ? null : treeCpuSeconds(opts.pid);
  const machineSeconds = ((performance.now() - startedAt) / 1000) * os.availableParallelism();
  const stolen = (stolenSeconds() - stolenBefore) / machineSeconds;
  const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? 0);
  const perAnswer = (seconds: number) => (seconds * 1e6) / Math.max(1, num(/(\d+) requests in/));
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    stdout,
  );
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    p50: ms(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1] ?? ''),
    requests: num(/(\d+) requests in/),
    stolen,
    errors:
      num(/Non-2xx or 3xx responses: (\d+)/) +
      (socketErrors ? socketErrors.slice(1).reduce((n, v) => n + Number(v), 0) : 0),
    ...(cpuBefore && cpuAfter
      ? {
          cpuUs: perAnswer(cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system),
          sysUs: perAnswer(cpuAfter.system - cpuBefore.system),
        }
      : {}),
  };
}
