import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GitError,
  archiveZip,
  findReadme,
  listDirectories,
  listRefs,
  mirrorRepository,
  readFileAtCommit,
  readFilesAtCommits,
  redactCredentials,
} from './index.js';
import { gitStarts } from './launcher.js';

// Every process started (through the launcher or not), to count how many an operation starts.
const starts: (readonly string[])[] = [];
gitStarts.subscribe((message) => starts.push((message as { args: readonly string[] }).args));

function gitSubcommands(): string[] {
  return starts.map((args) => args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? '');
}

// Hermetic fixtures: fixed identity and dates, no user/system config.
const BASE_TIME = 1_600_000_000;
let clock = BASE_TIME;

function fixtureEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('GIT_')) delete env[k];
  const date = `@${clock} +0200`;
  return {
    ...env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Committer',
    GIT_COMMITTER_EMAIL: 'committer@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, env: fixtureEnv(), input, encoding: 'utf8' }).trim();
}

async function write(repo: string, file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(repo, file)), { recursive: true });
  await fs.writeFile(path.join(repo, file), content);
}

function commitAll(repo: string, message: string): string {
  clock += 3600;
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', message]);
  return git(repo, ['rev-parse', 'HEAD']);
}

const composer = (name: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ name, ...extra }, null, 2) + '\n';

/** Minimal zip reader (central directory only): entry names and DOS timestamps. */
function zipEntries(zip: Buffer): { name: string; dosTime: number; dosDate: number }[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(eocd + 10);
  let pos = zip.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(pos)).toBe(0x02014b50);
    const nameLen = zip.readUInt16LE(pos + 28);
    const extraLen = zip.readUInt16LE(pos + 30);
    const commentLen = zip.readUInt16LE(pos + 32);
    entries.push({
      name: zip.toString('utf8', pos + 46, pos + 46 + nameLen),
      dosTime: zip.readUInt16LE(pos + 12),
      dosDate: zip.readUInt16LE(pos + 14),
    });
    pos += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function dosDateTime(epochSeconds: number): { dosTime: number; dosDate: number } {
  const d = new Date(epochSeconds * 1000);
  return {
    dosTime: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    dosDate: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

let root: string;
let source: string; // a regular repository with tags, branches, a monorepo layout
let many: string; // 500 tags built with fast-import
let notRepo: string;
const commits: Record<string, string> = {};
const MANY_TAGS = 500;
const UNICODE = 'Ünïcødé — 日本語 🎉';
const BIG = `${UNICODE}\n`.repeat(100_000); // ~3 MB, multi-byte characters across pipe chunks

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'packyard-git-test-'));
  source = path.join(root, 'source');
  many = path.join(root, 'many');
  notRepo = path.join(root, 'not-a-repo');
  await fs.mkdir(source);
  await fs.mkdir(notRepo);
  await write(notRepo, 'file.txt', 'hello');

  git(source, ['init', '-q', '-b', 'main']);
  await write(source, 'composer.json', composer('acme/root'));
  await write(source, 'README.md', `# Root\n${UNICODE}\n`);
  await write(source, 'readme.txt', 'not preferred\n');
  await write(source, 'packages/a/composer.json', composer('acme/a'));
  await write(source, 'packages/a/src/A.php', '<?php class A {}\n');
  await write(source, 'packages/b/composer.json', composer('acme/b', { description: UNICODE }));
  await write(source, 'packages/c/notes.txt', 'no composer.json here\n');
  await write(source, 'tools/x/composer.json', composer('acme/tool'));
  await write(source, 'big.txt', BIG);
  commits.first = commitAll(source, 'first');
  git(source, ['tag', 'v1.0.0']);
  git(source, ['tag', '-a', 'v1.1.0', '-m', 'annotated']);
  git(source, ['-c', 'advice.nestedTag=false', 'tag', '-a', 'nested', '-m', 'nested', 'v1.1.0']);

  await write(source, 'composer.json', '{ "name": "acme/root", broken');
  commits.broken = commitAll(source, 'broken composer.json');
  git(source, ['tag', 'v2.0.0-broken']);

  git(source, ['checkout', '-q', '-b', 'develop']);
  await write(source, 'composer.json', composer('acme/root', { extra: 'develop' }));
  commits.develop = commitAll(source, 'develop work');
  git(source, ['checkout', '-q', 'main']);

  // 500 tagged commits in one fast-import run, each composer.json with multi-byte content.
  await fs.mkdir(many);
  git(many, ['init', '-q', '-b', 'main']);
  let stream = '';
  for (let i = 1; i <= MANY_TAGS; i++) {
    const content = composer('acme/many', { version: `1.0.${i}`, description: `${UNICODE} #${i}` });
    const msg = `release ${i}\n`;
    stream +=
      `commit refs/heads/main\nmark :${i}\n` +
      `committer Test <t@example.com> ${BASE_TIME + i} +0000\n` +
      `data ${Buffer.byteLength(msg)}\n${msg}` +
      `M 100644 inline composer.json\ndata ${Buffer.byteLength(content)}\n${content}\n` +
      `reset refs/tags/v1.0.${i}\nfrom :${i}\n\n`;
  }
  git(many, ['fast-import', '--quiet'], stream);
}, 60_000);

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function siblings(dir: string): Promise<string[]> {
  return (await fs.readdir(path.dirname(dir))).filter((n) => n.includes('.tmp-'));
}

