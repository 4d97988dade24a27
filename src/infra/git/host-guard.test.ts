import { describe, expect, it } from 'vitest';
import { assertPublicGitHost, assertRepositoryAllowed, isLocalRepository } from './host-guard.js';

const lookup = (addresses: string[]) => async () => addresses.map((address) => ({ address }));
const never = async (): Promise<{ address: string }[]> => {
  throw new Error('a local repository must not be looked up');
};

describe('isLocalRepository', () => {
  it('is true for file:// URLs and absolute paths only', () => {
    for (const url of ['file:///srv/repos/lib.git', 'FILE:///srv/lib', '/srv/repos/lib.git']) {
      expect(isLocalRepository(url), url).toBe(true);
    }
    for (const url of [
      'https://git.example.test/a.git',
      'ssh://git@git.example.test/a.git',
      'git@git.example.test:a/b.git',
      'git://git.example.test/a.git',
    ]) {
      expect(isLocalRepository(url), url).toBe(false);
    }
  });
});

describe('assertRepositoryAllowed', () => {
  const cloud = { allowLocalRepositories: false, blockPrivateGitHosts: true };
  const cloudWithLocal = { allowLocalRepositories: true, blockPrivateGitHosts: true };

  it('lets local repositories through when ALLOW_LOCAL_REPOSITORIES is on, whatever BLOCK_PRIVATE_GIT_HOSTS says', async () => {
    for (const url of ['file:///srv/repos/lib.git', '/srv/repos/lib.git']) {
      await expect(assertRepositoryAllowed(url, cloudWithLocal, never)).resolves.toBeNull();
      await expect(
        assertRepositoryAllowed(url, { ...cloudWithLocal, blockPrivateGitHosts: false }, never),
      ).resolves.toBeNull();
    }
  });

  it('refuses local repositories when ALLOW_LOCAL_REPOSITORIES is off, whatever BLOCK_PRIVATE_GIT_HOSTS says', async () => {
    for (const settings of [cloud, { ...cloud, blockPrivateGitHosts: false }]) {
      await expect(assertRepositoryAllowed('/srv/lib.git', settings, never)).rejects.toThrow(
        'Repository unreachable: /srv/lib.git (repositories on the server itself are not ' +
          'allowed: ALLOW_LOCAL_REPOSITORIES is off)',
      );
    }
  });

  it('checks network hosts only when BLOCK_PRIVATE_GIT_HOSTS is on, naming the refused host', async () => {
    const url = 'https://git.internal.test/a.git';
    await expect(
      assertRepositoryAllowed(url, cloudWithLocal, lookup(['10.0.0.7'])),
    ).rejects.toThrow(
      'Repository unreachable: https://git.internal.test/a.git (the host git.internal.test is on a ' +
        'private network; hosts on private networks are not allowed)',
    );
    await expect(
      assertRepositoryAllowed(url, { ...cloudWithLocal, blockPrivateGitHosts: false }, never),
    ).resolves.toBeNull();
    await expect(
      assertRepositoryAllowed(url, cloudWithLocal, lookup(['140.82.121.3'])),
    ).resolves.toEqual({ host: 'git.internal.test', port: 443, address: '140.82.121.3' });
  });
});

describe('assertPublicGitHost', () => {
  it('names the refused host, for addresses and names alike', async () => {
    await expect(assertPublicGitHost('git@10.1.2.3:a/b.git', never)).rejects.toThrow(
      /\(the host 10\.1\.2\.3 is on a private network; hosts on private networks are not allowed\)$/,
    );
    await expect(assertPublicGitHost('ssh://git@[fd00::5]/a.git', never)).rejects.toThrow(
      /the host fd00::5 is on a private network/,
    );
  });

  it('has no host to check in a local repository', async () => {
    await expect(assertPublicGitHost('file:///srv/lib.git', never)).resolves.toBeNull();
  });
});
