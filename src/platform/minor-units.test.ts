import { describe, expect, it } from 'vitest';
import { centsToMinorUnits, minorUnitExponent, minorUnitsToCents, roundToMinorUnit } from './minor-units.js';

describe('ISO 4217 minor units', () => {
  it('knows the exponents: JPY and KRW 0, EUR and USD 2, KWD and BHD 3', () => {
    expect(['JPY', 'krw', 'EUR', 'USD', 'KWD', 'bhd'].map(minorUnitExponent)).toEqual([0, 0, 2, 2, 3, 3]);
  });

  it('turns cents into the gateway amount and back', () => {
    // 45,000 JPY is 4,500,000 cents inside itinera and 45000 at Stripe
    expect(centsToMinorUnits(4_500_000, 'JPY')).toBe(45000);
    expect(minorUnitsToCents(45000, 'jpy')).toBe(4_500_000);
    // 2,270.99 EUR
    expect(centsToMinorUnits(227099, 'EUR')).toBe(227099);
    expect(minorUnitsToCents(227099, 'eur')).toBe(227099);
    // 12.34 KWD is 12.340 dinars: 12340 fils
    expect(centsToMinorUnits(1234, 'KWD')).toBe(12340);
    expect(minorUnitsToCents(12340, 'kwd')).toBe(1234);
    // a fils amount below the cent rounds half up: 12.345 -> 12.35
    expect(minorUnitsToCents(12345, 'KWD')).toBe(1235);
  });

  it('rounds to what the currency can be paid in, half up', () => {
    // 135,703.80 yen -> 135,704; 135,703.49 -> 135,703
    expect(roundToMinorUnit(13_570_380, 'JPY')).toBe(13_570_400);
    expect(roundToMinorUnit(13_570_349, 'JPY')).toBe(13_570_300);
    expect(centsToMinorUnits(13_570_380, 'JPY')).toBe(135704);
    expect(roundToMinorUnit(227099, 'EUR')).toBe(227099);
  });
});
