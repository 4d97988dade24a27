import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClusterWindowCounter } from './cluster-counter.js';

describe('ClusterWindowCounter', () => {
  beforeEach(() => vi.useFakeTimers({ now: 120_000 }));
  afterEach(() => vi.useRealTimers());

  const sent = () => {
    const messages: { entries: [number, string, number][] }[] = [];
    return { messages, send: (m: { entries: [number, string, number][] }) => messages.push(m) };
  };

  it('tells the primary within 50 ms while a key is far below its limit', () => {
    const { messages, send } = sent();
    const counter = new ClusterWindowCounter('c', 60_000, send, 1000);
    for (let i = 0; i < 99; i++) counter.hit('token');
    vi.advanceTimersByTime(10);
    expect(messages).toHaveLength(0);
    vi.advanceTimersByTime(40);
    expect(messages).toEqual([
      { type: 'packyard:counter-deltas', name: 'c', entries: [[2, 'token', 99]] },
    ]);
  });

  it('tells the primary within 5 ms once a key reaches a tenth of its limit', () => {
    const { messages, send } = sent();
    const counter = new ClusterWindowCounter('c', 60_000, send, 1000);
    for (let i = 0; i < 99; i++) counter.hit('token');
    vi.advanceTimersByTime(1);
    expect(counter.hit('token').current).toBe(100);
    vi.advanceTimersByTime(5);
    expect(messages.map((m) => m.entries)).toEqual([[[2, 'token', 100]]]);
  });

  it('tells the primary within 5 ms when it has no limit (failed authentications)', () => {
    const { messages, send } = sent();
    const counter = new ClusterWindowCounter('c', 60_000, send);
    counter.hit('address');
    vi.advanceTimersByTime(5);
    expect(messages).toHaveLength(1);
  });

  it('adds what the other processes counted', () => {
    const { send } = sent();
    const counter = new ClusterWindowCounter('c', 60_000, send, 1000);
    counter.hit('token');
    counter.receive({ type: 'packyard:counter-totals', name: 'c', entries: [[2, 'token', 41]] });
    expect(counter.hit('token')).toEqual({ current: 43, ttl: 60_000 });
  });
});
