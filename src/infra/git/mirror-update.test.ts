import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { listRefs, mirrorRepository } from './index.js';
import { readClonedListing, readRefFiles } from './ref-files.js';

const repo = new GitFixture('acme/moving');
const mirrors: string[] = [];
afterAll(() => {
  repo.remove();
  mirrors.forEach((m) => fs.rmSync(m, { recursive: true, force: true }));
});

function mirrorDir(): string {
  const dir = fs.mkdtempSync(path.join(repo.dir, '..', 'packyard-mirror-'));
  mirrors.push(dir);
  return path.join(dir, 'm.git');
}

/** What git itself lists, without refs pointing at anything but commits (as listRefs skips). */
async function expectSameAsGit(
  answered: Awaited<ReturnType<typeof mirrorRepository>>,
  dir: string,
) {
  expect(answered).not.toBeNull();
  expect(answered).toEqual(await listRefs(dir));
}

describe('updating a mirror', () => {
  it('fetches what moved and answers the refs git would list', async () => {
    repo.release('1.0.0').release('1.1.0');
    repo.tag('annotated-1.1', true);
    const dir = mirrorDir();
    // A first clone answers the refs its packed-refs file lists.
    await expectSameAsGit(await mirrorRepository(repo.url, dir), dir);
    expect(await mirrorRepository(repo.url, dir)).toEqual(await listRefs(dir)); // nothing moved

    repo.release('1.2.0');
    repo.tag('annotated-1.2', true);
    repo.git('tag', '-d', '1.0.0');
    repo.git('tag', 'tree-tag', 'HEAD^{tree}');
    repo.git('branch', 'develop');
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/develop');
    const answered = await mirrorRepository(repo.url, dir);
    // A tag of a tree is listed (its reader skips it); git lists commits only.
    expect(answered?.tags.map((t) => t.name)).toContain('tree-tag');
    const withoutTree = { ...answered!, tags: answered!.tags.filter((t) => t.name !== 'tree-tag') };
    await expectSameAsGit(withoutTree, dir);
    expect(answered?.defaultBranch).toBe('develop');
    const files = await readRefFiles(dir);
    expect(files?.has('refs/tags/1.0.0')).toBe(false);
    expect(files?.get('refs/tags/1.2.0')).toBe(repo.git('rev-parse', '1.2.0').trim());
    // A clone of the same: the tag of a tree listed as well, the rest as git lists it.
    const cloned = await mirrorRepository(repo.url, mirrorDir());
    expect(cloned).toEqual(answered);
    repo.git('tag', '-d', 'tree-tag');
  });

  it('lists a clone from its packed-refs, and leaves it to git when they are not all peeled there', async () => {
    repo.git('tag', '-a', 'nested-inner', '-m', 'inner', 'HEAD');
    repo.git('tag', '-a', 'nested-outer', '-m', 'outer', 'nested-inner');
    const dir = mirrorDir();
    const cloned = await mirrorRepository(repo.url, dir);
    // A tag of a tag lists the commit it finally names, as listRefs does.
    await expectSameAsGit(cloned, dir);
    expect(cloned?.tags.find((t) => t.name === 'nested-outer')?.commit).toBe(
      repo.git('rev-parse', 'HEAD').trim(),
    );
    repo.git('tag', '-d', 'nested-inner', 'nested-outer');
    expect(await readClonedListing(dir)).not.toBeNull();
    // A loose ref (which packed-refs does not peel): git must list.
    fs.writeFileSync(path.join(dir, 'refs', 'tags', 'loose'), repo.git('rev-parse', 'HEAD'));
    expect(await readClonedListing(dir)).toBeNull();
    fs.rmSync(path.join(dir, 'refs', 'tags', 'loose'));
    const packed = fs.readFileSync(path.join(dir, 'packed-refs'), 'latin1');
    fs.writeFileSync(path.join(dir, 'packed-refs'), packed.replace(' fully-peeled', ''));
    expect(await readClonedListing(dir)).toBeNull();
  });

  it('follows many moved refs at once, and after packing refs', async () => {
    const dir = mirrorDir();
    await mirrorRepository(repo.url, dir);
    for (let i = 0; i < 120; i++) repo.git('tag', `bulk-${i}`);
    await expectSameAsGit(await mirrorRepository(repo.url, dir), dir);
    expect((await listRefs(dir)).tags.map((t) => t.name)).toContain('bulk-119');
    execFileSync('git', ['--git-dir', dir, 'pack-refs', '--all']);
    repo.git('tag', '-d', 'bulk-0');
    await expectSameAsGit(await mirrorRepository(repo.url, dir), dir);
    expect((await listRefs(dir)).tags.map((t) => t.name)).not.toContain('bulk-0');
  });
});