describe('mirrorRepository', () => {
  it('mirrors from a local path and from a file:// URL', async () => {
    const a = path.join(root, 'mirrors', 'by-path.git');
    const b = path.join(root, 'mirrors', 'by-url.git');
    await mirrorRepository(source, a);
    await mirrorRepository(pathToFileURL(source).href, b);
    const [refsA, refsB] = await Promise.all([listRefs(a), listRefs(b)]);
    expect(refsA).toEqual(refsB);
    expect(refsA.tags.map((t) => t.name)).toContain('v1.0.0');
    expect(await siblings(a)).toEqual([]);
  });

  it('picks up new tags, prunes deleted ones and follows a default-branch change', async () => {
    const work = path.join(root, 'work-prune');
    git(root, ['clone', '-q', source, work]);
    const mirror = path.join(root, 'mirrors', 'prune.git');
    await mirrorRepository(work, mirror);
    expect((await listRefs(mirror)).tags.map((t) => t.name)).toContain('v1.0.0');

    git(work, ['tag', 'v9.0.0']);
    git(work, ['tag', '-d', 'v1.0.0']);
    git(work, ['branch', '-q', 'develop', 'origin/develop']);
    git(work, ['symbolic-ref', 'HEAD', 'refs/heads/develop']);
    await mirrorRepository(work, mirror);

    const refs = await listRefs(mirror);
    const names = refs.tags.map((t) => t.name);
    expect(names).toContain('v9.0.0');
    expect(names).not.toContain('v1.0.0');
    expect(refs.defaultBranch).toBe('develop');
  });

  it('fails with GitError for a non-repository and leaves an existing mirror intact', async () => {
    const mirror = path.join(root, 'mirrors', 'intact.git');
    await mirrorRepository(source, mirror);
    const before = await listRefs(mirror);

    const err = await mirrorRepository(notRepo, mirror).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    const gitErr = err as GitError;
    expect(gitErr.kind).toBe('not-found');
    expect(gitErr.message).toContain(`Repository not found or not a git repository: ${notRepo}`);
    expect(gitErr.stderr).not.toBe('');

    expect(await listRefs(mirror)).toEqual(before);
    const url = execFileSync('git', ['--git-dir', mirror, 'config', 'remote.origin.url']);
    expect(url.toString().trim()).toBe(source);
    await mirrorRepository(source, mirror); // still updatable
  });

  it('leaves nothing behind when a first clone fails', async () => {
    const mirror = path.join(root, 'mirrors', 'never.git');
    await expect(mirrorRepository(path.join(root, 'missing'), mirror)).rejects.toThrow(GitError);
    await expect(fs.stat(mirror)).rejects.toThrow();
    expect(await siblings(mirror)).toEqual([]);
  });

  it('never shows URL credentials in errors', async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((r) => server.close(() => r())); // now a closed port
    const url = `http://alice:s3cr3t@127.0.0.1:${port}/repo.git`;
    const err = (await mirrorRepository(url, path.join(root, 'mirrors', 'cred.git')).catch(
      (e: unknown) => e,
    )) as GitError;
    expect(err).toBeInstanceOf(GitError);
    expect(err.kind).toBe('unreachable');
    expect(`${err.message}\n${err.stderr}\n${err.command.join(' ')}`).not.toContain('s3cr3t');
    expect(err.message).toContain('http://***@127.0.0.1');
    expect(redactCredentials('https://x-token@github.com/a/b and ssh://git@host/r')).toBe(
      'https://***@github.com/a/b and ssh://git@host/r',
    );
  });

  it('kills git and its helper process when the timeout hits', async () => {
    // Generous budgets: under a loaded CI machine git may need a while even to connect.
    // A git:// server that accepts and never answers, and an HTTP one (git-remote-http child).
    const sockets: net.Socket[] = [];
    let open = 0;
    const track = (s: net.Socket): void => {
      sockets.push(s);
      open++;
      s.on('close', () => open--);
    };
    const gitServer = net.createServer((s) => {
      track(s);
      s.resume();
    });
    const httpServer = http.createServer(() => {});
    httpServer.on('connection', track);
    await new Promise<void>((r) => gitServer.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    try {
      for (const url of [
        `git://127.0.0.1:${(gitServer.address() as net.AddressInfo).port}/repo.git`,
        `http://127.0.0.1:${(httpServer.address() as net.AddressInfo).port}/repo.git`,
      ]) {
        const mirror = path.join(root, 'mirrors', 'hang.git');
        const started = Date.now();
        const err = (await mirrorRepository(url, mirror, { timeoutMs: 2000 }).catch(
          (e: unknown) => e,
        )) as GitError;
        expect(err).toBeInstanceOf(GitError);
        expect(err.kind).toBe('timeout');
        expect(err.message).toContain('Timed out after 2000 ms');
        console.log(`timeout (${url.split(':')[0]}): rejected after ${Date.now() - started} ms`);
        expect(sockets.length).toBeGreaterThan(0);
        // The remote end sees the connection drop once the process group is killed.
        await vi.waitFor(() => expect(open).toBe(0), { timeout: 10_000 });
        await expect(fs.stat(mirror)).rejects.toThrow();
        expect(await siblings(mirror)).toEqual([]);
      }
    } finally {
      sockets.forEach((s) => s.destroy());
      gitServer.close();
      httpServer.close();
    }
  });
});

