/**
 * Fixed-window counters in memory, for one node: the rate limits' store (the p2 fast path counts
 * against the very same counters, synchronously) and the webhook routes' rejection limiter.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(private readonly windowMs: number) {}

  /** Counts one request; returns the count in the current window and the ms until it resets. */
  hit(key: string, now = Date.now()): { current: number; ttl: number } {
    if (now >= this.nextSweep) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { current: w.count, ttl: w.resetAt - now };
  }

  /** The count in the current window without counting, and the ms until it resets. */
  peek(key: string, now = Date.now()): { current: number; ttl: number } {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return { current: 0, ttl: 0 };
    return { current: w.count, ttl: w.resetAt - now };
  }

  /** Drops ended windows, at most once per window, so memory follows the active keys. */
  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}
