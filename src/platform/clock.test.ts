import { describe, expect, it } from 'vitest';
import { addDays, dateIn } from './clock.js';

describe('dateIn', () => {
  it('turns the date at local midnight, also right after an answer from the same minute was kept', () => {
    // Madrid is UTC+1 in November: local midnight is 23:00 UTC
    expect(dateIn('Europe/Madrid', new Date('2026-11-22T22:59:00.000Z'))).toBe('2026-11-22');
    expect(dateIn('Europe/Madrid', new Date('2026-11-22T22:59:59.999Z'))).toBe('2026-11-22');
    expect(dateIn('Europe/Madrid', new Date('2026-11-22T23:00:00.000Z'))).toBe('2026-11-23');
  });

  it('keeps zones apart and handles offsets that are not whole hours', () => {
    const at = new Date('2026-11-22T18:20:00.000Z');
    expect(dateIn('Asia/Kathmandu', at)).toBe('2026-11-23'); // UTC+5:45 → 00:05
    expect(dateIn('America/Toronto', at)).toBe('2026-11-22');
    expect(dateIn('Asia/Kathmandu', new Date('2026-11-22T18:14:59.000Z'))).toBe('2026-11-22'); // 23:59:59
  });

  it('goes back in time as well as forward', () => {
    expect(dateIn('UTC', new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(dateIn('UTC', new Date('2026-11-21T00:00:00Z'))).toBe('2026-11-21');
  });
});

describe('addDays', () => {
  it('crosses months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
