import { fork, type ChildProcess } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { GitProcess, killGroup, startDirect } from './git-process.js';
import type { StartOptions } from './git-process.js';

export { GitProcess };
export type { StartOptions };

/**
 * Where git processes are started: by a small long-lived launcher process (launcher-main.js), so
 * that starting one does not fork this server (fork copies the page tables: its cost grows with
 * the server's memory, and the main thread waits for it), or directly as before. Why and how:
 * docs/architecture.md, "Starting git processes"; the setting: GIT_LAUNCHER (docs/configuration.md).
 */
/** A start the launcher did not make, made here instead (from an event: errors go to the run). */
function startDirectOrFail(proc: GitProcess, message: RunMessage): void {
  try {
    startDirect(proc, message.program, message.args, message);
  } catch (err) {
    proc.failed(err instanceof Error ? err : new Error(String(err)));
  }
}

export type Warn = (message: string) => void;

const LAUNCHER_MAIN = fileURLToPath(new URL('./launcher-main.js', import.meta.url));
const defaultWarn: Warn = (message) => process.emitWarning(message, 'PackyardGitLauncher');

interface Settings {
  enabled: boolean;
  warn: Warn;
  main: string;
}

const settings: Settings = { enabled: true, warn: defaultWarn, main: LAUNCHER_MAIN };

/**
 * GIT_LAUNCHER (config): whether to use the launcher, and where its one warning goes (`main`:
 * another launcher script, for tests). A change stops the current launcher (runs in flight
 * fail) and forgets a failed start.
 */
export function configureGitLauncher(opts: { enabled: boolean; warn?: Warn; main?: string }): void {
  const main = opts.main ?? LAUNCHER_MAIN;
  const changed = opts.enabled !== settings.enabled || main !== settings.main;
  settings.enabled = opts.enabled;
  settings.warn = opts.warn ?? defaultWarn;
  settings.main = main;
  if (!changed) return;
  launcher?.stop();
  launcher = null;
  broken = false;
}

interface RunMessage {
  t: 'run';
  id: number;
  program: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  stdin: 'pipe' | 'ignore';
}

type FromLauncher =
  | { t: 'ready' }
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'stdio'; id: number; fd: 0 | 1 | 2 }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'error'; id: number; message: string; code: string | null }
  | { t: 'unsupported'; id: number; message: string };

/** One launcher process and the runs it has in flight. */
class Launcher {
  private readonly child: ChildProcess;
  private ready = false;
  private gone = false;
  /** Stopped on purpose (GIT_LAUNCHER changed): its end is no failure to start. */
  private stopping = false;
  private readonly runs = new Map<number, { message: RunMessage; proc: GitProcess }>();
  private nextId = 1;

  constructor(private readonly onGone: (launcher: Launcher, fallBack: string | null) => void) {
    this.child = fork(settings.main, [], {
      // Bare node: none of the server's loaders (tsx) or options, and none of its environment
      // (each run carries git's own).
      execArgv: [],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // Its own process group: a Ctrl-C meant for the server's shutdown does not kill the git
      // processes a graceful shutdown still waits for (it ends with the server's channel).
      detached: true,
      serialization: 'json',
    });
    this.child.on('message', (message: FromLauncher, handle?: unknown) =>
      this.onMessage(message, handle),
    );
    this.child.on('error', (err) => this.lost(`failed (${err.message})`));
    this.child.on('exit', (code, signal) =>
      this.lost(signal ? `was killed by ${signal}` : `exited with code ${code}`),
    );
    this.idle();
  }

  /** Its pid once it is ready to start processes. */
  get pid(): number | undefined {
    return this.ready ? this.child.pid : undefined;
  }

  /** False once it is gone or going (a send would fail). */
  get usable(): boolean {
    return !this.gone && this.child.connected;
  }

  /** Null while it is still starting: the caller starts the process itself meanwhile. */
  start(program: string, args: readonly string[], opts: StartOptions): GitProcess | null {
    if (!this.ready) return null;
    const proc = new GitProcess();
    const id = this.nextId++;
    const message: RunMessage = { t: 'run', id, program, args, env: opts.env, stdin: opts.stdin };
    this.runs.set(id, { message, proc });
    this.busy();
    proc.killer = () => this.child.send({ t: 'kill', id });
    this.child.send(message);
    if (opts.stdin === 'ignore') proc.attachStdin(null);
    return proc;
  }

