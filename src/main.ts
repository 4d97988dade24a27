import { Command } from 'commander';
import { ConfigError, loadConfig, storageTarget } from './config/index.js';
import type { Config, StorageSettings } from './config/index.js';
import { buildApp } from './app.js';
import { migrate, openDatabase } from './infra/db/connection.js';
import { openRuntime } from './runtime.js';
import { createLogger } from './infra/logger.js';
import { isClusterProcess, runPrimary, shouldFork } from './cluster.js';
import { buildWorkerApp } from './http/worker-app.js';
import { describeStorage, openStorage } from './infra/storage/open.js';
import { expectedShasums, migrateArchives } from './areas/storage/migrate.js';
import { proxyBannerLines } from './areas/proxy/banner.js';
import { prepareGitLauncher } from './infra/git/launcher.js';
import { prepareZipThread } from './infra/git/zip-thread.js';

function configOrExit(): Readonly<Config> {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`packyard: invalid configuration: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

/** Longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

/**
 * Graceful shutdown on SIGTERM/SIGINT: `stop` runs once; a second signal, or a shutdown taking
 * longer than SHUTDOWN_TIMEOUT_MS, exits at once (a task cut short is retried after its lease).
 */
function onSignals(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) {
        console.error(`packyard: ${signal} again, exiting now`);
        process.exit(1);
      }
      stopping = true;
      console.error(`packyard: ${signal} received, shutting down`);
      setTimeout(() => {
        console.error('packyard: shutdown timed out, exiting');
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS).unref();
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
}

function printBanner(config: Readonly<Config>, describe: string, generated: string | null): void {
  const lines = [
    '',
    `Packyard is running at ${config.baseUrl}  (edition: ${config.edition})`,
    `Data: ${describe}; archives in ${describeStorage(config.storage)}; git mirrors in ${config.dataDir}`,
    `API docs: ${config.baseUrl}/api/docs`,
  ];
  if (config.webConcurrency > 1) lines.push(`Serving with ${config.webConcurrency} processes`);
  lines.push(...proxyBannerLines(config));
  if (generated) {
    lines.push(
      '',
      'A root admin token was generated. It is shown only this once, so keep it safe:',
      `  ${generated}`,
      '',
      'Try it:',
      `  curl -H "Authorization: Bearer ${generated}" ${config.baseUrl}/api/v1/packages`,
    );
  }
  console.log(lines.join('\n') + '\n');
}

async function serve(): Promise<void> {
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  if (shouldFork(config)) {
    await runPrimary(config, log, (p) => printBanner(config, p.describe, p.generatedAdminToken));
    return;
  }
  const runtime = await openRuntime(config, log);
  const app = await buildApp({
    services: runtime.services,
    // JSON lines on stdout; buildApp adds the request id and the redaction of secrets.
    logger: { level: config.logLevel },
    processMetrics: true,
  });
  if (config.worker) startWorker(runtime.services.worker);
  await app.listen({ port: config.port, host: config.host });
  // In a cluster the primary prints the banner once for all processes.
  if (!isClusterProcess()) printBanner(config, runtime.describe, runtime.generatedAdminToken);
  onSignals(async () => {
    // Stop accepting and finish in-flight requests; then runtime.close() stops the worker (a
    // running task finishes first) and closes the database.
    await app.close();
    await runtime.close();
  });
}

/**
 * The task worker, with the git launcher its syncs start git from and the thread that makes
 * their zips, both ready before the first sync.
 */
function startWorker(worker: { start(): void }): void {
  prepareGitLauncher();
  prepareZipThread();
  worker.start();
}

async function worker(): Promise<void> {
  const config = configOrExit();
  const runtime = await openRuntime(config, createLogger(config.logLevel));
  startWorker(runtime.services.worker);
  const port = config.workerMetricsPort;
  const ops = port > 0 ? await buildWorkerApp(runtime.services, { processMetrics: true }) : null;
  if (ops) await ops.listen({ port, host: config.host });
  const serving = ops ? `; /metrics, /healthz and /readyz on port ${port}` : '';
  console.log(`Packyard worker running (${runtime.describe})${serving}`);
  onSignals(async () => {
    await ops?.close();
    await runtime.close();
  });
}

async function migrateOnly(): Promise<void> {
  const config = configOrExit();
  const handle = await openDatabase(config);
  try {
    const applied = await migrate(handle.db, config.databaseSchema);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date');
  } finally {
    await handle.db.destroy();
  }
}

async function storageMigrate(opts: { to: string }): Promise<void> {
  const config = configOrExit();
  let target: StorageSettings;
  try {
    target = storageTarget(opts.to, config.dataDir);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`packyard: ${err.message}`);
    process.exit(2);
  }
  const from = openStorage(config.storage);
  const to = openStorage(target);
  const handle = await openDatabase(config);
  try {
    console.log(
      `Moving archives from ${describeStorage(config.storage)} to ${describeStorage(target)}`,
    );
    const expected = await expectedShasums(handle.db);
    const report = await migrateArchives(from, to, { expected, progress: (l) => console.log(l) });
    for (const failure of report.failed) console.error(`failed: ${failure.key}: ${failure.reason}`);
    console.log(
      `Copied ${report.copied} archives (${report.bytes} bytes), ${report.skipped} already there, ${report.failed.length} failed`,
    );
    if (report.failed.length > 0) process.exitCode = 1;
  } finally {
    from.close();
    to.close();
    await handle.db.destroy();
  }
}

const program = new Command()
  .name('packyard')
  .description('Private Composer package registry. Settings come from environment variables.');
program.command('serve').description('serve the API and the Composer repository').action(serve);
program.command('worker').description('run background tasks only').action(worker);
program.command('migrate').description('bring the database schema up to date').action(migrateOnly);
program
  .command('storage')
  .description('archive storage')
  .command('migrate')
  .description('copy every archive to another storage (resumable; each object SHA-1 verified)')
  .requiredOption('--to <url>', 'destination: s3://bucket/prefix or file:///folder')
  .action(storageMigrate);

await program.parseAsync(process.argv);
