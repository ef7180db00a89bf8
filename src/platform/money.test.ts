import { describe, expect, it } from 'vitest';
import {
  amountToNumber,
  centsToNumber,
  convertCents,
  divideCents,
  formatCents,
  multiplyCents,
  toCents,
} from './money.js';

describe('money', () => {
  it('parses and formats decimal strings exactly', () => {
    expect(toCents('1234.56')).toBe(123456);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('-7')).toBe(-700);
    expect(toCents('2.005')).toBe(201);
    expect(formatCents(123456)).toBe('1234.56');
    expect(formatCents(-5)).toBe('-0.05');
    expect(centsToNumber(1999)).toBe(19.99);
    expect(amountToNumber('6675.714')).toBe(6675.71);
  });
  it('applies rates without binary floating point', () => {
    expect(multiplyCents(1000, '1.15')).toBe(1150);
    expect(multiplyCents(333, '0.5')).toBe(167);
    expect(divideCents(10832, '1.0832')).toBe(10000);
    expect(convertCents(10000, '1', '1.0832')).toBe(10832);
    expect(convertCents(10832, '1.0832', '1')).toBe(10000);
  });
});
