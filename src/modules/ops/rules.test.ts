import { describe, expect, it } from 'vitest';
import { bearerMatches, diskStatus, healthHttpStatus, isIsoDate, usedPercent } from './rules.js';

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>" and nothing else', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('BEARER s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('Bearer s3cret ', 's3cret')).toBe(true);
    for (const header of [
      undefined,
      '',
      's3cret',
      'Bearer',
      'Bearer ',
      'Bearer s3cre',
      'Bearer s3crett',
      'Basic s3cret',
      'Bearer s3 cret',
    ]) {
      expect(bearerMatches(header, 's3cret'), String(header)).toBe(false);
    }
  });

  it('never matches when no token is expected', () => {
    expect(bearerMatches('Bearer ', '')).toBe(false);
    expect(bearerMatches(undefined, '')).toBe(false);
  });
});

describe('isIsoDate', () => {
  it('accepts ISO 8601 calendar dates and date-times', () => {
    for (const v of [
      '2026-06-15',
      '2024-02-29',
      '2026-06-15T09:12',
      '2026-06-15T09:12:44',
      '2026-06-15T09:12:44Z',
      '2026-06-15 09:12:44',
      '2026-06-15T09:12:44.123456+02:00',
      '2026-06-15T09:12:44-0530',
    ]) {
      expect(isIsoDate(v), v).toBe(true);
    }
  });
  it('refuses other formats and impossible dates or times', () => {
    for (const v of [
      '',
      'yesterday',
      '15/06/2026',
      '2026-6-15',
      '20260615',
      '2026-02-29',
      '2026-13-01',
      '2026-06-31',
      '2026-06-15T24:00',
      '2026-06-15T10:60',
      '2026-06-15T10:00:00+15:00',
      '2026-06-15T',
      '2026-06-15Z',
    ]) {
      expect(isIsoDate(v), v).toBe(false);
    }
  });
});

describe('disk rules', () => {
  it('computes the used share like df (root-reserved blocks are not available)', () => {
    expect(usedPercent({ blocks: 1000, bfree: 300, bavail: 250 })).toBe(73.7);
    expect(usedPercent({ blocks: 1000, bfree: 1000, bavail: 1000 })).toBe(0);
    expect(usedPercent({ blocks: 0, bfree: 0, bavail: 0 })).toBe(0);
  });
  it('warns above 70 % and fails above 90 %', () => {
    expect([0, 70, 70.1, 90, 90.1, 100].map(diskStatus)).toEqual([
      'ok',
      'ok',
      'warning',
      'warning',
      'failed',
      'failed',
    ]);
  });
  it('answers 503 only when a check failed', () => {
    expect(healthHttpStatus(['ok', 'warning'])).toBe(200);
    expect(healthHttpStatus(['ok', 'failed'])).toBe(503);
  });
});
