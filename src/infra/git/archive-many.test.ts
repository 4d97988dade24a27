import { afterAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { archiveZip, archiveZips, GitError, listRefs } from './index.js';

const repo = new GitFixture('acme/many');
afterAll(() => repo.remove());

describe('archiveZips', () => {
  it('makes the same bytes as archiveZip for every commit, in one batch', async () => {
    for (const v of ['1.0.0', '1.1.0', '1.2.0', '2.0.0']) repo.release(v);
    const dir = `${repo.dir}/.git`;
    const { tags } = await listRefs(dir);
    const commits = tags.map((t) => t.commit);
    const zips = await archiveZips(dir, [...commits, commits[0] ?? ''], { concurrency: 2 });
    expect(zips.size).toBe(4);
    for (const commit of commits) {
      expect(zips.get(commit)?.equals(await archiveZip(dir, commit))).toBe(true);
    }
  });

  it('refuses abbreviated ids and fails on an unknown commit', async () => {
    const dir = `${repo.dir}/.git`;
    await expect(archiveZips(dir, ['abc123'])).rejects.toBeInstanceOf(GitError);
    await expect(archiveZips(dir, ['0'.repeat(40)])).rejects.toBeInstanceOf(GitError);
  });
});
