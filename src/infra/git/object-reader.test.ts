import { afterAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { GitError } from './errors.js';
import { ObjectReader } from './object-reader.js';

const repo = new GitFixture('acme/reader');
repo.write('big.txt', 'x'.repeat(300_000)).write('small.txt', 'small\n').commit('files');
const dir = `${repo.dir}/.git`;
afterAll(() => repo.remove());

describe('ObjectReader', () => {
  it('answers many reads in flight in order, skipping bodies over the limit', async () => {
    const reader = new ObjectReader(dir);
    try {
      const [commit, big, small, missing, bigAgain] = await Promise.all([
        reader.read('HEAD'),
        reader.read('HEAD:big.txt', 1000),
        reader.read('HEAD:small.txt', 1000),
        reader.read('HEAD:nope'),
        reader.read('HEAD:big.txt'),
      ]);
      expect(commit?.type).toBe('commit');
      expect(big).toMatchObject({ type: 'blob', size: 300_000, content: null });
      expect(small?.content?.toString()).toBe('small\n');
      expect(missing).toBeNull();
      expect(bigAgain?.content?.length).toBe(300_000);
      // Reads issued later in the same process still line up with their answers.
      expect((await reader.read('HEAD:small.txt'))?.content?.toString()).toBe('small\n');
    } finally {
      await reader.close();
    }
  });

  it('fails pending reads when its task is stopped, and refuses names git cannot take', async () => {
    const controller = new AbortController();
    const reader = new ObjectReader(dir, { signal: controller.signal });
    await expect(reader.read('bad\nname')).rejects.toBeInstanceOf(GitError);
    const pending = reader.read('HEAD:big.txt');
    controller.abort(new Error('lease lost'));
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    await expect(reader.read('HEAD')).rejects.toMatchObject({ kind: 'aborted' });
    await reader.close();
  });

  it('answers a commit or tree read again by its id as git does, whatever came between', async () => {
    const reader = new ObjectReader(dir);
    try {
      const tree = await reader.read('HEAD^{tree}');
      const commit = await reader.read('HEAD');
      // Many reads between (buffers reused), then the same objects by id.
      await Promise.all(Array.from({ length: 50 }, () => reader.read('HEAD:small.txt')));
      const [treeAgain, commitAgain] = await Promise.all([
        reader.read(tree!.oid),
        reader.read(commit!.oid),
      ]);
      expect(treeAgain).toEqual(tree);
      expect(commitAgain).toEqual(commit);
      expect(commitAgain?.content.toString('latin1')).toContain(`tree ${tree!.oid}`);
    } finally {
      await reader.close();
    }
  });

  it('answers a small blob read again by its id from what it kept, honouring the limit', async () => {
    const reader = new ObjectReader(dir);
    try {
      const small = await reader.read('HEAD:small.txt');
      await Promise.all(Array.from({ length: 20 }, () => reader.read('HEAD:big.txt')));
      const [again, limited] = await Promise.all([
        reader.read(small!.oid),
        reader.read(small!.oid, 3),
      ]);
      expect(again).toEqual(small);
      expect(limited).toEqual({ oid: small!.oid, type: 'blob', size: 6, content: null });
    } finally {
      await reader.close();
    }
  });
});
