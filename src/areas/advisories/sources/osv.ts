import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import type { Deps } from '../../../context.js';
import type { AdvisorySettings } from '../../../config/advisories.js';
import type {
  AdvisorySeverity,
  AdvisorySource,
  ImportedAdvisory,
  SourceProblem,
  SourceResult,
} from './types.js';

/** Largest OSV download read (the whole Packagist export is a few MB zipped). */
const MAX_BYTES = 256 * 1024 * 1024;

interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}

interface OsvRecord {
  id?: unknown;
  summary?: unknown;
  details?: unknown;
  aliases?: unknown;
  published?: unknown;
  modified?: unknown;
  references?: { type?: string; url?: string }[];
  database_specific?: { severity?: unknown };
  affected?: {
    package?: { ecosystem?: string; name?: string };
    ranges?: { type?: string; events?: OsvEvent[] }[];
    versions?: unknown;
  }[];
}

/**
 * OSV records of the Packagist ecosystem (docs/advisories.md) from ADVISORIES_OSV_URL: an http(s)
 * URL answering a zip of records (osv.dev's `Packagist/all.zip`), a JSON array of records or one
 * record; or a directory of `*.json` records. The fingerprint is a digest of everything read,
 * so an unchanged export costs one download and no database work.
 */
export function osvSource(settings: AdvisorySettings, deps: Deps): AdvisorySource | null {
  const location = settings.osvUrl;
  if (!location) return null;
  const timeoutMs = deps.config.gitTimeoutMs;
  return {
    name: 'osv',
    async read(signal, previousFingerprint): Promise<SourceResult> {
      const result: SourceResult = { source: 'osv', records: [], problems: [] };
      let files: { name: string; bytes: Buffer }[];
      try {
        files = /^https?:\/\//i.test(location)
          ? await download(location, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]))
          : await readDirectory(location);
      } catch (err) {
        return { ...result, failed: `${location} could not be read: ${(err as Error).message}` };
      }
      const hash = crypto.createHash('sha256');
      for (const f of files) hash.update(f.name).update('\0').update(f.bytes);
      result.fingerprint = hash.digest('hex');
      if (result.fingerprint === previousFingerprint) return { ...result, unchanged: true };
      for (const file of files) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(file.bytes.toString('utf8'));
        } catch {
          result.problems.push({ record: file.name, message: 'is not JSON' });
          continue;
        }
        const records = Array.isArray(parsed)
          ? parsed
          : Array.isArray((parsed as { vulns?: unknown }).vulns)
            ? (parsed as { vulns: unknown[] }).vulns
            : [parsed];
        for (const record of records) {
          const out = fromOsv(record as OsvRecord, file.name);
          result.records.push(...out.records);
          result.problems.push(...out.problems);
        }
      }
      return result;
    },
  };
}

async function download(
  url: string,
  signal: AbortSignal,
): Promise<{ name: string; bytes: Buffer }[]> {
  const res = await fetch(url, { signal, headers: { 'user-agent': 'Packyard' } });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_BYTES) throw new Error(`is larger than ${MAX_BYTES} bytes`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.subarray(0, 2).toString('latin1') === 'PK') return unzip(bytes);
  return [{ name: new URL(url).pathname.split('/').pop() || url, bytes }];
}

async function readDirectory(dir: string): Promise<{ name: string; bytes: Buffer }[]> {
  const names = (await fs.readdir(dir, { recursive: true, encoding: 'utf8' }))
    .filter((n) => n.endsWith('.json'))
    .sort();
  return Promise.all(
    names.map(async (name) => ({ name, bytes: await fs.readFile(path.join(dir, name)) })),
  );
}

/** Every `*.json` entry of a zip, in order. */
function unzip(bytes: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(new Error(`is not a readable zip: ${err.message}`));
      const out: { name: string; bytes: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('.json')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.once('error', reject);
          stream.once('end', () => {
            out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.once('end', () => resolve(out));
      zip.once('error', reject);
      zip.readEntry();
    });
  });
}

const SEVERITY: Record<string, AdvisorySeverity> = {
  low: 'low',
  moderate: 'medium',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The records of one OSV entry: one per affected Packagist package, or the problems. */
export function fromOsv(
  osv: OsvRecord,
  file: string,
): { records: ImportedAdvisory[]; problems: SourceProblem[] } {
  const id = str(osv?.id);
  const records: ImportedAdvisory[] = [];
  const problems: SourceProblem[] = [];
  const problem = (message: string) => problems.push({ record: id ?? file, message });
  if (!id) {
    problem('has no id');
    return { records, problems };
  }
  const aliases = Array.isArray(osv.aliases)
    ? osv.aliases.filter((a): a is string => typeof a === 'string')
    : [];
  const cve = [id, ...aliases].find((a) => /^CVE-\d{4}-\d+$/i.test(a))?.toUpperCase() ?? null;
  const reported = new Date(str(osv.published) ?? str(osv.modified) ?? Number.NaN);
  const link =
    osv.references?.find((r) => r.type === 'ADVISORY')?.url ??
    osv.references?.find((r) => r.type === 'WEB')?.url ??
    `https://osv.dev/vulnerability/${id}`;
  const severity = SEVERITY[str(osv.database_specific?.severity)?.toLowerCase() ?? ''] ?? null;
  for (const affected of osv.affected ?? []) {
    if (affected.package?.ecosystem !== 'Packagist') continue;
    const name = str(affected.package.name)?.toLowerCase();
    if (!name) {
      problem('names an affected package without a name');
      continue;
    }
    const alternatives: string[] = [];
    for (const range of affected.ranges ?? []) {
      if (range.type !== 'ECOSYSTEM' && range.type !== 'SEMVER') {
        problem(`has a ${String(range.type)} range for ${name}; only ECOSYSTEM ranges are read`);
        continue;
      }
      alternatives.push(...intervals(range.events ?? []));
    }
    if (Array.isArray(affected.versions)) {
      for (const v of affected.versions)
        if (typeof v === 'string' && v.trim()) alternatives.push(v.trim());
    }
    if (alternatives.length === 0) {
      problem(`gives no affected versions of ${name}`);
      continue;
    }
    records.push({
      source: 'osv',
      remoteId: id,
      packageName: name,
      title: str(osv.summary) ?? str(osv.details)?.split('\n')[0]?.slice(0, 200) ?? id,
      link,
      cve,
      aliases: aliases.filter((a) => a.toUpperCase() !== cve && a !== id),
      affectedVersions: alternatives.join('|'),
      reportedAt: reported,
      severity,
      description: str(osv.details),
    });
  }
  return { records, problems };
}

/** OSV events (introduced / fixed / last_affected, in order) as Composer constraints. */
function intervals(events: OsvEvent[]): string[] {
  const out: string[] = [];
  let from: string | null = null;
  let open = false;
  for (const event of events) {
    if (event.introduced !== undefined) {
      from = event.introduced === '0' ? null : event.introduced;
      open = true;
    } else if (event.fixed !== undefined && open) {
      out.push([from && `>=${from}`, `<${event.fixed}`].filter(Boolean).join(','));
      open = false;
    } else if (event.last_affected !== undefined && open) {
      out.push([from && `>=${from}`, `<=${event.last_affected}`].filter(Boolean).join(','));
      open = false;
    }
  }
  if (open) out.push(from ? `>=${from}` : '*');
  return out;
}
