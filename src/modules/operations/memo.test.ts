import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { fixedClock } from '../../platform/clock.js';
import { remembered } from './memo.js';

describe('remembered aggregates', () => {
  it('loads once per key and time-to-live, shares a concurrent miss, and forgets a failed load', async () => {
    const clock = fixedClock('2026-06-15T10:00:00Z');
    const ctx = { clock } as unknown as AppContext;
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([remembered(ctx, 'k', 60_000, load), remembered(ctx, 'k', 60_000, load)]);
    expect([a.value, b.value, loads]).toEqual([1, 1, 1]);
    expect(a.at.toISOString()).toBe('2026-06-15T10:00:00.000Z');
    clock.advance(59_999);
    expect((await remembered(ctx, 'k', 60_000, load)).value).toBe(1);
    clock.advance(1);
    expect((await remembered(ctx, 'k', 60_000, load)).value).toBe(2);
    expect((await remembered(ctx, 'other', 60_000, load)).value).toBe(3);
    await expect(remembered(ctx, 'bad', 60_000, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await remembered(ctx, 'bad', 60_000, load)).value).toBe(4);
  });
});
