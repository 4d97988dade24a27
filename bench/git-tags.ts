import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { studly } from './catalogue.js';

export interface TaggedRepo {
  dir: string;
  url: string;
  tags: number;
  seconds: number;
  remove(): void;
}

/** One `data` command of the fast-import stream (byte-counted, so any content is safe). */
function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

function tagName(i: number): string {
  return `v1.${Math.floor(i / 10)}.${i % 10}`;
}

/**
 * A bare repository whose `main` has one commit per release and a lightweight tag on each,
 * built with a single `git fast-import` (a commit/tag loop would spawn thousands of processes),
 * its refs packed.
 * Every tag's composer.json is valid and names `packageName`.
 */
export function createTaggedRepo(packageName: string, tags: number): TaggedRepo {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-bench-repo-'));
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir]);
  const [vendor = 'bench', name = 'lib'] = packageName.split('/');
  const ns = `${studly(vendor)}\\${studly(name)}`;
  const chunks: string[] = [];
  const epoch = Date.UTC(2020, 0, 1) / 1000;
  for (let i = 0; i < tags; i++) {
    const tag = tagName(i);
    const composer = {
      name: packageName,
      description: `The ${packageName} package, release ${tag}`,
      type: 'library',
      license: ['proprietary'],
      require: { php: '>=8.1', 'psr/log': '^3.0' },
      autoload: { 'psr-4': { [`${ns}\\`]: 'src/' } },
    };
    const who = `Bench <bench@packyard.test> ${epoch + i * 3600} +0000`;
    chunks.push(
      'commit refs/heads/main\n',
      `mark :${i + 1}\n`,
      `author ${who}\n`,
      `committer ${who}\n`,
      data(`Release ${tag}`),
      'M 100644 inline composer.json\n',
      data(`${JSON.stringify(composer, null, 2)}\n`),
      'M 100644 inline src/Version.php\n',
      data(`<?php\nnamespace ${ns};\n\nfinal class Version { const NAME = '${tag}'; }\n`),
      ...(i === 0 ? ['M 100644 inline README.md\n', data(`# ${packageName}\n`)] : []),
      '\n',
      `reset refs/tags/${tag}\n`,
      `from :${i + 1}\n\n`,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  const count = execFileSync('git', ['tag', '--list'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean).length;
  if (count !== tags) throw new Error(`Expected ${tags} tags in ${dir}, found ${count}`);
  // fast-import leaves one loose file per ref; a hosted repository's refs are packed by its
  // housekeeping (git gc), so every listing of them (`ls-remote`, a fetch's) reads one file, as a
  // real host's does. BENCH_LOOSE_REFS=1 keeps them loose (the runs before 2026-11-28 did).
  if (process.env.BENCH_LOOSE_REFS !== '1')
    execFileSync('git', ['pack-refs', '--all'], { cwd: dir });
  return {
    dir,
    url: `file://${dir}`,
    tags: count,
    seconds: (performance.now() - started) / 1000,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
