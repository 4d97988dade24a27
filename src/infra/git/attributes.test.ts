import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { archiveZip } from './archive.js';
import { attributesOf, globToRegExp, parseAttributes } from './attributes.js';
import { buildZips } from './zip-build.js';
import { readZip } from './zip.test-helpers.js';

describe('globToRegExp', () => {
  const cases: [string, boolean, string, boolean][] = [
    ['*.php', false, 'a.php', true],
    ['*.php', true, 'a/b.php', false],
    ['**/b', true, 'b', true],
    ['**/b', true, 'x/y/b', true],
    ['a/**/b', true, 'a/b', true],
    ['a/**/b', true, 'a/x/y/b', true],
    ['a/**', true, 'a/x/y', true],
    ['a/**', true, 'a', false],
    ['a**b', true, 'a/b', false],
    ['a**b', true, 'axxb', true],
    ['?.txt', true, '/.txt', false],
    ['[ab]c', true, 'bc', true],
    ['[!ab]c', true, 'bc', false],
    ['[^ab]c', true, 'xc', true],
    ['[a-c]x', true, 'bx', true],
    ['[]]', true, ']', true],
    ['[[:digit:]]', true, '7', true],
    ['[[:digit:]', true, '7', false],
    ['\\*', true, '*', true],
    ['\\*', true, 'a', false],
    ['[a/]x', true, '/x', false],
  ];
  it.each(cases)('%s (pathname %s) on %s: %s', (glob, pathname, text, matches) => {
    expect(globToRegExp(glob, pathname)?.test(text) ?? false).toBe(matches);
  });
  it('matches nothing with an unclosed set or a trailing backslash', () => {
    expect(globToRegExp('[ab', true)).toBeNull();
    expect(globToRegExp('a\\', true)).toBeNull();
  });
});

describe('parseAttributes', () => {
  it('takes the nearest file and the last matching line, and expands binary', () => {
    const root = parseAttributes('*.php export-ignore\n*.bin binary\nkeep.php -export-ignore\n');
    const sub = parseAttributes('*.php !export-ignore\n');
    const frames = [
      { base: '', file: root },
      { base: 'src/', file: sub },
    ];
    // Callers pass the files of the path's own folders only.
    const of = (p: string) =>
      Object.fromEntries(
        attributesOf(p.startsWith('src/') ? frames : frames.slice(0, 1), p, false, [
          'export-ignore',
          'diff',
        ]),
      );
    expect(of('a.php')).toEqual({ 'export-ignore': true });
    expect(of('keep.php')).toEqual({ 'export-ignore': false });
    expect(of('src/a.php')).toEqual({ 'export-ignore': null });
    expect(of('x.bin')).toEqual({ diff: false });
  });
  it('reports what it leaves to git', () => {
    expect(parseAttributes('* text=auto eol=lf\n*.png binary\n').unsupported).toBeNull();
    expect(parseAttributes('*.c ident\n').unsupported).toBe('the ident attribute');
    expect(parseAttributes('*.bat eol=crlf\n').unsupported).toBe('the eol attribute');
    expect(parseAttributes('*.psd filter=lfs diff=lfs\n').unsupported).toBe('the filter attribute');
    expect(parseAttributes('[attr]mine -diff\n').unsupported).toBe('a macro definition');
    expect(parseAttributes('*.c -ident -crlf !filter\n').unsupported).toBeNull();
  });
});

const PATTERNS = [
  '*.md',
  '/tests',
  'tests/',
  'a/**',
  '**/b',
  'src/*.php',
  '/a/b',
  'a',
  '?.txt',
  '[ab]',
  '[!a]*',
  'src/**/f.php',
  '/*/',
  'x.y',
  'a/*/g.txt',
  '**/',
  '/**/f.php',
  'docs/**/',
  '*',
  '[[:alpha:]]*.txt',
  'b/',
  '/src',
  '.hidden',
  'f.*',
];
const STATES = ['export-ignore', '-export-ignore', '!export-ignore', 'export-ignore=yes'];
const DIRS = ['a', 'b', 'src', 'tests', 'docs', 'x.y'];
const FILES = ['f.php', 'README.md', 'g.txt', '.hidden', 'a', 'b', 'x.y'];

const repo = new GitFixture('acme/attrs');
afterAll(() => repo.remove());

describe('export-ignore, differential against git archive', () => {
  it('leaves out exactly the files and folders git leaves out', async () => {
    const file = fc
      .tuple(fc.array(fc.constantFrom(...DIRS), { maxLength: 3 }), fc.constantFrom(...FILES))
      .map(([dirs, name]) => [...dirs, name].join('/'));
    const line = fc
      .tuple(fc.constantFrom(...PATTERNS), fc.constantFrom(...STATES))
      .map(([p, s]) => `${p} ${s}`);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(file, { minLength: 1, maxLength: 12 }),
        fc.array(line, { maxLength: 5 }),
        fc.array(line, { maxLength: 3 }),
        fc.constantFrom(...DIRS),
        async (files, rootLines, nestedLines, nestedDir) => {
          for (const entry of fs.readdirSync(repo.dir)) {
            if (entry !== '.git') fs.rmSync(path.join(repo.dir, entry), { recursive: true });
          }
          const taken = new Set(files);
          for (const f of files) {
            // A path cannot be both a file and a folder.
            if (files.some((o) => o.startsWith(`${f}/`))) continue;
            repo.write(f, `${f}\n`);
          }
          repo.write('.gitattributes', rootLines.join('\n') + '\n');
          if (!taken.has(nestedDir) && fs.existsSync(path.join(repo.dir, nestedDir))) {
            repo.write(`${nestedDir}/.gitattributes`, nestedLines.join('\n') + '\n');
          }
          repo.commit('case');
          const commit = repo.git('rev-parse', 'HEAD').trim();
          const git = readZip(await archiveZip(`${repo.dir}/.git`, commit)).records;
          let mine: Buffer | null = null;
          await buildZips(`${repo.dir}/.git`, [{ commit }], {}, async (_job, zip) => {
            mine = zip;
          });
          expect(mine).not.toBeNull();
          expect(readZip(mine!).records).toEqual(git);
        },
      ),
      { numRuns: 40 },
    );
  });
});
