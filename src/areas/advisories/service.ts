import type { Ctx, Deps } from '../../context.js';
import { invalid, notFound } from '../../errors.js';
import { newId } from '../../infra/crypto.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { parseConstraint } from '../../composer/semver/index.js';
import { findPackageByName } from '../packages/catalog.js';
import type { TaskService } from '../tasks/service.js';
import { ADVISORIES_IMPORT_TASK } from '../tasks/schema.js';
import { transact } from '../../unit-of-work.js';
import { importSources } from './importer.js';
import type { ImportReport } from './importer.js';
import type { VulnerabilityScanner, ScanOutcome } from './scanner.js';
import type { CreateAdvisoryInput, UpdateAdvisoryInput } from './schema.js';
import type { AdvisorySource } from './sources/types.js';
import * as store from './store.js';
import type { AdvisoryRow } from './store.js';

export { ADVISORIES_IMPORT_TASK } from '../tasks/schema.js';

/** The `advisories.import` task result. */
export interface ImportTaskResult extends Omit<ImportReport, 'packages'>, ScanOutcome {}

function checkConstraint(text: string): string {
  const trimmed = text.trim();
  try {
    parseConstraint(trimmed);
  } catch (err) {
    throw invalid('affected_versions', `is not a Composer constraint: ${(err as Error).message}`);
  }
  return trimmed;
}

/**
 * Advisories (docs/advisories.md): vendor advisories about the registry's own packages, the import
 * of the public sources, and the scan that matches both against every held version.
 */
export class AdvisoryService {
  constructor(
    private readonly deps: Deps,
    private readonly tasks: TaskService,
    readonly scanner: VulnerabilityScanner,
    /** The configured sources (FriendsOfPHP, OSV, GitHub), each optional. */
    private sources: () => readonly AdvisorySource[],
  ) {}

  /** Replaces the sources the import reads (tests use sources of their own). */
  useSources(sources: () => readonly AdvisorySource[]): void {
    this.sources = sources;
  }

  private get db() {
    return this.deps.db;
  }

  list(ctx: Ctx, page: { offset: number; limit: number }) {
    return store.listVendorAdvisories(this.db, ctx.tenantId, page);
  }

  async get(ctx: Ctx, id: string): Promise<AdvisoryRow> {
    const row = await store.findAdvisory(this.db, ctx.tenantId, id);
    if (!row || row.origin !== 'vendor') throw notFound('Advisory');
    return row;
  }

  async create(ctx: Ctx, input: CreateAdvisoryInput): Promise<AdvisoryRow> {
    const name = input.package.trim().toLowerCase();
    const pkg = await findPackageByName(this.db, ctx.tenantId, name);
    if (!pkg) throw invalid('package', `${name} is not a package of this registry`);
    const affected = checkConstraint(input.affected_versions);
    const now = new Date().toISOString();
    const year = new Date().getUTCFullYear();
    for (let attempt = 0; ; attempt += 1) {
      try {
        const row = await transact(this.deps, ctx, async (tx) => {
          const sequence = (await store.lastSequence(tx.db, ctx.tenantId, year)) + 1;
          const advisoryId = `PKYD-${year}-${String(sequence).padStart(4, '0')}`;
          const row: AdvisoryRow = {
            id: newId(),
            tenant_id: ctx.tenantId,
            advisory_id: advisoryId,
            package_name: pkg.name,
            origin: 'vendor',
            remote_id: advisoryId,
            title: input.title,
            link: input.link ?? null,
            cve: input.cve ?? null,
            aliases: JSON.stringify(input.cve ? [input.cve] : []),
            affected_versions: affected,
            severity: input.severity ?? null,
            description: input.description ?? null,
            reported_at: now,
            created_at: now,
            updated_at: now,
          };
          await store.insertAdvisories(tx.db, [row]);
          await tx.audit({
            action: 'advisory.create',
            target: { type: 'advisory', id: row.id },
            summary: { advisory_id: advisoryId, package: pkg.name, affected_versions: affected },
          });
          // The package's p2 documents carry its advisories: exactly those forget.
          tx.packagesChanged([row.package_name]);
          return row;
        });
        await this.scanner.match(ctx.tenantId, [row.package_name]);
        return row;
      } catch (err) {
        // Two advisories created at once took the same number: the later one takes the next.
        if (attempt < 5 && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  async update(ctx: Ctx, id: string, input: UpdateAdvisoryInput): Promise<AdvisoryRow> {
    const row = await this.get(ctx, id);
    const patch: Partial<AdvisoryRow> = { updated_at: new Date().toISOString() };
    if (input.title !== undefined) patch.title = input.title;
    if (input.severity !== undefined) patch.severity = input.severity;
    if (input.description !== undefined) patch.description = input.description;
    if (input.link !== undefined) patch.link = input.link;
    if (input.cve !== undefined) {
      patch.cve = input.cve;
      patch.aliases = JSON.stringify(input.cve ? [input.cve] : []);
    }
    if (input.affected_versions !== undefined) {
      patch.affected_versions = checkConstraint(input.affected_versions);
    }
    await transact(this.deps, ctx, async (tx) => {
      await store.updateAdvisory(tx.db, ctx.tenantId, row.id, patch);
      await tx.audit({
        action: 'advisory.update',
        target: { type: 'advisory', id: row.id },
        summary: { advisory_id: row.advisory_id, fields: Object.keys(input) },
      });
      tx.packagesChanged([row.package_name]);
    });
    await this.scanner.match(ctx.tenantId, [row.package_name]);
    return { ...row, ...patch };
  }

  async delete(ctx: Ctx, id: string): Promise<void> {
    const row = await this.get(ctx, id);
    await transact(this.deps, ctx, async (tx) => {
      await store.deleteAdvisory(tx.db, ctx.tenantId, row.id);
      await tx.audit({
        action: 'advisory.delete',
        target: { type: 'advisory', id: row.id },
        summary: { advisory_id: row.advisory_id, package: row.package_name },
      });
      tx.packagesChanged([row.package_name]);
    });
  }

  /** `POST /api/v1/vulnerabilities/scan`: queues (or returns the queued) import-and-match task. */
  queueScan(ctx: Ctx) {
    return this.tasks.enqueue(ctx, ADVISORIES_IMPORT_TASK, {}, ADVISORIES_IMPORT_TASK);
  }

  /** The `advisories.import` handler: every source, then a match of everything held. */
  async runImport(tenantId: string, signal = new AbortController().signal) {
    const report = await importSources(this.deps, tenantId, this.sources(), signal, (names, db) =>
      this.scanner.servesAny(tenantId, names, db),
    );
    const outcome = await this.scanner.match(tenantId);
    const result: ImportTaskResult = {
      sources: report.sources,
      advisories_added: report.advisories_added,
      advisories_updated: report.advisories_updated,
      ...outcome,
    };
    return result;
  }
}
