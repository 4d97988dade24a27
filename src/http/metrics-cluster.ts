import cluster from 'node:cluster';
import { forkedByServe } from '../infra/serve-processes.js';
import type { Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Registry } from 'prom-client';
import { serviceUnavailable } from '../errors.js';

/**
 * /metrics for a whole `packyard serve` cluster (WEB_CONCURRENCY > 1). The process that takes the
 * scrape asks the primary; the primary runs prom-client's `AggregatorRegistry.clusterMetrics()`,
 * which asks every process for its registry (prom-client's own IPC messages) and merges them by
 * each metric's `aggregator` (counters and histograms summed), and sends the text back. So a
 * scrape landing on any process sees the same, never-decreasing counters.
 */

const REQUEST = 'packyard:metrics-request';
const ANSWER = 'packyard:metrics-answer';
/**
 * Set by the primary before it forks (forked processes inherit its environment): only then does
 * a cluster process ask its primary. Under another primary (pm2's cluster mode) nobody would
 * answer, and every scrape would wait for the timeout.
 */
/**
 * prom-client's clusterMetrics() gives up after 5 s (hard-coded) when a process does not answer;
 * the asking process waits a little longer for the primary's answer, then gives up too, so a
 * primary that is gone or stuck never hangs a scrape.
 */
const ASK_TIMEOUT_MS = 7_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
/** The aggregate as Prometheus text, or why there is none. */
interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends MetricsRequest | MetricsAnswer>(
  message: unknown,
  type: T['type'],
): message is T {
  const m = message as Partial<T> | null;
  return typeof m === 'object' && m !== null && m.type === type && typeof m.id === 'number';
}

/**
 * In the primary, before it forks: answers its processes' requests for the cluster's metrics.
 * Scrapes that arrive while a collection runs share its result (one round of IPC, not one per
 * scraper).
 */
export function answerClusterMetrics(): void {
  if (!cluster.isPrimary) return;
  // Constructing it adds prom-client's listener for the processes' answers.
  const aggregator = new AggregatorRegistry();
  let running: Promise<string> | null = null;
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) return;
    const { id } = message;
    const reply = (answer: Omit<MetricsAnswer, 'type' | 'id'>) => {
      if (!worker.isConnected()) return;
      // With a callback, a failed send (the process is dying) is not an 'error' on the worker.
      worker.send({ type: ANSWER, id, ...answer } satisfies MetricsAnswer, () => {});
    };
    running ??= aggregator.clusterMetrics().finally(() => (running = null));
    void running.then(
      (text) => reply({ text }),
      (err: unknown) => {
        const why = err instanceof Error ? err.message : String(err);
        // prom-client's own words for a process that did not answer within its 5 s.
        reply({
          error: why === 'Operation timed out.' ? 'a process did not answer within 5 s' : why,
        });
      },
    );
  });
}

/** True in a process forked by a primary that answers for the cluster's metrics. */
export const primaryAnswersMetrics = forkedByServe;

let shared: Registry | null = null;

/**
 * In a process of the cluster, as this module loads (at start, long before the app): answer the
 * primary's collections at once, with nothing until the app shares its registry. Constructing an
 * AggregatorRegistry adds prom-client's listener (once per process); without it a process still
 * starting would not answer, and every scrape would wait for the 5 s timeout and fail.
 */
if (primaryAnswersMetrics()) {
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([]);
}

/**
 * In a process of the cluster: `registry` is what this process answers when the primary collects
 * (prom-client's AggregatorRegistry.setRegistries). A process has one app, hence one registry;
 * the returned function withdraws it when that app closes. Elsewhere it does nothing.
 */
export function shareWithPrimary(registry: Registry): () => void {
  if (!primaryAnswersMetrics()) return () => {};
  AggregatorRegistry.setRegistries([registry]);
  shared = registry;
  return () => {
    if (shared !== registry) return;
    AggregatorRegistry.setRegistries([]);
    shared = null;
  };
}

let nextId = 0;
const waiting = new Map<number, (answer: MetricsAnswer) => void>();
let listening = false;

/**
 * In a process of the cluster: the metrics of every process, aggregated by the primary, as
 * Prometheus text. Rejects with SERVICE_UNAVAILABLE when a process or the primary does not answer
 * in time: a failed scrape is a gap Prometheus handles, where this process's own figures alone
 * would look like counter resets.
 */
export function clusterMetricsText(timeoutMs = ASK_TIMEOUT_MS): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: unknown) => {
      if (isMessage<MetricsAnswer>(message, ANSWER)) waiting.get(message.id)?.(message);
    });
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const settle = (answer: MetricsAnswer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (typeof answer.text === 'string') resolve(answer.text);
      else reject(serviceUnavailable(`Metrics of the serve's processes: ${answer.error}`));
    };
    const timer = setTimeout(
      () =>
        settle({ type: ANSWER, id, error: `the primary did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    waiting.set(id, settle);
    process.send?.({ type: REQUEST, id } satisfies MetricsRequest, undefined, undefined, (err) => {
      if (err) settle({ type: ANSWER, id, error: 'the primary cannot be reached' });
    });
  });
}
