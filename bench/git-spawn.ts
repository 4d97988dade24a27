/**
 * How long starting a git process blocks the server's main thread, directly (node forks this
 * process) or through the git launcher (docs/architecture.md, "Starting git processes"), at a
 * given RSS: `node --import tsx bench/git-spawn.ts [MB] [runs]` (default 250 MB, 40 runs).
 *
 * For each mode, in a fresh process holding MB of touched memory: `runGit(['--version'])` in
 * series, reporting the synchronous part of the call (where a direct start forks), the main
 * thread's busy time per run (event-loop utilization: every tick the run needs, the launcher's
 * messages included), the event loop's worst delay, and the wall time per run.
 */
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

interface Result {
  mode: string;
  rssMb: number;
  /** From the first git command until the first run is done and the launcher (if used) is ready. */
  readyMs: number;
  syncMs: { p50: number; max: number };
  busyMsPerRun: number;
  loopDelayMaxMs: number;
  wallMsPerRun: number;
}

async function measure(mode: 'direct' | 'launcher', mb: number, runs: number): Promise<Result> {
  const { runGit } = await import('../src/infra/git/exec.js');
  const { configureGitLauncher, gitLauncherPid } = await import('../src/infra/git/launcher.js');
  configureGitLauncher({ enabled: mode === 'launcher' });
  // Touched, so every page is mapped and the fork has to copy its page table entries.
  const ballast = Buffer.alloc(mb * 1024 * 1024, 1);

  let started = performance.now();
  await runGit(['--version']);
  // Starts go direct until the launcher is ready: the measured ones must not.
  while (mode === 'launcher' && gitLauncherPid() === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const readyMs = performance.now() - started;
  for (let i = 0; i < 5; i++) await runGit(['--version']);

  const sync: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const elu = performance.eventLoopUtilization();
  started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const run = runGit(['--version']);
    sync.push(performance.now() - t0);
    await run;
  }
  const wall = performance.now() - started;
  const used = performance.eventLoopUtilization(elu);
  delay.disable();
  sync.sort((a, b) => a - b);
  const result: Result = {
    mode,
    rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    readyMs,
    syncMs: { p50: sync[Math.floor(runs / 2)]!, max: sync[runs - 1]! },
    busyMsPerRun: used.active / runs,
    loopDelayMaxMs: delay.max / 1e6,
    wallMsPerRun: wall / runs,
  };
  ballast[0] = 2;
  return result;
}

const [, , arg1, arg2, arg3] = process.argv;
if (arg1 === 'direct' || arg1 === 'launcher') {
  const result = await measure(arg1, Number(arg2), Number(arg3));
  console.log(JSON.stringify(result));
} else {
  const mb = Number(arg1 ?? 250);
  const runs = Number(arg2 ?? 40);
  const self = fileURLToPath(import.meta.url);
  const f = (n: number) => n.toFixed(2).padStart(7);
  console.log(`git --version, ${runs} runs in series, ${mb} MB of touched ballast`);
  console.log('mode      rss MB  sync p50  sync max  busy/run  loop max  wall/run      ready');
  for (const mode of ['direct', 'launcher', 'direct', 'launcher']) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', self, mode, String(mb), String(runs)],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let text = '';
      child.stdout.on('data', (b: Buffer) => (text += b.toString()));
      child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}`))));
    });
    const r = JSON.parse(out) as Result;
    console.log(
      `${r.mode.padEnd(9)} ${String(r.rssMb).padStart(6)} ${f(r.syncMs.p50)}   ${f(r.syncMs.max)}   ${f(r.busyMsPerRun)}   ${f(r.loopDelayMaxMs)}   ${f(r.wallMsPerRun)}   ${f(r.readyMs)}`,
    );
  }
  console.log('(ms; busy/run: main-thread active time per run, from event-loop utilization)');
}
