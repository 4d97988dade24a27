import { describe, expect, it } from 'vitest';
import {
  normalizeRepositoryUrl,
  repositoryKey,
  repositoryKeys,
  repositoryUrlProblem,
} from './repository-url.js';

describe('normalizeRepositoryUrl', () => {
  const same: [string, string][] = [
    ['https://github.com/acme/lib', 'github.com/acme/lib'],
    ['https://github.com/acme/lib.git', 'github.com/acme/lib'],
    ['https://github.com/acme/lib/', 'github.com/acme/lib'],
    ['https://github.com/acme/lib.git/', 'github.com/acme/lib'],
    ['  https://GitHub.COM/Acme/Lib.git  ', 'github.com/acme/lib'],
    ['http://github.com/acme/lib', 'github.com/acme/lib'],
    ['https://github.com:443/acme/lib', 'github.com/acme/lib'],
    ['https://x-access-token:ghs_secret@github.com/acme/lib.git', 'github.com/acme/lib'],
    ['https://oauth2@gitlab.example.com/group/sub/lib.git', 'gitlab.example.com/group/sub/lib'],
    ['ssh://git@github.com/acme/lib.git', 'github.com/acme/lib'],
    ['ssh://git@github.com:22/acme/lib.git', 'github.com/acme/lib'],
    ['git+ssh://git@github.com/acme/lib.git', 'github.com/acme/lib'],
    ['git@github.com:acme/lib.git', 'github.com/acme/lib'],
    ['git@github.com:/acme/lib.git', 'github.com/acme/lib'],
    ['GIT@GitHub.com:Acme/Lib', 'github.com/acme/lib'],
    ['github.com:acme/lib.git', 'github.com/acme/lib'],
    ['git://github.com/acme/lib.git', 'github.com/acme/lib'],
    ['git://github.com:9418/acme/lib.git', 'github.com/acme/lib'],
    ['https://bitbucket.org/acme/lib', 'bitbucket.org/acme/lib'],
    ['git@bitbucket.org:acme/lib.git', 'bitbucket.org/acme/lib'],
    ['https://github.com//acme//lib.git', 'github.com/acme/lib'],
    ['https://github.com/acme/my%20lib.git', 'github.com/acme/my lib'],
  ];
  it.each(same)('%s -> %s', (input, expected) => {
    expect(normalizeRepositoryUrl(input)).toBe(expected);
  });

  it('keeps ports other than the scheme default', () => {
    expect(normalizeRepositoryUrl('http://127.0.0.1:8080/acme/lib.git')).toBe(
      '127.0.0.1:8080/acme/lib',
    );
    expect(normalizeRepositoryUrl('ssh://git@git.example.com:2222/acme/lib.git')).toBe(
      'git.example.com:2222/acme/lib',
    );
    expect(normalizeRepositoryUrl('https://git.example.com:8443/acme/lib')).toBe(
      'git.example.com:8443/acme/lib',
    );
  });

  it('tells different hosts, owners and repositories apart', () => {
    const forms = [
      'https://github.com/acme/lib',
      'https://gitlab.com/acme/lib',
      'https://github.com/other/lib',
      'https://github.com/acme/lib2',
      'https://github.com/acme/lib/sub',
      'http://127.0.0.1:8081/acme/lib',
    ].map(normalizeRepositoryUrl);
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('leaves local paths and file URLs comparable to themselves, and never throws', () => {
    expect(normalizeRepositoryUrl('file:///tmp/Repo.git/')).toBe('file:///tmp/repo');
    expect(normalizeRepositoryUrl('/srv/git/lib.git')).toBe('/srv/git/lib');
    expect(normalizeRepositoryUrl('C:\\repos\\lib')).toBe('c:\\repos\\lib');
    expect(normalizeRepositoryUrl('')).toBe('');
    expect(normalizeRepositoryUrl('https://')).toBe('https:');
    expect(normalizeRepositoryUrl('https://github.com/%E0%A4%A')).toBe('github.com/%e0%a4%a');
  });

  it('collects the distinct keys of the string candidates only', () => {
    expect(
      repositoryKeys([
        'https://github.com/acme/lib.git',
        'git@github.com:acme/lib.git',
        'git://github.com/acme/lib.git',
        null,
        42,
        '',
        { url: 'x' },
      ]),
    ).toEqual(['github.com/acme/lib']);
  });

  it('keeps keys short: a form over 512 bytes is stored as its SHA-256', () => {
    expect(repositoryKey('https://GitHub.com/Acme/Lib.git')).toBe('github.com/acme/lib');
    const long = repositoryKey(`https://host.test/${'%C3%A9'.repeat(300)}`);
    expect(long).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(repositoryKey(`git@host.test:${'é'.repeat(300)}.git`)).toBe(long);
  });
});

describe('repositoryUrlProblem', () => {
  it.each([
    'https://github.com/acme/lib.git',
    'http://git.example.com:8080/acme/lib',
    'ssh://git@bitbucket.org/acme/lib.git',
    'git+ssh://git@host/acme/lib',
    'git://host/acme/lib',
    'git@github.com:acme/lib.git',
    'host.example:acme/lib',
    'file:///srv/git/lib.git',
    '/srv/git/My Repos/lib.git',
  ])('accepts %s', (url) => {
    expect(repositoryUrlProblem(url)).toBeNull();
  });

  it.each([
    ['--upload-pack=touch /tmp/x', /is not a git URL/],
    ['ext::sh -c touch% /tmp/x', /is not a git URL/],
    ['fd::3', /is not a git URL/],
    ['ftp://host/acme/lib', /unsupported scheme ftp/],
    ['https://', /not a valid URL|names no host/],
    ['relative/path/lib', /is not a git URL/],
    ['C:\\repos\\lib', /is not a git URL/],
    ['https://host/acme/lib\nx', /control characters/],
    ['not a url', /is not a git URL/],
  ])('refuses %s', (url, why) => {
    expect(repositoryUrlProblem(url)).toMatch(why);
  });
});

describe('repositoryUrlProblem without local repositories', () => {
  it.each(['file:///srv/git/lib.git', '/srv/git/lib.git'])('refuses %s', (url) => {
    expect(repositoryUrlProblem(url, false)).toMatch(/on the server itself/);
  });

  it('still accepts remote URLs', () => {
    expect(repositoryUrlProblem('https://github.com/acme/lib.git', false)).toBeNull();
    expect(repositoryUrlProblem('git@github.com:acme/lib.git', false)).toBeNull();
  });
});
