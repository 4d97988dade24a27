import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Deps } from '../../../context.js';
import type { AdvisorySettings } from '../../../config/advisories.js';
import { mirrorRepository, readFilesAtCommits } from '../../../infra/git/index.js';
import { runGit } from '../../../infra/git/exec.js';
import type { AdvisorySource, ImportedAdvisory, SourceProblem, SourceResult } from './types.js';

/** `<vendor>/<name>/<id>.yaml`: the only files of the database that are advisories. */
const ADVISORY_FILE = /^[^/]+\/[^/]+\/[^/]+\.ya?ml$/;
const REFERENCE = /^composer:\/\/([^/\s]+\/[^/\s]+)$/;

interface Branch {
  time?: unknown;
  versions?: unknown;
}

/**
 * The FriendsOfPHP security-advisories database (docs/advisories.md): a git repository of YAML files,
 * mirrored under DATA_DIR like any package repository. Its fingerprint is the commit read, so an
 * unchanged repository costs one fetch. A file that is not a valid advisory is a problem named
 * by its path; the rest imports.
 */
export function friendsOfPhpSource(settings: AdvisorySettings, deps: Deps): AdvisorySource | null {
  const url = settings.friendsOfPhpUrl;
  if (!url) return null;
  const dir = path.join(deps.config.dataDir, 'advisories', 'friendsofphp.git');
  const timeoutMs = deps.config.gitTimeoutMs;
  return {
    name: 'friendsofphp',
    async read(signal, previousFingerprint): Promise<SourceResult> {
      const result: SourceResult = { source: 'friendsofphp', records: [], problems: [] };
      let commit: string;
      try {
        await mirrorRepository(url, dir, { timeoutMs });
        const head = await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], {
          gitDir: dir,
          timeoutMs,
          signal,
        });
        commit = head.stdout.toString('utf8').trim();
      } catch (err) {
        return { ...result, failed: `the repository could not be read: ${(err as Error).message}` };
      }
      result.fingerprint = commit;
      if (commit === previousFingerprint) return { ...result, unchanged: true };
      const listing = await runGit(['ls-tree', '-r', '-z', '--name-only', commit], {
        gitDir: dir,
        timeoutMs,
        signal,
      });
      const files = listing.stdout
        .toString('utf8')
        .split('\0')
        .filter((f) => ADVISORY_FILE.test(f));
      const contents = await readFilesAtCommits(
        dir,
        files.map((file) => ({ commit, path: file })),
        { timeoutMs },
      );
      const fallbackTime = await commitTime(dir, commit, timeoutMs);
      for (const file of files) {
        const text = contents.get(`${commit}:${file}`);
        if (text == null) continue;
        const parsed = parseAdvisory(file, text, fallbackTime);
        if ('problem' in parsed) result.problems.push(parsed.problem);
        else result.records.push(parsed.record);
      }
      return result;
    },
  };
}

/**
 * The date given to a record without any branch time: the repository's first commit, so it stays
 * the same from one import to the next (a digest that moved would rewrite the record each time).
 */
async function commitTime(dir: string, commit: string, timeoutMs: number): Promise<Date> {
  const roots = await runGit(['rev-list', '--max-parents=0', commit], { gitDir: dir, timeoutMs });
  const root = roots.stdout.toString('utf8').trim().split('\n').pop() ?? commit;
  const out = await runGit(['show', '-s', '--format=%cI', root], { gitDir: dir, timeoutMs });
  return new Date(out.stdout.toString('utf8').trim());
}

/** FriendsOfPHP writes `2021-06-16 16:20:00`, meaning UTC; JavaScript would read local time. */
function utcTime(value: string): number {
  const plain = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value.trim());
  return Date.parse(plain ? `${value.trim().replace(' ', 'T')}Z` : value);
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** One YAML file as a record, or the problem that makes it unusable. */
export function parseAdvisory(
  file: string,
  source: string,
  fallbackTime: Date,
): { record: ImportedAdvisory } | { problem: SourceProblem } {
  const problem = (message: string) => ({ problem: { record: file, message } });
  let doc: unknown;
  try {
    doc = parseYaml(source);
  } catch (err) {
    return problem(`is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    return problem('is not a YAML mapping');
  }
  const fields = doc as Record<string, unknown>;
  const title = text(fields.title);
  if (!title) return problem('has no title');
  const reference = REFERENCE.exec(text(fields.reference) ?? '')?.[1]?.toLowerCase();
  if (!reference) return problem('has no `reference: composer://<vendor>/<name>`');
  const branches = fields.branches;
  if (typeof branches !== 'object' || branches === null || Array.isArray(branches)) {
    return problem('has no branches');
  }
  const alternatives: string[] = [];
  const times: number[] = [];
  for (const [name, value] of Object.entries(branches as Record<string, Branch>)) {
    const versions = value?.versions;
    if (!Array.isArray(versions) || versions.length === 0) {
      return problem(`branch ${name} has no versions list`);
    }
    if (!versions.every((v): v is string => typeof v === 'string' && v.trim() !== '')) {
      return problem(`branch ${name} lists a version that is not a string`);
    }
    // A branch's versions all apply (AND); branches are alternatives (OR).
    alternatives.push(versions.map((v) => v.trim()).join(','));
    const time = value.time;
    const ms =
      time instanceof Date ? time.getTime() : typeof time === 'string' ? utcTime(time) : NaN;
    if (!Number.isNaN(ms)) times.push(ms);
  }
  if (alternatives.length === 0) return problem('has no branches');
  const id = text(fields.cve);
  const isCve = id !== null && /^CVE-\d{4}-\d+$/i.test(id);
  return {
    record: {
      source: 'friendsofphp',
      remoteId: file,
      packageName: reference,
      title,
      link: text(fields.link),
      cve: isCve ? id.toUpperCase() : null,
      aliases: id && !isCve ? [id] : [],
      affectedVersions: alternatives.join('|'),
      reportedAt: times.length > 0 ? new Date(Math.min(...times)) : fallbackTime,
      severity: null,
      description: null,
    },
  };
}
