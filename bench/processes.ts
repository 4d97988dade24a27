import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, so children start with the project's own node_modules and bin/. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A server running in its own process, so the load generator never shares its event loop. */
export class ChildServer {
  private output = '';
  private exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  /** performance.now() when the process was spawned. */
  readonly startedAt = performance.now();

  private constructor(
    readonly label: string,
    readonly url: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-8_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      });
    });
  }

  /** The last few kilobytes the process wrote (stdout and stderr), for failure reports. */
  get recentOutput(): string {
    return this.output;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.label} has no pid`);
    return this.child.pid;
  }

  /** Starts `node <args>` in the repository root and waits until `ready(url)` answers true. */
  static async start(opts: {
    label: string;
    port: number;
    nodeArgs: string[];
    env: Record<string, string>;
    ready: (url: string) => Promise<boolean>;
    timeoutMs?: number;
  }): Promise<ChildServer> {
    const url = `http://127.0.0.1:${opts.port}`;
    const child = spawn(process.execPath, opts.nodeArgs, {
      cwd: ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ChildServer(opts.label, url, child);
    const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
    for (;;) {
      if (server.exitCode !== undefined) {
        throw new Error(`${opts.label} exited (code ${server.exitCode}):\n${server.output}`);
      }
      if (await opts.ready(url).catch(() => false)) return server;
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`${opts.label} did not become ready:\n${server.output}`);
      }
      await sleep(100);
    }
  }

  /** Resident and peak resident memory in bytes, from /proc (null where there is no /proc). */
  memory(): { rss: number; peak: number } | null {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return null;
    }
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rss = kb('VmRSS');
    const peak = kb('VmHWM');
    return Number.isFinite(rss) ? { rss: rss * 1024, peak: (peak || rss) * 1024 } : null;
  }

  /** SIGKILL: the process dies at once, as on a crash or a lost machine. */
  async kill(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (a graceful stop, which also lets --cpu-prof write its file), SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
