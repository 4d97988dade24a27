import { GitError } from './errors.js';
import { runGit } from './exec.js';

export interface GitObject {
  oid: string;
  type: 'blob' | 'tree' | 'commit' | 'tag';
  content: Buffer;
}

const HEADER = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (blob|tree|commit|tag) (\d+)$/;
const LF = 0x0a;

/**
 * Reads many objects (any `git rev-parse` expression, e.g. `<commit>:<path>`) with ONE
 * `git cat-file --batch` process. Result is aligned with `names`; null = missing/ambiguous.
 */
export async function catFileBatch(
  gitDir: string,
  names: readonly string[],
  opts: { timeoutMs?: number } = {},
): Promise<(GitObject | null)[]> {
  if (names.length === 0) return [];
  for (const name of names) {
    if (/[\n\0]/.test(name)) {
      throw new GitError(`Invalid object name: ${JSON.stringify(name)}`, {
        kind: 'invalid-argument',
      });
    }
  }
  const { stdout } = await runGit(['cat-file', '--batch'], {
    gitDir,
    input: names.map((n) => `${n}\n`).join(''),
    timeoutMs: opts.timeoutMs,
  });
  return parseBatchOutput(stdout, names.length);
}

/** Parses `<oid> <type> <size>\n<bytes>\n` or `<name> missing\n` records, byte-exact. */
export function parseBatchOutput(out: Buffer, count: number): (GitObject | null)[] {
  const result: (GitObject | null)[] = [];
  let pos = 0;
  for (let i = 0; i < count; i++) {
    const nl = out.indexOf(LF, pos);
    if (nl < 0) throw new GitError('Truncated output from git cat-file --batch');
    const header = out.toString('utf8', pos, nl);
    pos = nl + 1;
    const m = HEADER.exec(header);
    if (!m) {
      // `<name> missing`, `<name> ambiguous`, ...: no body follows.
      result.push(null);
      continue;
    }
    const [, oid = '', type = 'blob', sizeText = '0'] = m;
    const size = Number(sizeText);
    if (pos + size >= out.length || out[pos + size] !== LF) {
      throw new GitError('Malformed output from git cat-file --batch');
    }
    result.push({ oid, type: type as GitObject['type'], content: out.subarray(pos, pos + size) });
    pos += size + 1;
  }
  return result;
}
