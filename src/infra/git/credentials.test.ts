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
