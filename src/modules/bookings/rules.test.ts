// The land services a booking confirms with its suppliers, and when it is confirmed or over.
import { describe, expect, it } from 'vitest';
import { isConfirmed, isTripOver, landServices } from './rules.js';

describe('landServices', () => {
  it('books the base hotel only for the nights no upgrade covers, then each upgrade and item', () => {
    const services = landServices({
      baseStays: [
        { hotelId: 1, name: 'Base Tokyo', dayStart: 1, dayEnd: 5 },
        { hotelId: 2, name: 'Base Kyoto', dayStart: 6, dayEnd: 7 },
      ],
      // nights 2-3 upgraded in Tokyo; Kyoto fully upgraded
      upgrades: [
        { hotelId: 3, name: 'Luxury Tokyo', tier: 'luxury', dayStart: 2, dayEnd: 3 },
        { hotelId: 4, name: 'Luxury Kyoto', tier: 'luxury', dayStart: 6, dayEnd: 7 },
      ],
      activities: [{ id: 9, name: 'Tea', day: 2 }],
      transfers: [{ id: 7, name: 'Arrival', day: 1 }],
    });
    expect(services.map((s) => [s.serviceType, s.serviceName, s.dayStart, s.dayEnd, s.tier])).toEqual([
      ['transfer', 'Arrival', 1, 1, null],
      ['hotel', 'Base Tokyo', 1, 1, 'selection'],
      ['hotel', 'Luxury Tokyo', 2, 3, 'luxury'],
      ['activity', 'Tea', 2, 2, null],
      ['hotel', 'Base Tokyo', 4, 5, 'selection'],
      ['hotel', 'Luxury Kyoto', 6, 7, 'luxury'],
    ]);
  });
});

describe('isConfirmed', () => {
  it('needs every leg booked and every supplier confirmation confirmed (cancelled ones aside)', () => {
    expect(isConfirmed(0, 0, [])).toBe(true);
    expect(isConfirmed(2, 1, ['confirmed'])).toBe(false);
    expect(isConfirmed(2, 2, ['confirmed', 'cancelled'])).toBe(true);
    expect(isConfirmed(0, 0, ['confirmed', 'requested'])).toBe(false);
    expect(isConfirmed(0, 0, ['declined'])).toBe(false);
  });
});

describe('isTripOver', () => {
  it('is over the day after the return date', () => {
    expect(isTripOver('2026-08-18', '2026-08-18')).toBe(false);
    expect(isTripOver('2026-08-18', '2026-08-19')).toBe(true);
    expect(isTripOver(null, '2030-01-01')).toBe(false);
  });
});
