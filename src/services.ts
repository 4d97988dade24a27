import type { Deps } from './context.js';
import { AuthService } from './areas/auth/service.js';
import { CustomerService } from './areas/customers/service.js';
import { PackageService, SYNC_TASK } from './areas/packages/service.js';
import { SyncService } from './areas/sync/service.js';
import { TaskService } from './areas/tasks/service.js';
import { Worker } from './areas/tasks/worker.js';
import { ComposerService } from './composer/service.js';
import { createAreaServices } from './areas/registry.js';

/** Every service, built once per process and shared by REST, GraphQL and the worker. */
export type Services = AreaServices & {
  deps: Deps;
  auth: AuthService;
  composer: ComposerService;
  customers: CustomerService;
  packages: PackageService;
  sync: SyncService;
  tasks: TaskService;
  worker: Worker;
};

type AreaServices = ReturnType<typeof createAreaServices>;

export function createServices(deps: Deps, rootTokenDigest: string): Services {
  const tasks = new TaskService(deps);
  const sync = new SyncService(deps);
  const handlers = {
    [SYNC_TASK]: async (task: { tenant_id: string }, payload: Record<string, unknown>) =>
      sync.sync(task.tenant_id, String(payload.package_id)),
  };
  const auth = new AuthService(deps, rootTokenDigest);
  return {
    deps,
    auth,
    composer: new ComposerService(deps, auth),
    customers: new CustomerService(deps),
    packages: new PackageService(deps, tasks, sync),
    sync,
    tasks,
    worker: new Worker(deps, tasks, handlers),
    ...createAreaServices(deps),
  };
}
