import { ResponseCache } from '../src/areas/composer-repository/response-cache.js';
import type { RenderedDocument } from '../src/areas/composer-repository/rendered-document.js';
import type { Config } from '../src/config/index.js';
import { CacheGeneration } from '../src/infra/cache-generation.js';
import { digest } from '../src/infra/crypto.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { Db } from '../src/infra/db/connection.js';
import { createRateLimiting } from '../src/http/rate-limit.js';
import { heading, item } from './report.js';

/** Rounds of the in-process micro benches (BENCH_MICRO_ROUNDS, 9). */
export const MICRO_ROUNDS = Number(process.env.BENCH_MICRO_ROUNDS) || 9;

/** The secret of the one token the micro benches' cache knows. */
export const MICRO_SECRET = 'pkt_micro0benchmark0secret0000000000abcdef';

/**
 * A response cache holding `docs` (path -> document) for MICRO_SECRET's audience, and rate limits
 * on (far above what a bench sends), as a serving process has them.
 */
export function microCache(docs: Record<string, RenderedDocument>) {
  const cache = new ResponseCache(new CacheGeneration({} as Db));
  const audience = cache.remember(DEFAULT_TENANT_ID, digest(MICRO_SECRET), 'fp', 0, []);
  for (const [path, doc] of Object.entries(docs)) cache.set(audience, 0, path, doc, []);
  const limits = createRateLimiting({
    config: {
      redisUrl: undefined,
      redisKeyPrefix: 'micro:',
      rateLimitAdminPerMinute: 0,
      rateLimitComposerPerMinute: 1_000_000_000,
    } as unknown as Pick<Config, 'redisUrl'>,
  } as Parameters<typeof createRateLimiting>[0]);
  return { cache, limits };
}

/**
 * Times each variant (`measure` answers its CPU nanoseconds per answer) in alternating rounds
 * after one warm-up each, and prints the median round of each under `title`.
 */
export async function microRounds<V>(
  title: string,
  variants: [name: string, variant: V][],
  measure: (variant: V) => number | Promise<number>,
): Promise<void> {
  const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  for (const [, v] of variants) await measure(v); // warm-up
  for (let round = 0; round < MICRO_ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const [name, v] of order) times.get(name)!.push(await measure(v));
  }
  heading(`${title} x ${MICRO_ROUNDS} rounds`);
  for (const [name, ns] of times) {
    const sorted = [...ns].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    const us = (n: number) => (n / 1000).toFixed(2);
    item(name, `${us(median)} µs/answer (rounds ${us(sorted[0]!)}-${us(sorted.at(-1)!)})`);
  }
}

export { fmt } from './report.js';
