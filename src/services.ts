import type { Deps } from './context.js';
import { AuthService } from './areas/auth/service.js';
import { CustomerService } from './areas/customers/service.js';
import { PackageService, SYNC_TASK } from './areas/packages/service.js';
import { SyncService } from './areas/sync/service.js';
import { TaskService } from './areas/tasks/service.js';
import { Worker } from './areas/tasks/worker.js';

/** Every service, built once per process and shared by REST, GraphQL and the worker. */
export interface Services {
  deps: Deps;
  auth: AuthService;
  customers: CustomerService;
  packages: PackageService;
  sync: SyncService;
  tasks: TaskService;
  worker: Worker;
}

export function createServices(deps: Deps, rootTokenDigest: string): Services {
  const tasks = new TaskService(deps);
  const sync = new SyncService(deps);
  const handlers = {
    [SYNC_TASK]: async (task: { tenant_id: string }, payload: Record<string, unknown>) =>
      sync.sync(task.tenant_id, String(payload.package_id)),
  };
  return {
    deps,
    auth: new AuthService(deps, rootTokenDigest),
    customers: new CustomerService(deps),
    packages: new PackageService(deps, tasks, sync),
    sync,
    tasks,
    worker: new Worker(deps, tasks, handlers),
  };
}
