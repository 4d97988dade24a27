import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/**
 * A git process as the server sees it, started from the launcher (launcher.ts) or directly from
 * this process (`startDirect`): docs/architecture.md, "Starting git processes".
 */

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  /** 'pipe' to write to the process's stdin (GitProcess.write / end), else it reads nothing. */
  stdin: 'pipe' | 'ignore';
}

type ExitListener = (code: number | null, signal: NodeJS.Signals | null) => void;

/**
 * A started program, the same wherever it was forked: its output as 'stdout' and 'stderr' chunks,
 * 'error' when it could not start (or the launcher running it died), 'exit' when it ended, and
 * 'close' once it ended and its stdout and stderr are closed (as a ChildProcess's 'close').
 */
export class GitProcess extends EventEmitter {
  /** The process id, once known (the launcher reports it a moment after the start). */
  pid: number | undefined;
  private stdin: Writable | null = null;
  private input: (string | Buffer)[] | null = [];
  private inputEnded = false;
  private openOutputs = 2;
  private exitStatus: [number | null, NodeJS.Signals | null] | null = null;
  private ended = false;
  private killRequested = false;
  /** How to kill the group (set by whoever started the process). */
  killer: (() => void) | null = null;

  override on(event: 'stdout' | 'stderr', listener: (chunk: Buffer) => void): this;
  override on(event: 'error', listener: (err: Error) => void): this;
  override on(event: 'exit' | 'close', listener: ExitListener): this;
  override on(event: string, listener: (...args: never[]) => void): this {
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  /** Writes to stdin (kept until the pipe is there); EPIPE and late writes are ignored. */
  write(data: string | Buffer): void {
    if (this.inputEnded) return;
    if (this.stdin) this.stdin.write(data);
    else this.input?.push(data);
  }

  end(data?: string | Buffer): void {
    if (data !== undefined) this.write(data);
    if (this.inputEnded) return;
    this.inputEnded = true;
    this.stdin?.end();
  }

  /** SIGKILL to the whole process group: now, or as soon as the process has started. */
  kill(): void {
    if (this.exitStatus || this.ended) return;
    this.killRequested = true;
    this.killer?.();
  }

  get killWanted(): boolean {
    return this.killRequested;
  }

  /** @internal The stdin pipe arrived (null: the process is gone before it could). */
  attachStdin(stream: Writable | null): void {
    if (!stream) {
      this.input = null;
      return;
    }
    this.stdin = stream;
    stream.on('error', () => {});
    for (const chunk of this.input ?? []) stream.write(chunk);
    this.input = null;
    if (this.inputEnded) stream.end();
  }

  /** @internal An output pipe arrived (null: none will). */
  attachOutput(fd: 1 | 2, stream: Readable | null): void {
    if (!stream) return this.outputClosed();
    stream.on('data', (chunk: Buffer) => this.emit(fd === 1 ? 'stdout' : 'stderr', chunk));
    stream.on('error', () => {});
    stream.on('close', () => this.outputClosed());
  }

  /** @internal */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitStatus || this.ended) return;
    this.exitStatus = [code, signal];
    this.emit('exit', code, signal);
    this.maybeClose();
  }

  /** @internal It could not start, or it is lost: no exit or close follows. */
  failed(err: Error): void {
    if (this.exitStatus || this.ended) return;
    this.ended = true;
    this.emit('error', err);
  }

  private outputClosed(): void {
    this.openOutputs -= 1;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (!this.exitStatus || this.openOutputs > 0 || this.ended) return;
    this.ended = true;
    this.emit('close', ...this.exitStatus);
  }
}

export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Starts the program from this process (node's spawn: a fork of this process). */
export function startDirect(
  proc: GitProcess,
  program: string,
  args: readonly string[],
  opts: StartOptions,
) {
  const child = spawn(program, args, {
    env: opts.env,
    stdio: [opts.stdin, 'pipe', 'pipe'],
    detached: true,
  });
  proc.pid = child.pid;
  proc.killer = () => {
    if (child.exitCode === null && child.signalCode === null) killGroup(child.pid);
  };
  child.on('error', (err) => proc.failed(err));
  if (child.pid === undefined) return;
  proc.attachOutput(1, child.stdout);
  proc.attachOutput(2, child.stderr);
  if (opts.stdin === 'pipe') proc.attachStdin(child.stdin);
  child.on('exit', (code, signal) => proc.exited(code, signal));
  if (proc.killWanted) proc.killer();
}
