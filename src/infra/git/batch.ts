import { catFileBatch } from './catfile.js';
import { assertRevision } from './exec.js';

export interface FileRequest {
  commit: string;
  path: string;
}

export interface ReadOptions {
  timeoutMs?: number;
}

export const fileKey = (commit: string, path: string): string => `${commit}:${path}`;

/**
 * Reads files at commits with one `git cat-file --batch` process. Keyed `${commit}:${path}`;
 * null when the file does not exist there (or is not a regular file).
 */
export async function readFilesAtCommits(
  dir: string,
  requests: readonly FileRequest[],
  opts: ReadOptions = {},
): Promise<Map<string, string | null>> {
  const result = new Map<string, string | null>();
  const names: string[] = [];
  for (const { commit, path } of requests) {
    assertRevision(commit);
    const key = fileKey(commit, path);
    if (result.has(key)) continue;
    result.set(key, null);
    // A path with a newline cannot be asked for on the line protocol; it stays null.
    if (!/[\n\0]/.test(path)) names.push(key);
  }
  const objects = await catFileBatch(dir, names, opts);
  names.forEach((name, i) => {
    const obj = objects[i];
    if (obj && obj.type === 'blob') result.set(name, obj.content.toString('utf8'));
  });
  return result;
}

export async function readFileAtCommit(
  dir: string,
  commit: string,
  path: string,
  opts: ReadOptions = {},
): Promise<string | null> {
  const map = await readFilesAtCommits(dir, [{ commit, path }], opts);
  return map.get(fileKey(commit, path)) ?? null;
}
