import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GitError } from './errors.js';
import { runGit, runProcess } from './exec.js';
import { configureGitLauncher, gitLauncherPid, prepareGitLauncher } from './launcher.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-launcher-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => configureGitLauncher({ enabled: true }));
// Starts made while the launcher is still starting go direct: each test begins with it ready.
beforeEach(async () => {
  await runProcess('true', [], 'true');
  await vi.waitFor(() => expect(gitLauncherPid()).toBeDefined());
});

/** The state and parent pid in a /proc/<pid>/stat line: `pid (comm) state ppid …`. */
function parseStat(text: string): { ppid: number; state: string } {
  // comm may hold spaces and parentheses.
  const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(ppid), state: state! };
}

/** The parent pid and state of a process; null once it is gone. */
function stat(pid: number): { ppid: number; state: string } | null {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** A process's children (not yet reaped). */
function childrenOf(pid: number): number[] {
  try {
    const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return text.split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process and all below it. */
function treeOf(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(treeOf)];
}

/** The processes the current launcher has started (and not yet reaped). */
function launcherChildren(): number[] {
  const launcher = gitLauncherPid();
  return launcher === undefined ? [] : childrenOf(launcher);
}

/** Gone, or a zombie nobody reaps (a container's init may not): dead either way. */
const dead = (pid: number): boolean => {
  const s = stat(pid);
  return s === null || s.state === 'Z';
};

const sh = (script: string, opts: Parameters<typeof runProcess>[3] = {}) =>
  runProcess('sh', ['-c', script], 'sh', opts);

describe('git launcher', () => {
  it('runs programs with their stdout, stderr, exit code and stdin', async () => {
    const ok = await sh('cat; echo err >&2', { input: 'some input\n' });
    expect(ok.stdout.toString()).toBe('some input\n');
    expect(ok.stderr).toBe('err\n');
    expect(ok.exitCode).toBe(0);

    const big = await sh('head -c 3000000 /dev/zero');
    expect(big.stdout.length).toBe(3_000_000);

    const allowed = await sh('echo out; exit 1', { allowExitCodes: [1] });
    expect(allowed).toMatchObject({ exitCode: 1 });
    expect(allowed.stdout.toString()).toBe('out\n');

    const failed = sh('echo "fatal: no" >&2; exit 128');
    await expect(failed).rejects.toBeInstanceOf(GitError);
    await expect(failed).rejects.toMatchObject({
      exitCode: 128,
      stderr: 'fatal: no',
      message: 'sh failed with exit code 128\nfatal: no',
    });

    // Many at once, each with its own pipes.
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sh(`head -c ${100_000 + i} /dev/zero; exit 0`)),
    );
    expect(many.map((r) => r.stdout.length)).toEqual(
      Array.from({ length: 20 }, (_, i) => 100_000 + i),
    );
  });

  it('forks git from the launcher, not from this process', async () => {
    // The alias runs in a shell whose parent is git: its /proc/$PPID/stat is git's.
    const { stdout } = await runGit(['-c', 'alias.whose=!cat /proc/$PPID/stat', 'whose']);
    const gitPpid = parseStat(stdout.toString()).ppid;
    expect(gitLauncherPid()).toBeDefined();
    expect(gitPpid).toBe(gitLauncherPid());
    expect(gitPpid).not.toBe(process.pid);
    expect(stat(gitLauncherPid()!)?.ppid).toBe(process.pid);
    expect(fs.readFileSync(`/proc/${gitPpid}/cmdline`, 'utf8')).toContain('packyard-git-launcher');
  });

  it('kills the whole process group on a timeout', async () => {
    const started = Date.now();
    const run = sh('sleep 30 & echo $! >&2; wait', { timeoutMs: 500 });
    const err = await run.catch((e: unknown) => e as GitError);
    expect(err).toBeInstanceOf(GitError);
    expect(err).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    const sleeper = Number(err.stderr);
    expect(sleeper).toBeGreaterThan(0);
    await vi.waitFor(() => expect(dead(sleeper)).toBe(true), { timeout: 5000 });
  });

  it('kills the whole process group when the signal aborts', async () => {
    const controller = new AbortController();
    const run = sh('sleep 30 & wait', { signal: controller.signal });
    // The shell and its sleep.
    await vi.waitFor(() => expect(launcherChildren().flatMap(treeOf)).toHaveLength(2));
    const group = launcherChildren().flatMap(treeOf);
    controller.abort(new Error('lease lost'));
    await expect(run).rejects.toMatchObject({
      kind: 'aborted',
      message: 'sh was stopped: lease lost',
    });
    await vi.waitFor(() => expect(group.every(dead)).toBe(true), { timeout: 5000 });
  });

  it('reports a missing program as a GitError', async () => {
    await expect(runProcess('no-such-program-here', [], 'nothing')).rejects.toMatchObject({
      name: 'GitError',
      message: 'Failed to run nothing: spawn no-such-program-here ENOENT',
    });
    // The launcher is still there for the next run.
    expect((await sh('echo fine')).stdout.toString()).toBe('fine\n');
  });

  it('fails runs in flight clearly when the launcher dies, and starts a new one after', async () => {
    await sh('true');
    const first = gitLauncherPid()!;
    const run = sh('sleep 30');
    await vi.waitFor(() => expect(launcherChildren()).toHaveLength(1));
    const [sleeper] = launcherChildren();
    // Time for its pid to reach this process (killed before that, the launcher leaves an orphan).
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(first, 'SIGKILL');
    await expect(run).rejects.toMatchObject({
      name: 'GitError',
      message: `Failed to run sh: the git launcher (pid ${first}) was killed by SIGKILL while it ran`,
    });
    await vi.waitFor(() => expect(dead(sleeper!)).toBe(true), { timeout: 5000 });

    expect((await sh('echo again')).stdout.toString()).toBe('again\n');
    expect(gitLauncherPid()).not.toBe(first);
  });

  it('starts the launcher ahead of the first git start when asked, so that one goes through it', async () => {
    // Switching it off and on stops the current launcher: none runs until one is asked for.
    configureGitLauncher({ enabled: false });
    configureGitLauncher({ enabled: true });
    expect(gitLauncherPid()).toBeUndefined();
    prepareGitLauncher();
    await vi.waitFor(() => expect(gitLauncherPid()).toBeDefined());
    const launcher = gitLauncherPid();
    prepareGitLauncher();
    expect(gitLauncherPid()).toBe(launcher);
    const { stdout } = await runGit(['-c', 'alias.whose=!cat /proc/$PPID/stat', 'whose']);
    expect(parseStat(stdout.toString()).ppid).toBe(launcher);

    configureGitLauncher({ enabled: false });
    prepareGitLauncher();
    expect(gitLauncherPid()).toBeUndefined();
  });

  it('spawns directly when switched off', async () => {
    configureGitLauncher({ enabled: false });
    const { stdout } = await sh('cat /proc/$$/stat');
    expect(parseStat(stdout.toString()).ppid).toBe(process.pid);
    expect(gitLauncherPid()).toBeUndefined();
  });

  it('falls back to direct starts, with one warning, when the launcher cannot start', async () => {
    const broken = path.join(tmp, 'broken-launcher.js');
    fs.writeFileSync(broken, 'process.exit(3);\n');
    const warnings: string[] = [];
    configureGitLauncher({ enabled: true, main: broken, warn: (m) => warnings.push(m) });
    const first = await sh('cat /proc/$$/stat');
    expect(parseStat(first.stdout.toString()).ppid).toBe(process.pid);
    await vi.waitFor(() =>
      expect(warnings).toEqual([
        'the git launcher exited with code 3; git processes are started directly from now on',
      ]),
    );
    const runs = await Promise.all([sh('cat /proc/$$/stat'), sh('cat /proc/$$/stat')]);
    for (const { stdout } of runs) expect(parseStat(stdout.toString()).ppid).toBe(process.pid);
    expect(gitLauncherPid()).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('neither outlives the server nor keeps it running while idle', async () => {
    const launcherTs = fileURLToPath(new URL('./launcher.ts', import.meta.url));
    const script = path.join(tmp, 'server.ts');
    fs.writeFileSync(
      script,
      [
        `import { gitLauncherPid, startProcess } from ${JSON.stringify(launcherTs)};`,
        `const run = () =>`,
        `  new Promise((resolve) =>`,
        `    startProcess('true', [], { env: process.env, stdin: 'ignore' }).on('close', resolve),`,
        `  );`,
        `// The first start goes direct while the launcher starts; the second goes through it.`,
        `void run().then(() => {`,
        `  const poll = setInterval(() => {`,
        `    if (gitLauncherPid() === undefined) return;`,
        `    clearInterval(poll);`,
        `    void run().then(() => {`,
        `      console.log(gitLauncherPid());`,
        `      if (process.argv[2] === 'stay') setInterval(() => {}, 1000);`,
        `    });`,
        `  }, 5);`,
        `});`,
      ].join('\n'),
    );
    const serve = (mode: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = new Promise<number>((resolve) =>
        child.stdout.once('data', (b) => resolve(Number(String(b)))),
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { child, pid, exited };
    };

    // Idle: the server's event loop ends by itself, and the launcher with it.
    const idle = serve('leave');
    const idleLauncher = await idle.pid;
    expect(stat(idleLauncher)).not.toBeNull();
    await expect(idle.exited).resolves.toBe(0);
    await vi.waitFor(() => expect(dead(idleLauncher)).toBe(true), { timeout: 5000 });

    // Killed: the launcher sees the channel close and exits.
    const busy = serve('stay');
    const busyLauncher = await busy.pid;
    busy.child.kill('SIGKILL');
    await busy.exited;
    await vi.waitFor(() => expect(dead(busyLauncher)).toBe(true), { timeout: 5000 });
  });
});
