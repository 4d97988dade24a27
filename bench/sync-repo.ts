import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { studly } from './catalogue.js';

/**
 * One more release on `main` of a repository made by createTaggedRepo (a commit changing
 * composer.json and src/Version.php, and a lightweight tag on it), as a developer's push would
 * add it: one `git fast-import`. Answers the new commit.
 */
export function appendRelease(dir: string, packageName: string, tag: string, hour: number): string {
  const [vendor = 'bench', name = 'lib'] = packageName.split('/');
  const ns = `${studly(vendor)}\\${studly(name)}`;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const composer = {
    name: packageName,
    description: `The ${packageName} package, release ${tag}`,
    type: 'library',
    license: ['proprietary'],
    require: { php: '>=8.1', 'psr/log': '^3.0' },
    autoload: { 'psr-4': { [`${ns}\\`]: 'src/' } },
  };
  const who = `Bench <bench@packyard.test> ${Date.UTC(2020, 0, 1) / 1000 + hour * 3600} +0000`;
  const stream = [
    'commit refs/heads/main\n',
    'mark :1\n',
    `author ${who}\n`,
    `committer ${who}\n`,
    data(`Release ${tag}`),
    'from refs/heads/main^0\n',
    'M 100644 inline composer.json\n',
    data(`${JSON.stringify(composer, null, 2)}\n`),
    'M 100644 inline src/Version.php\n',
    data(`<?php\nnamespace ${ns};\n\nfinal class Version { const NAME = '${tag}'; }\n`),
    '\n',
    `reset refs/tags/${tag}\n`,
    // The new commit (`refs/heads/main^0` would still name the one before it here).
    'from :1\n\n',
  ].join('');
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream });
  return execFileSync('git', ['rev-parse', 'refs/heads/main'], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
}

/**
 * Composer's own VCS driver reading every tag and branch of the repository: `composer show -a`
 * in a project whose only repository is `{"type": "vcs", "url": <the repository>}`, with a new
 * COMPOSER_HOME and an empty cache, so nothing is remembered between rounds. Answers the seconds
 * and the number of versions Composer listed.
 */
export async function composerVcsRead(
  repoUrl: string,
  packageName: string,
): Promise<{ seconds: number; cpuSeconds: number; versions: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-vcs-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'composer.json'),
      JSON.stringify({
        name: 'bench/consumer',
        repositories: [{ type: 'vcs', url: repoUrl }, { 'packagist.org': false }],
        require: {},
      }),
    );
    const started = performance.now();
    const output = await new Promise<string>((resolve, reject) => {
      // /usr/bin/time adds the CPU time of Composer and of every git process it waited for.
      const child = spawn(
        '/usr/bin/time',
        [
          '-f',
          'cpu %U %S',
          '-o',
          path.join(dir, 'time.txt'),
          'composer',
          ...['show', '--all', '--format=json', '--no-interaction', '--no-ansi', packageName],
        ],
        {
          cwd: dir,
          env: {
            ...process.env,
            COMPOSER_HOME: path.join(dir, 'home'),
            COMPOSER_CACHE_DIR: path.join(dir, 'cache'),
            COMPOSER_NO_INTERACTION: '1',
            COMPOSER_ALLOW_SUPERUSER: '1',
            COMPOSER_DISABLE_XDEBUG_WARN: '1',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`composer show failed (${code}): ${err}`)),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    const shown = JSON.parse(output) as { versions?: string[] };
    const [, user = '0', sys = '0'] =
      /cpu ([\d.]+) ([\d.]+)/.exec(fs.readFileSync(path.join(dir, 'time.txt'), 'utf8')) ?? [];
    return {
      seconds,
      cpuSeconds: Number(user) + Number(sys),
      versions: shown.versions?.length ?? 0,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU seconds a process has used, its own and its waited-for children's (git, for a sync), and
 * the same for each process still running below it, from /proc/<pid>/stat; null where there is
 * no /proc.
 */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime is the 12th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0);
    // And the processes still running below it: the server's git launcher (GIT_LAUNCHER),
    // which waits for git in its place, so git's CPU is in its own waited-for children.
    return (
      ticks / 100 + childrenOf(pid).reduce((n, child) => n + (processCpuSeconds(child) ?? 0), 0)
    );
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return text.split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