describe('reading a mirror', () => {
  let mirror: string;
  let manyMirror: string;

  beforeAll(async () => {
    mirror = path.join(root, 'mirrors', 'read.git');
    manyMirror = path.join(root, 'mirrors', 'many.git');
    await mirrorRepository(source, mirror);
    const started = performance.now();
    await mirrorRepository(many, manyMirror);
    console.log(`mirror of ${MANY_TAGS}-tag repo: ${(performance.now() - started).toFixed(0)} ms`);
  }, 30_000);

  it('lists tags peeled to commits, branches and the default branch', async () => {
    const refs = await listRefs(mirror);
    expect(refs.defaultBranch).toBe('main');
    expect(refs.branches).toEqual([
      { name: 'develop', commit: commits.develop },
      { name: 'main', commit: commits.broken },
    ]);
    expect(refs.tags).toEqual([
      { name: 'nested', commit: commits.first },
      { name: 'v1.0.0', commit: commits.first },
      { name: 'v1.1.0', commit: commits.first },
      { name: 'v2.0.0-broken', commit: commits.broken },
    ]);
  });

  it(`batch-reads composer.json of ${MANY_TAGS} tags with one git process`, async () => {
    const refs = await listRefs(manyMirror);
    expect(refs.tags).toHaveLength(MANY_TAGS);
    const requests = refs.tags.map((t) => ({ commit: t.commit, path: 'composer.json' }));
    requests.push({ commit: refs.tags[0]?.commit ?? '', path: 'does/not/exist.json' });

    starts.length = 0;
    const started = performance.now();
    const files = await readFilesAtCommits(manyMirror, requests);
    const ms = performance.now() - started;
    expect(gitSubcommands()).toEqual(['cat-file']);
    console.log(`batch read of ${MANY_TAGS} composer.json files: ${ms.toFixed(0)} ms, 1 process`);

    expect(files.size).toBe(MANY_TAGS + 1);
    for (const tag of refs.tags) {
      const parsed = JSON.parse(files.get(`${tag.commit}:composer.json`) ?? 'null') as {
        version: string;
        description: string;
      };
      expect(`v${parsed.version}`).toBe(tag.name);
      expect(parsed.description.startsWith(UNICODE)).toBe(true);
    }
    expect(files.get(`${refs.tags[0]?.commit}:does/not/exist.json`)).toBeNull();
  });

  it('reads single files, including a broken composer.json, and null for missing ones', async () => {
    const broken = await readFileAtCommit(mirror, commits.broken ?? '', 'composer.json');
    expect(broken).toBe('{ "name": "acme/root", broken');
    expect(await readFileAtCommit(mirror, commits.first ?? '', 'nope.json')).toBeNull();
    expect(await readFileAtCommit(mirror, commits.first ?? '', 'packages')).toBeNull(); // a tree
    expect(await readFileAtCommit(mirror, 'f'.repeat(40), 'composer.json')).toBeNull();
    const b = await readFileAtCommit(mirror, commits.first ?? '', 'packages/b/composer.json');
    expect(JSON.parse(b ?? '{}')).toEqual({ name: 'acme/b', description: UNICODE });

    const first = commits.first ?? '';
    const mixed = await readFilesAtCommits(mirror, [
      { commit: first, path: 'big.txt' },
      { commit: first, path: 'README.md' },
      { commit: first, path: 'big.txt' },
    ]);
    expect(mixed.size).toBe(2);
    expect(mixed.get(`${first}:big.txt`)).toBe(BIG);
    expect(mixed.get(`${first}:README.md`)).toBe(`# Root\n${UNICODE}\n`);
  });

  it('produces byte-identical zips, also from a fresh re-mirror', async () => {
    const commit = commits.first ?? '';
    const one = await archiveZip(mirror, commit);
    const two = await archiveZip(mirror, commit);
    const fresh = path.join(root, 'mirrors', 'fresh.git');
    await mirrorRepository(pathToFileURL(source).href, fresh);
    const three = await archiveZip(fresh, commit);
    expect(two.equals(one)).toBe(true);
    expect(three.equals(one)).toBe(true);

    const names = zipEntries(one).map((e) => e.name);
    expect(names).toContain('composer.json');
    expect(names).toContain('packages/a/src/A.php');
    const prefixed = zipEntries(await archiveZip(mirror, commit, { prefix: 'acme-root' }));
    expect(prefixed.every((e) => e.name.startsWith('acme-root/'))).toBe(true);
  });

  it('archives a subfolder only, deterministically stamped with the commit date', async () => {
    const commit = commits.first ?? '';
    const zip = await archiveZip(mirror, commit, { subdir: 'packages/a/' });
    const again = await archiveZip(mirror, commit, { subdir: 'packages/a' });
    const fresh = await archiveZip(path.join(root, 'mirrors', 'by-path.git'), commit, {
      subdir: 'packages/a',
    });
    expect(again.equals(zip)).toBe(true);
    expect(fresh.equals(zip)).toBe(true);

    const entries = zipEntries(zip);
    expect(entries.map((e) => e.name).sort()).toEqual(['composer.json', 'src/', 'src/A.php']);
    // Commit time, not "now": proves the tree was not archived with the current time.
    const commitTime = Number(git(source, ['show', '-s', '--format=%ct', commit]));
    const expected = dosDateTime(commitTime);
    for (const e of entries) expect({ dosTime: e.dosTime, dosDate: e.dosDate }).toEqual(expected);

    // The mirror gained no objects from the synthetic commit.
    const count = git(root, ['--git-dir', mirror, 'count-objects']);
    await archiveZip(mirror, commit, { subdir: 'packages/b' });
    expect(git(root, ['--git-dir', mirror, 'count-objects'])).toBe(count);

    await expect(archiveZip(mirror, commit, { subdir: 'packages/zzz' })).rejects.toThrow(
      /Directory packages\/zzz not found/,
    );
  });

  it('lists package folders matching globs that hold a composer.json', async () => {
    const commit = commits.first ?? '';
    expect(await listDirectories(mirror, commit, ['packages/*'])).toEqual([
      'packages/a',
      'packages/b',
    ]);
    expect(await listDirectories(mirror, commit, ['packages/*', 'tools/*/'])).toEqual([
      'packages/a',
      'packages/b',
      'tools/x',
    ]);
    expect(await listDirectories(mirror, commit, ['**'])).toEqual([
      '',
      'packages/a',
      'packages/b',
      'tools/x',
    ]);
    expect(await listDirectories(mirror, commit, ['pack*/?'])).toEqual([
      'packages/a',
      'packages/b',
    ]);
    expect(await listDirectories(mirror, commit, ['nothing/*'])).toEqual([]);
  });

  it('finds the README, preferring markdown', async () => {
    const readme = await findReadme(mirror, commits.first ?? '');
    expect(readme).toEqual({ path: 'README.md', content: `# Root\n${UNICODE}\n` });
    expect(await findReadme(manyMirror, 'main')).toBeNull();
  });

  it('rejects revisions that look like options', async () => {
    await expect(archiveZip(mirror, '--output=/tmp/x')).rejects.toThrow(/Invalid revision/);
    await expect(listDirectories(mirror, '-r', ['*'])).rejects.toThrow(/Invalid revision/);
  });
});
