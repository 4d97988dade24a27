import type { Redis } from 'ioredis';

/** How long a node trusts what Redis last said about a key, and gathers hits before sending. */
const FRESH_MS = 5;

/** A key's count in the shared window and the ms until that window ends. */
export interface SharedCount {
  current: number;
  ttl: number;
}

interface KeyState {
  /** The shared count Redis last reported (every node's hits it had received). */
  known: number;
  /** Hits sent and not yet answered. */
  pending: number;
  /** Hits counted here and not yet sent. */
  unsent: number;
  heardAt: number;
  resetAt: number;
}

// INCRBY with the window's expiry set on the key's first hits, as @fastify/rate-limit's own
// script does with INCR, so routed requests and fast-path hits count on the very same key.
const INCR_BY = `
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

type WithIncrBy = Redis & {
  packyardIncrBy(key: string, windowMs: number, delta: number): Promise<[number, number]>;
};

/**
 * Counts requests per key in windows kept in Redis, shared by every node, without a round trip
 * per request: a key this node heard about within the last few ms is counted here and sent in a
 * batch a few ms later; any other key waits for one round trip. So a busy token costs one Redis
 * command per key and node every few ms, and a node can let a token past its limit by at most
 * what the other nodes served that token in those few ms. While Redis cannot be reached, hits
 * are counted here only (requests pass, as with the routed limit's skipOnError).
 */
export class RedisBatchedCounter {
  private readonly keys = new Map<string, KeyState>();
  private timer: NodeJS.Timeout | null = null;
  private nextSweep = 0;
  private readonly redis: WithIncrBy;

  constructor(
    redis: Redis,
    private readonly namespace: string,
    private readonly windowMs: number,
    private readonly onError?: (err: Error) => void,
  ) {
    if (!('packyardIncrBy' in redis)) {
      redis.defineCommand('packyardIncrBy', { numberOfKeys: 1, lua: INCR_BY });
    }
    this.redis = redis as WithIncrBy;
  }

  hit(key: string): SharedCount | Promise<SharedCount> {
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now);
    let state = this.keys.get(key);
    if (state && now - state.heardAt < FRESH_MS && now < state.resetAt) {
      state.unsent += 1;
      this.timer ??= setTimeout(() => this.flush(), FRESH_MS).unref();
      return this.count(state, now);
    }
    if (!state) {
      state = { known: 0, pending: 0, unsent: 0, heardAt: 0, resetAt: 0 };
      this.keys.set(key, state);
    }
    const counted = state;
    return this.send(key, counted, 1).then(() => this.count(counted, Date.now()));
  }

  private count(state: KeyState, now: number): SharedCount {
    return {
      current: state.known + state.pending + state.unsent,
      ttl: Math.max(0, state.resetAt - now),
    };
  }

  private async send(key: string, state: KeyState, delta: number): Promise<void> {
    state.pending += delta;
    try {
      const [current, ttl] = await this.redis.packyardIncrBy(
        this.namespace + key,
        this.windowMs,
        delta,
      );
      const now = Date.now();
      state.known = Number(current);
      state.resetAt = now + Number(ttl);
      state.heardAt = now;
    } catch (err) {
      // Counted here only; trusted for a moment so an outage does not cost every request a try.
      const now = Date.now();
      state.known += delta;
      if (state.resetAt <= now) state.resetAt = now + this.windowMs;
      state.heardAt = now;
      this.onError?.(err as Error);
    } finally {
      state.pending -= delta;
    }
  }

  private flush(): void {
    this.timer = null;
    for (const [key, state] of this.keys) {
      if (state.unsent === 0) continue;
      const delta = state.unsent;
      state.unsent = 0;
      void this.send(key, state, delta);
    }
  }

  private sweep(now: number): void {
    for (const [key, s] of this.keys) {
      if (s.resetAt <= now && s.unsent === 0 && s.pending === 0) this.keys.delete(key);
    }
    this.nextSweep = now + this.windowMs;
  }
}
