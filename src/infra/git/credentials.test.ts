import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHost } from '../../../test/fakes/git-host.js';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { GitError, listRefs, mirrorRepository } from './index.js';

describe('cloning a private repository over HTTPS with credentials', () => {
  let host: FakeGitHost;
  let url: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-creds-'));

  beforeAll(async () => {
    host = await FakeGitHost.start();
    const repo = new GitFixture('acme/secret').release('v1.0.0');
    url = host.serve('acme/secret', repo.dir, (u, p) => u === 'x-access-token' && p === 'tok-1');
  });
  afterAll(async () => {
    await host.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('is refused without credentials, as an authentication failure', async () => {
    const err = await mirrorRepository(url, path.join(work, 'none.git')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as GitError).kind).toBe('auth');
  });

  it('clones and fetches with them, and never writes the token into the mirror', async () => {
    const dir = path.join(work, 'ok.git');
    const credentials = { username: 'x-access-token', password: 'tok-1' };
    await mirrorRepository(url, dir, { credentials });
    await mirrorRepository(url, dir, { credentials });
    expect((await listRefs(dir)).tags.map((t) => t.name)).toEqual(['v1.0.0']);
    expect(fs.readFileSync(path.join(dir, 'config'), 'utf8')).not.toContain('tok-1');
    expect(host.requests.some((r) => r.basic?.password === 'tok-1')).toBe(true);
  });
});

describe('a pinned host (BLOCK_PRIVATE_GIT_HOSTS)', () => {
  let host: FakeGitHost;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-pin-'));

  beforeAll(async () => {
    host = await FakeGitHost.start();
    host.serve('acme/pinned', new GitFixture('acme/pinned').release('v1.0.0').dir);
    host.route('GET', /^\/moved\//, (_req, res) => {
      res.writeHead(302, {
        location: `${host.url}/acme/pinned.git/info/refs?service=git-upload-pack`,
      });
      res.end();
    });
  });
  afterAll(async () => {
    await host.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const port = () => Number(new URL(host.url).port);

  it('connects to the checked address, whatever the name resolves to now', async () => {
    // `.invalid` never resolves (RFC 6761): only the pin can take git to the fake host.
    const url = `http://git.pinned.invalid:${port()}/acme/pinned.git`;
    const unpinned = await mirrorRepository(url, path.join(work, 'unpinned.git')).catch(
      (e: unknown) => e,
    );
    expect(unpinned).toBeInstanceOf(GitError);
    const dir = path.join(work, 'pinned.git');
    await mirrorRepository(url, dir, {
      pin: { host: 'git.pinned.invalid', port: port(), address: '127.0.0.1' },
    });
    expect((await listRefs(dir)).tags.map((t) => t.name)).toEqual(['v1.0.0']);
  });

  it('follows no redirect, which would reach a host nobody checked', async () => {
    const url = `http://git.pinned.invalid:${port()}/moved/acme/pinned.git`;
    const pin = { host: 'git.pinned.invalid', port: port(), address: '127.0.0.1' };
    const err = await mirrorRepository(url, path.join(work, 'moved.git'), { pin }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GitError);
    expect(host.requests.some((r) => r.path.startsWith('/moved/'))).toBe(true);
  });
});
