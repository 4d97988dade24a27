import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GitFixture } from '../../../test/fixtures/git-repo.js';
import { listRefs } from './refs.js';
import { buildZips } from './zip-build.js';
import { releasesRepo } from './zip.test-helpers.js';
import { configureZipThread, zipThread } from './zip-thread.js';

const many = releasesRepo(200);
afterAll(() => many.remove());
// A failed thread is not used again: switching the setting off and on gives a new one.
afterEach(() => {
  configureZipThread({ enabled: false });
  configureZipThread({ enabled: true });
});

/** Every zip buildZips makes of the repository's tags, by commit, and how often each came. */
async function zipAll(dir: string, onZip?: (count: number) => void) {
  const { tags } = await listRefs(dir);
  const zips = new Map<string, Buffer>();
  const times = new Map<string, number>();
  const result = await buildZips(
    dir,
    tags.map((t) => ({ commit: t.commit })),
    { concurrency: 4 },
    async (job, zip) => {
      zips.set(job.commit, zip);
      times.set(job.commit, (times.get(job.commit) ?? 0) + 1);
      onZip?.(zips.size);
    },
  );
  return { tags, zips, times, ...result };
}

describe('the zip thread', () => {
  it('makes the same bytes as the server thread, for every version', async () => {
    const thread = zipThread();
    expect(thread).not.toBeNull();
    // Two builds at once share the thread, each with its own pieces, released when it ends.
    const [threaded, twice] = await Promise.all([zipAll(many.dir), zipAll(many.dir)]);
    expect(thread!.openSessions).toBe(0);
    expect(twice.zips).toEqual(threaded.zips);
    configureZipThread({ enabled: false });
    expect(zipThread()).toBeNull();
    const inline = await zipAll(many.dir);
    expect(threaded.zips.size).toBe(200);
    expect(threaded.fallback).toEqual([]);
    expect(threaded.blobs).toBe(inline.blobs);
    for (const [commit, zip] of inline.zips) expect(threaded.zips.get(commit)).toEqual(zip);
  });

  it('makes a symlink, an executable and a file git must zip as the server thread does', async () => {
    const repo = new GitFixture('acme/thread-kinds');
    try {
      repo.composerJson();
      repo.write('bin/tool', '#!/bin/sh\necho tool\n');
      fs.chmodSync(path.join(repo.dir, 'bin/tool'), 0o755);
      repo.write('src/Lib.php', '<?php\nclass Lib {}\n');
      fs.symlinkSync('src/Lib.php', path.join(repo.dir, 'lib-link'));
      // Past the size read in the first pass, and deflated apart in the server thread.
      repo.write('big.txt', 'a line of text\n'.repeat(150_000));
      repo.commit('first').tag('v1.0.0');
      const threaded = await zipAll(`${repo.dir}/.git`);
      configureZipThread({ enabled: false });
      const inline = await zipAll(`${repo.dir}/.git`);
      expect(threaded.zips.size).toBe(1);
      expect([...threaded.zips.values()]).toEqual([...inline.zips.values()]);
    } finally {
      repo.remove();
    }
  });

  it('finishes a sync in the server thread when the thread dies midway, and is not used again', async () => {
    const thread = zipThread();
    expect(thread).not.toBeNull();
    let killed = false;
    const threaded = await zipAll(many.dir, (count) => {
      if (count === 20 && !killed) {
        killed = true;
        // What a crash of the thread looks like to the server: it exits with its work in flight.
        void (thread as unknown as { worker: Worker }).worker.terminate();
      }
    });
    expect(killed).toBe(true);
    expect(threaded.zips.size).toBe(200);
    expect([...threaded.times.values()].every((n) => n === 1)).toBe(true);
    expect(zipThread()).toBeNull();
    configureZipThread({ enabled: false });
    const inline = await zipAll(many.dir);
    for (const [commit, zip] of inline.zips) expect(threaded.zips.get(commit)).toEqual(zip);
  });
});
