import type { Config } from './config/index.js';
import type { Deps } from './context.js';
import { migrate, openDatabase } from './infra/db/connection.js';
import { DEFAULT_TENANT_ID } from './infra/db/schema.js';
import { createEventBus, remoteNoticesOf } from './infra/events-redis.js';
import { ProcessPeers } from './infra/peers.js';
import { PeerEventBus } from './infra/peer-events.js';
import { CacheGeneration } from './infra/cache-generation.js';
import { openStorage } from './infra/storage/open.js';
import type { ArchiveStorage } from './infra/storage/storage.js';
import { configureGitLauncher } from './infra/git/launcher.js';
import { configureZipThread } from './infra/git/zip-thread.js';
import { createLogger } from './infra/logger.js';
import type { Logger } from './infra/logger.js';
import { ensureAdminToken } from './areas/auth/admin-token.js';
import { createServices } from './services.js';
import type { Services } from './services.js';

export interface Runtime {
  services: Services;
  /** Where the data lives, for the start-up banner. */
  describe: string;
  /** The plain admin token when this start generated it (printed once), else null. */
  generatedAdminToken: string | null;
  close(): Promise<void>;
}

/**
 * Opens the infrastructure (database, storage, events), migrates, and builds the services.
 * `log` receives what background work reports (silent when not given, as in tests).
 */
export async function openRuntime(
  config: Readonly<Config>,
  log: Logger = createLogger('silent'),
): Promise<Runtime> {
  configureGitLauncher({ enabled: config.gitLauncher, warn: (message) => log.warn(message) });
  configureZipThread({ enabled: config.zipThread });
  const handle = await openDatabase(config);
  const nodeBus = createEventBus(config, (err) =>
    log.error({ err }, 'events: Redis pub/sub unavailable'),
  );
  // Changes reach this serve's other processes over IPC, and other nodes over Redis if any.
  const peers = new ProcessPeers(log, remoteNoticesOf(nodeBus));
  const events = config.redisUrl ? nodeBus : new PeerEventBus(peers);
  let storage: ArchiveStorage | null = null;
  try {
    await migrate(handle.db, config.databaseSchema);
    storage = openStorage(config.storage);
    const deps: Deps = {
      db: handle.db,
      dialect: handle.dialect,
      config,
      storage,
      events,
      generations: new CacheGeneration(handle.db, undefined, peers, log),
      peers,
      log,
    };
    const admin = await ensureAdminToken(handle.db, DEFAULT_TENANT_ID, config.adminToken);
    const services = createServices(deps, admin.digest);
    await deps.generations.poll();
    deps.generations.start();
    return {
      services,
      describe: handle.describe,
      generatedAdminToken: admin.generated,
      close: async () => {
        deps.generations.stop();
        await services.worker.stop();
        await events.close();
        peers.close();
        await services.composer.usage.close();
        await services.auth.uses.flush();
        await services.proxy.hits.flush();
        deps.storage.close();
        await handle.db.destroy();
      },
    };
  } catch (err) {
    storage?.close();
    await events.close();
    peers.close();
    await handle.db.destroy();
    throw err;
  }
}
