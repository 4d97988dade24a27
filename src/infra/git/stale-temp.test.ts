import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeStaleTempDirs } from './stale-temp.js';

describe('removeStaleTempDirs', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'packyard-stale-test-'));
  });
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  async function dir(rel: string, ageMs: number): Promise<string> {
    const full = path.join(root, rel);
    await fs.mkdir(full, { recursive: true });
    await fs.writeFile(path.join(full, 'chunk'), 'x'.repeat(1024));
    const when = new Date(Date.now() - ageMs);
    await fs.utimes(full, when, when);
    return full;
  }

  it('removes what crashed syncs left and keeps recent work, mirrors and unrelated folders', async () => {
    const hour = 3_600_000;
    const tempDir = path.join(root, 'tmp');
    const dataDir = path.join(root, 'data');
    const staleArchive = await dir('tmp/packyard-archives-abc123', 2 * hour);
    const staleOne = await dir('tmp/packyard-archive-def456', 2 * hour);
    const staleClone = await dir('data/repos/default/.p1.git.tmp-Zx81Qa', 2 * hour);
    const running = await dir('tmp/packyard-archives-new999', 60_000);
    const mirror = await dir('data/repos/default/p1.git', 2 * hour);
    const foreign = await dir('tmp/someone-else-1', 2 * hour);

    const removed = await removeStaleTempDirs({ dataDir, tempDir, olderThanMs: hour });

    expect(removed.sort()).toEqual([staleArchive, staleOne, staleClone].sort());
    for (const kept of [running, mirror, foreign])
      await expect(fs.stat(kept)).resolves.toBeTruthy();
    for (const gone of removed) await expect(fs.stat(gone)).rejects.toThrow();
  });

  it('copes with a data folder that has no repositories yet', async () => {
    const removed = await removeStaleTempDirs({
      dataDir: path.join(root, 'nothing'),
      tempDir: path.join(root, 'also-nothing'),
      olderThanMs: 1000,
    });
    expect(removed).toEqual([]);
  });
});
