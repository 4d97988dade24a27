import type { Ctx, Deps } from '../../context.js';
import { notFound } from '../../errors.js';
import * as packages from '../packages/catalog.js';
import type { PackageRow } from '../packages/catalog.js';
import type { MonorepoDto } from './schema.js';
import { findMonorepoPaths } from './paths.js';
import { childQuery } from './store.js';
import type { TaskRow } from '../tasks/store.js';

/** Reads monorepo parents and their child packages; the parent's sync creates the children. */
export class MonorepoService {
  constructor(
    private readonly deps: Deps,
    /** Queues a package's sync (PackageService.requestSync), which discovers the children. */
    private readonly requestSync?: (ctx: Ctx, name: string) => Promise<TaskRow>,
  ) {}

  /** Queues the parent's sync; 404 when the package is not a monorepo. */
  async sync(ctx: Ctx, name: string): Promise<TaskRow> {
    const { pkg } = await this.parent(ctx, name);
    if (!this.requestSync) throw new Error('MonorepoService built without requestSync');
    return this.requestSync(ctx, pkg.name);
  }

  /** The parent package and its folder globs, or 404 when the package is not a monorepo. */
  async parent(ctx: Ctx, name: string): Promise<{ pkg: PackageRow; paths: string[] }> {
    const pkg = await packages.findPackageByName(this.deps.db, ctx.tenantId, name.toLowerCase());
    if (!pkg) throw notFound(`Package ${name}`);
    const paths = await findMonorepoPaths(this.deps.db, ctx.tenantId, pkg.id);
    if (!paths) throw notFound(`Monorepo ${pkg.name}`);
    return { pkg, paths };
  }

  async describe(ctx: Ctx, name: string): Promise<MonorepoDto> {
    const { pkg, paths } = await this.parent(ctx, name);
    const children = await this.childQuery(ctx, pkg.id)
      .select('packages.name')
      .orderBy('packages.name', 'asc')
      .execute();
    return { paths, children: children.map((c) => c.name), synced_at: pkg.synced_at };
  }

  async children(
    ctx: Ctx,
    name: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: PackageRow[]; total: number }> {
    const { pkg } = await this.parent(ctx, name);
    const [rows, count] = await Promise.all([
      this.childQuery(ctx, pkg.id)
        .selectAll('packages')
        .orderBy('packages.name', 'asc')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      this.childQuery(ctx, pkg.id)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  private childQuery(ctx: Ctx, parentId: string) {
    return childQuery(this.deps.db, ctx.tenantId, parentId);
  }
}
