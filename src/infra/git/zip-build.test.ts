import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { listRefs } from './refs.js';
import { archiveZip } from './archive.js';
import { buildZips, type ZipJob } from './zip-build.js';
import { readZip, releasesRepo, unpack } from './zip.test-helpers.js';

const repo = new GitFixture('acme/zips');
const commits: string[] = [];
afterAll(() => repo.remove());

/** Our zips of `jobs`, by `commit:subdir`. */
async function ours(jobs: ZipJob[]) {
  const zips = new Map<string, Buffer>();
  const result = await buildZips(`${repo.dir}/.git`, jobs, {}, async (job, zip) => {
    zips.set(`${job.commit}:${job.subdir ?? ''}`, zip);
  });
  return { zips, ...result };
}

function expectSameArchive(mine: Buffer | undefined, git: Buffer) {
  expect(mine).toBeDefined();
  const a = readZip(mine!);
  const b = readZip(git);
  expect(a.comment).toBe(b.comment);
  expect(a.records).toEqual(b.records);
  expect(unpack(mine!)).toEqual(unpack(git));
}

beforeAll(() => {
  const r = repo;
  r.composerJson();
  r.write('src/Lib.php', '<?php\nclass Lib {}\n');
  r.write('src/Internal/Secret.php', '<?php // internal\n');
  r.write('bin/tool', '#!/bin/sh\necho tool\n');
  fs.chmodSync(path.join(r.dir, 'bin/tool'), 0o755);
  fs.symlinkSync('src/Lib.php', path.join(r.dir, 'lib-link'));
  fs.symlinkSync('../missing', path.join(r.dir, 'dangling'));
  r.write('empty.txt', '');
  r.write('data.bin', Buffer.from([1, 0, 2, 0, 3]).toString('latin1'));
  r.write('notes.dat', 'text marked -diff\n');
  r.write('docs-ü/naïve guide.md', '# unicode and spaces\n');
  r.write('big/large.txt', 'x'.repeat(200_000) + '\n');
  r.write('big/random.raw', crypto.randomBytes(4096).toString('latin1'));
  r.write('tests/LibTest.php', '<?php // test\n');
  r.write('docs/guide.txt', 'docs\n');
  r.write('only-ignored/README.md', 'ignored file only\n');
  r.write('nested/deep/fixtures/a.json', '{}\n');
  r.write('nested/keep.txt', 'kept\n');
  r.write('build/out/x.o', 'obj\n');
  r.write('build/keep', 'not under build/**? it is\n');
  r.write(
    '.gitattributes',
    [
      '# comment',
      '/tests export-ignore',
      '*.md export-ignore',
      'docs/ export-ignore',
      '/build/** export-ignore',
      '**/fixtures export-ignore',
      '*.bin binary',
      '*.dat -diff',
      '*.txt diff text=auto eol=lf',
      '!negated export-ignore',
      '',
    ].join('\n'),
  );
  r.write(
    'src/.gitattributes',
    'Internal export-ignore\nLib.php -export-ignore linguist-vendored\n',
  );
  r.commit('first');
  r.git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/sub`);
  r.git('commit', '-q', '-m', 'submodule');
  commits.push(r.git('rev-parse', 'HEAD').trim());
  r.write('src/Lib.php', '<?php\nclass Lib { /* v2 */ }\n').commit('second');
  commits.push(r.git('rev-parse', 'HEAD').trim());
  r.write('.gitattributes', '*.md export-ignore\n').commit('third');
  commits.push(r.git('rev-parse', 'HEAD').trim());
  r.child('packages/a', 'acme/a', '1.0.0');
  r.write('packages/a/.gitattributes', '/src/Version.php export-ignore\n');
  r.write('packages/a/tool.sh', '#!/bin/sh\n');
  fs.chmodSync(path.join(r.dir, 'packages/a/tool.sh'), 0o755);
  r.commit('child');
  commits.push(r.git('rev-parse', 'HEAD').trim());
});

describe('buildZips', () => {
  it('unpacks to what git archive holds: files, bytes, modes, symlinks, export-ignore', async () => {
    const { zips, fallback, blobs } = await ours(commits.map((commit) => ({ commit })));
    expect(fallback).toEqual([]);
    const git = `${repo.dir}/.git`;
    for (const commit of commits) {
      expectSameArchive(zips.get(`${commit}:`), await archiveZip(git, commit));
    }
    const listing = unpack(zips.get(`${commits[0]}:`)!);
    expect(listing).toEqual(expect.arrayContaining(['lib-link -> src/Lib.php', 'vendor/sub/']));
    expect(listing.find((l) => l.startsWith('bin/tool '))).toMatch(/ x /);
    expect(listing.some((l) => l.startsWith('tests') || l.includes('Internal'))).toBe(false);
    // Each distinct blob was read and compressed once for all four versions.
    const distinct = new Set(
      commits.flatMap((c) =>
        repo
          .git('ls-tree', '-r', c)
          .split('\n')
          .filter((l) => / blob /.test(l))
          .map((l) => `${l.split(/\s+/)[2]}${l.startsWith('120000') ? ':l' : ''}`),
      ),
    );
    expect(blobs).toBeLessThanOrEqual(distinct.size);
  });

  it('zips a folder of a commit as git archive of that folder does (monorepo children)', async () => {
    const commit = commits[3]!;
    const jobs = [
      { commit, subdir: 'packages/a' },
      { commit, subdir: 'src' },
    ];
    const { zips, fallback } = await ours(jobs);
    expect(fallback).toEqual([]);
    for (const job of jobs) {
      const git = await archiveZip(`${repo.dir}/.git`, commit, { subdir: job.subdir });
      const mine = zips.get(`${commit}:${job.subdir}`)!;
      // git names its synthetic commit in the comment; ours names the commit the folder is from.
      expect(readZip(mine).comment).toBe(commit);
      expect(readZip(mine).records).toEqual(readZip(git).records);
      expect(unpack(mine)).toEqual(unpack(git));
    }
  });

  it('is deterministic: the same job gives the same bytes', async () => {
    const a = await ours([{ commit: commits[1]! }]);
    const b = await ours([{ commit: commits[1]! }, { commit: commits[0]! }]);
    expect(a.zips.get(`${commits[1]}:`)?.equals(b.zips.get(`${commits[1]}:`)!)).toBe(true);
  });

  it('leaves to git the trees whose attributes change file contents', async () => {
    repo.write('.gitattributes', 'version.txt export-subst\n');
    repo.write('version.txt', '$Format:%H$\n').commit('subst');
    const subst = repo.git('rev-parse', 'HEAD').trim();
    const { zips, fallback } = await ours([{ commit: subst }, { commit: commits[2]! }]);
    expect(fallback).toEqual([
      { job: { commit: subst }, reason: '.gitattributes has the export-subst attribute' },
    ]);
    expect(zips.has(`${commits[2]}:`)).toBe(true);
  });

  it('zips hundreds of versions, reading each distinct blob once', async () => {
    const many = releasesRepo(300);
    try {
      const { tags } = await listRefs(many.dir);
      const zips = new Map<string, Buffer>();
      const { fallback, blobs } = await buildZips(
        many.dir,
        tags.map((t) => ({ commit: t.commit })),
        { concurrency: 3 },
        async (job, zip) => {
          zips.set(job.commit, zip);
        },
      );
      expect(fallback).toEqual([]);
      expect(zips.size).toBe(300);
      // composer.json and src/Version.php change with every release; README.md never does.
      expect(blobs).toBe(601);
      for (const t of [tags[0]!, tags[150]!, tags[299]!]) {
        expectSameArchive(zips.get(t.commit), await archiveZip(many.dir, t.commit));
      }
    } finally {
      many.remove();
    }
  });

  it('leaves every zip to git when the mirror has attributes of its own', async () => {
    const info = path.join(repo.dir, '.git', 'info', 'attributes');
    fs.mkdirSync(path.dirname(info), { recursive: true });
    fs.writeFileSync(info, '*.php export-ignore\n');
    try {
      const { zips, fallback } = await ours([{ commit: commits[0]! }]);
      expect(zips.size).toBe(0);
      expect(fallback).toEqual([
        { job: { commit: commits[0] }, reason: 'the mirror has info/attributes' },
      ]);
    } finally {
      fs.rmSync(info);
    }
  });

  it('fails like git archive on an unknown commit or folder', async () => {
    await expect(ours([{ commit: '0'.repeat(40) }])).rejects.toThrow(/not found/);
    await expect(ours([{ commit: commits[0]!, subdir: 'nope' }])).rejects.toThrow(/not found/);
    await expect(ours([{ commit: 'HEAD' }])).rejects.toThrow(/full commit ids/);
  });
});
