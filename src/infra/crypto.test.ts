import { describe, expect, it } from 'vitest';
import { sortableId } from './crypto.js';

describe('sortableId', () => {
  it('is a UUIDv7 whose text order is creation order, within one millisecond too', () => {
    const ids = Array.from({ length: 20_000 }, () => sortableId());
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i - 1]! < ids[i]!)) throw new Error(`${ids[i - 1]} !< ${ids[i]}`);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // The timestamp part is now, in milliseconds.
    const ms = Number.parseInt(ids.at(-1)!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(5_000);
  });
});
