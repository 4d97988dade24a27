import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Config } from './config/index.js';
import { migrate, openDatabase } from './infra/db/connection.js';
import { DEFAULT_TENANT_ID } from './infra/db/schema.js';
import { ensureAdminToken } from './areas/auth/admin-token.js';
import type { Logger } from './infra/logger.js';
import { relayClusterCounters } from './infra/cluster-counter.js';
import { relayPeers } from './infra/peers.js';
import { markServeProcesses } from './infra/serve-processes.js';
import { answerClusterMetrics } from './http/metrics-cluster.js';

/** What the primary prepared before forking, for the start-up banner. */
export interface Prepared {
  describe: string;
  generatedAdminToken: string | null;
}

/** Longest the primary waits for its processes to finish their requests on SIGTERM. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * `packyard serve` as WEB_CONCURRENCY processes sharing one port (node's cluster module). The
 * primary serves nothing: it migrates and settles the admin token once (so the processes never
 * race on them), forks, restarts a process that dies, and forwards SIGTERM. Each process is a
 * complete `packyard serve`; what they share lives in the database, Redis and archive storage,
 * as between nodes, and what one process changes reaches the others through the primary before
 * the change answers (src/infra/peers.ts), so the serve behaves as one process.
 */
export async function runPrimary(
  config: Readonly<Config>,
  log: Logger,
  onReady: (prepared: Prepared) => void,
): Promise<void> {
  const handle = await openDatabase(config);
  let prepared: Prepared;
  try {
    await migrate(handle.db, config.databaseSchema);
    const admin = await ensureAdminToken(handle.db, DEFAULT_TENANT_ID, config.adminToken);
    prepared = { describe: handle.describe, generatedAdminToken: admin.generated };
  } finally {
    await handle.db.destroy();
  }

  markServeProcesses();
  relayClusterCounters();
  // Each process's after-commit notices reach the others before its write answers.
  relayPeers(log);
  answerClusterMetrics();
  const wanted = config.webConcurrency;
  let stopping = false;
  let started = 0;
  await new Promise<void>((resolve, reject) => {
    cluster.on('listening', () => {
      started += 1;
      if (started === wanted) resolve();
    });
    cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
      if (stopping) return;
      if (started < wanted) {
        reject(new Error(`a serve process exited while starting (${signal ?? code})`));
        return;
      }
      log.error({ pid: worker.process.pid, code, signal }, 'serve process died; starting another');
      cluster.fork();
    });
    // A process's channel can fail while it dies; that is reported by 'exit', not fatal here.
    cluster.on('fork', (worker: Worker) =>
      worker.on('error', (err) =>
        log.warn({ err, pid: worker.process.pid }, 'serve process channel'),
      ),
    );
    for (let i = 0; i < wanted; i++) cluster.fork();
  });
  onReady(prepared);

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    // A terminal's Ctrl-C reaches every process of the group already; SIGTERM (docker, systemd)
    // reaches only the primary and is passed on. Each process then shuts down gracefully.
    if (signal === 'SIGTERM') for (const w of workers) w.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    let left = workers.length;
    if (left === 0) process.exit(0);
    cluster.on('exit', () => {
      left -= 1;
      if (left === 0) process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** True in a process forked by runPrimary. */
export const isClusterProcess = (): boolean => cluster.isWorker;

/** True when this `packyard serve` should fork instead of serving itself. */
export const shouldFork = (config: Readonly<Config>): boolean =>
  cluster.isPrimary && config.webConcurrency > 1;
