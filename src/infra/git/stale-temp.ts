import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Prefixes of the temp folders git archiving makes in the system temp directory. */
const SYSTEM_TEMP_PREFIXES = ['packyard-archive-', 'packyard-archives-'];
/** The staging folder a mirror clone makes beside its target (`.<id>.git.tmp-XXXXXX`). */
const MIRROR_STAGING = /^\..+\.tmp-[A-Za-z0-9]{6}$/;

export interface StaleTempOptions {
  /** DATA_DIR: mirrors live under `<dataDir>/repos/<tenant>/`. */
  dataDir: string;
  /** Only folders untouched for longer than this go: another process may still use newer ones. */
  olderThanMs: number;
  /** The system temp directory (os.tmpdir() unless a test names another). */
  tempDir?: string;
  now?: number;
}

/**
 * Removes what a crashed sync left behind (a killed process cannot clean its temp folders), run
 * when a worker starts. Answers the folders removed. Folders younger than `olderThanMs` are kept,
 * since a sync running in another process on the same machine may be writing to them.
 */
export async function removeStaleTempDirs(options: StaleTempOptions): Promise<string[]> {
  const now = options.now ?? Date.now();
  const tempDir = options.tempDir ?? os.tmpdir();
  const candidates = (await entries(tempDir))
    .filter((name) => SYSTEM_TEMP_PREFIXES.some((prefix) => name.startsWith(prefix)))
    .map((name) => path.join(tempDir, name));
  const reposRoot = path.join(options.dataDir, 'repos');
  for (const tenant of await entries(reposRoot)) {
    const tenantDir = path.join(reposRoot, tenant);
    for (const name of await entries(tenantDir)) {
      if (MIRROR_STAGING.test(name)) candidates.push(path.join(tenantDir, name));
    }
  }
  const removed: string[] = [];
  for (const dir of candidates) {
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat?.isDirectory() || now - stat.mtimeMs <= options.olderThanMs) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
