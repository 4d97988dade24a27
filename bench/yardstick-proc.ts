import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** What /proc says about a server's process tree (a cluster's primary and its processes). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // no children
  }
}

/**
 * CPU seconds (user and system, so the kernel's socket work too) a process and its children
 * have used so far: read before and after a run, the server side's cost per request.
 */
export function treeCpuSeconds(pid: number): { user: number; system: number } {
  const ticks = { user: 0, system: 0 };
  for (const p of [pid, ...childrenOf(pid)]) {
    try {
      // Fields after the parenthesized command: utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.user += Number(fields[11]);
      ticks.system += Number(fields[12]);
    } catch {
      // gone
    }
  }
  return { user: ticks.user / CLOCK_TICKS, system: ticks.system / CLOCK_TICKS };
}
const CLOCK_TICKS = 100;

/** Resident memory of a process and its children (a cluster's primary and its processes). */
export function treeRss(pid: number): { total: number; largest: number } {
  const rss = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  const children = childrenOf(pid);
  const all = [pid, ...children].map(rss);
  return { total: all.reduce((a, b) => a + b, 0), largest: Math.max(...children.map(rss), 0) };
}

/**
 * The machine's CPU time stolen by the hypervisor so far (`/proc/stat`, all CPUs), in seconds: a
 * virtual machine whose host is busy loses cycles no process of its own accounts for.
 */
export function stolenSeconds(): number {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    return Number(cpu[8] ?? 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