  stop(): void {
    if (this.gone) return;
    this.stopping = true;
    this.child.disconnect();
  }

  private onMessage(message: FromLauncher, handle: unknown): void {
    if (message.t === 'ready') {
      this.ready = true;
      return;
    }
    const run = this.runs.get(message.id);
    if (!run) {
      // A pipe of a run already given up (its launcher was replaced): not ours to read.
      (handle as { destroy?: () => void } | undefined)?.destroy?.();
      return;
    }
    const { proc } = run;
    switch (message.t) {
      case 'spawned':
        proc.pid = message.pid;
        break;
      case 'stdio':
        if (message.fd === 0) proc.attachStdin((handle as Writable | undefined) ?? null);
        else proc.attachOutput(message.fd, (handle as Readable | undefined) ?? null);
        break;
      case 'exit':
        this.finished(message.id);
        proc.exited(message.code, message.signal);
        break;
      case 'error': {
        this.finished(message.id);
        const err = Object.assign(new Error(message.message), { code: message.code });
        proc.failed(err);
        break;
      }
      case 'unsupported':
        // Not expected on the node versions we run on; this run and the next go direct.
        this.finished(message.id);
        this.onGone(this, `the git launcher ${message.message}`);
        startDirectOrFail(proc, run.message);
        break;
    }
  }

  private finished(id: number): void {
    this.runs.delete(id);
    if (this.runs.size === 0) this.idle();
  }

  /** The launcher is gone: runs in flight fail; gone before it was ready, it cannot start. */
  private lost(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone(this, this.ready || this.stopping ? null : `the git launcher ${why}`);
    for (const [id, { proc }] of this.runs) {
      this.runs.delete(id);
      // Reparented to init by now; nothing would read what they print.
      killGroup(proc.pid);
      proc.failed(new Error(`the git launcher (pid ${this.child.pid}) ${why} while it ran`));
    }
  }

  /** Nothing runs: the launcher must not keep this process alive. */
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }
}

/** Every start, `{ program, args }`, for whoever subscribes (tests count git processes with it). */
export const gitStarts = diagnostics.channel('packyard:git:start');

let launcher: Launcher | null = null;
/** Set once the launcher could not start: every start is direct from then on. */
let broken = false;

/** Starts `program` with git's rules: its own process group, stdout and stderr piped. */
export function startProcess(
  program: string,
  args: readonly string[],
  opts: StartOptions,
): GitProcess {
  if (gitStarts.hasSubscribers) gitStarts.publish({ program, args });
  const current = liveLauncher();
  if (current) {
    try {
      // Until it is ready (tens of ms, once) starts go direct rather than wait for it.
      const proc = current.start(program, args, opts);
      if (proc) return proc;
    } catch (err) {
      onLauncherGone(current, `the git launcher could not be started (${String(err)})`);
    }
  }
  const proc = new GitProcess();
  startDirect(proc, program, args, opts);
  return proc;
}

/**
 * Starts the launcher now rather than at the first git start, which would otherwise go direct
 * (forking this server) while the launcher boots beside it: the task worker calls this when it
 * starts, since its syncs are what run git.
 */
export function prepareGitLauncher(): void {
  liveLauncher();
}

/** The launcher, started if need be; null when git is started directly. */
function liveLauncher(): Launcher | null {
  if (!settings.enabled || broken) return null;
  try {
    if (launcher && !launcher.usable) launcher = null;
    launcher ??= new Launcher(onLauncherGone);
  } catch (err) {
    onLauncherGone(launcher, `the git launcher could not be started (${String(err)})`);
  }
  return launcher;
}

function onLauncherGone(gone: Launcher | null, fallBack: string | null): void {
  if (launcher === gone) launcher = null;
  if (fallBack === null || broken) return;
  broken = true;
  settings.warn(`${fallBack}; git processes are started directly from now on`);
}

/** The launcher's pid once it is ready, if there is one (for tests and diagnostics). */
export function gitLauncherPid(): number | undefined {
  return launcher?.pid;
}
