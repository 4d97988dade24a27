import { afterAll, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { findComposerFolders } from './folders.js';
import { ObjectReader } from './object-reader.js';
import { listDirectories } from './tree.js';

const repo = new GitFixture('acme/mono');
afterAll(() => repo.remove());

const GLOBS = [
  ['packages/*'],
  ['packages/*', 'tools/*/'],
  ['**'],
  ['pack*/?'],
  ['libs/**'],
  ['./packages/a', '/tools/x'],
  ['.'],
  ['**/deep'],
  ['nothing/*'],
];

describe('findComposerFolders', () => {
  it('finds at every commit the folders listDirectories (git ls-tree) finds', async () => {
    const commits: string[] = [];
    const snapshot = () => commits.push(repo.commit('step').git('rev-parse', 'HEAD').trim());
    repo.composerJson();
    repo.child('packages/a', 'acme/a', '1.0.0').child('packages/b', 'acme/b', '1.0.0');
    repo.child('tools/x', 'acme/x', '1.0.0').child('pack/z', 'acme/z', '1.0.0');
    snapshot();
    repo.child('libs/one/deep', 'acme/deep', '1.0.0').child('packages/ü', 'acme/u', '1.0.0');
    repo.write('packages/c/README.md', 'no composer.json here\n');
    snapshot();
    repo.git('rm', '-r', '-q', 'packages/a');
    repo.child('libs/two', 'acme/two', '1.0.0');
    snapshot();
    const dir = `${repo.dir}/.git`;
    const reader = new ObjectReader(dir);
    try {
      for (const globs of GLOBS) {
        const found = await findComposerFolders(reader, commits, globs);
        for (const commit of commits) {
          expect(found.get(commit), `${globs.join(', ')} at ${commit}`).toEqual(
            await listDirectories(dir, commit, globs),
          );
        }
      }
    } finally {
      await reader.close();
    }
  });
});
