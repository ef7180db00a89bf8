import { describe, expect, it } from 'vitest';
import { FieldErrorBag } from '../../platform/errors.js';
import { isIsoCountryCode } from './countries.js';
import {
  advanceFunnel,
  applyMargin,
  bookingReference,
  checkClient,
  checkTraveler,
  checkTravelers,
  convertTo,
  defaultRoomType,
  extrasCents,
  groupStays,
  hotelOptionId,
  isNonStandardPax,
  marketingRoundCents,
  nonStandardBasePrice,
  roomOccupancy,
  roomTypeFits,
  selectionHotelCostCents,
  upgradeDifferenceCents,
} from './rules.js';

const rates = new Map([
  ['EUR', '1'],
  ['USD', '1.10'],
  ['JPY', '160'],
]);

describe('marketingRoundCents', () => {
  it('rounds a per-person price up to the next 5 units minus 1 cent, as the catalog', () => {
    expect(marketingRoundCents(369010)).toBe(369499);
    expect(marketingRoundCents(369499)).toBe(369499);
    expect(marketingRoundCents(369500)).toBe(369499);
    expect(marketingRoundCents(369501)).toBe(369999);
    expect(marketingRoundCents(191667)).toBe(191999);
    expect(marketingRoundCents(1)).toBe(499);
    expect(marketingRoundCents(0)).toBe(0);
  });
});

describe('applyMargin', () => {
  it('multiplies by 1 + margin/100 exactly, rounding half up to the cent', () => {
    expect(applyMargin(340000, '15.00')).toBe(391000);
    expect(applyMargin(100, '15.5')).toBe(116);
    expect(applyMargin(333, '0')).toBe(333);
    expect(applyMargin(1, '50')).toBe(2);
  });
});

describe('nonStandardBasePrice', () => {
  const offer = {
    landBaseCents: 200000,
    offerPax: 2,
    defaultRoomHotelCents: 60000,
    flightPerPersonCents: 70000,
    marginPercent: '15.00',
  };
  it('scales land services per person, prices the chosen room, multiplies flights, rounds per passenger', () => {
    const p = nonStandardBasePrice({ ...offer, actualPax: 3, roomTypeHotelCents: 80000 });
    // services 1400 / 2 x 3 = 2100, + room 800 = 2900; flights 2100; (5000) x 1.15 = 5750; /3 = 1916.67 -> 1919
    expect(p).toEqual({
      landCents: 290000,
      flightCents: 210000,
      rawTotalCents: 575000,
      perPersonCents: 191999,
      baseCents: 575997,
    });
  });
  it('prices a single traveller in a 1A room', () => {
    const p = nonStandardBasePrice({ ...offer, actualPax: 1, roomTypeHotelCents: 40000 });
    expect(p.baseCents).toBe(206999); // (700 + 400 + 700) x 1.15 = 2070 -> 2069.99
  });
  it('gives the offer price back (before rounding) for the default party', () => {
    const p = nonStandardBasePrice({ ...offer, actualPax: 2, roomTypeHotelCents: 60000 });
    expect(p.rawTotalCents).toBe(391000);
  });
});

describe('extrasCents', () => {
  it('adds business extra x pax, hotel differences per room, activities x pax and flat transfers', () => {
    expect(
      extrasCents(
        {
          businessExtraPerPersonCents: 50000,
          hotelDifferencesCents: [45000, 10000],
          activityPerPersonCents: [4000, 5000],
          transferPerTripCents: [8000],
        },
        3,
      ),
    ).toBe(150000 + 55000 + 27000 + 8000);
    expect(
      extrasCents(
        {
          businessExtraPerPersonCents: null,
          hotelDifferencesCents: [],
          activityPerPersonCents: [],
          transferPerTripCents: [],
        },
        2,
      ),
    ).toBe(0);
  });
});

describe('room types', () => {
  it('parses occupancy and defaults from the passengers', () => {
    expect(roomOccupancy('2A+1CH')).toEqual({ adults: 2, children: 1 });
    expect(roomOccupancy('5A')).toBeNull();
    expect(roomOccupancy('2a')).toBeNull();
    expect(defaultRoomType(3)).toBe('3A');
    expect(roomTypeFits('2A+1CH', 3)).toBe(true);
    expect(roomTypeFits('3A', 2)).toBe(false);
  });
  it('calls a party non-standard when passengers or room differ from the offer default', () => {
    expect(isNonStandardPax(2, 2, '2A')).toBe(false);
    expect(isNonStandardPax(2, 3, '3A')).toBe(true);
    expect(isNonStandardPax(2, 1, '1A')).toBe(true);
  });
});

describe('currency conversion', () => {
  it('converts through EUR with per-EUR rates and gives null without a rate', () => {
    expect(convertTo(5500, 'USD', 'EUR', rates)).toBe(5000);
    expect(convertTo(2400000, 'JPY', 'EUR', rates)).toBe(15000);
    expect(convertTo(10000, 'EUR', 'USD', rates)).toBe(11000);
    expect(convertTo(10000, 'EUR', 'EUR', new Map())).toBe(10000);
    expect(convertTo(10000, 'GBP', 'EUR', rates)).toBeNull();
  });
});

describe('hotel grouping and prices', () => {
  const stays = [
    { hotelId: 1, tier: 'selection' as const, dayStart: 1, dayEnd: 2 },
    { hotelId: 1, tier: 'selection' as const, dayStart: 3, dayEnd: 3 },
    { hotelId: 2, tier: 'selection' as const, dayStart: 4, dayEnd: 4 },
    { hotelId: 1, tier: 'selection' as const, dayStart: 6, dayEnd: 7 },
    { hotelId: 9, tier: 'grand_luxury' as const, dayStart: 1, dayEnd: 3 },
    { hotelId: 8, tier: 'luxury' as const, dayStart: 1, dayEnd: 3 },
  ];
  it('groups consecutive nights at the same selection hotel and attaches overlapping upgrades', () => {
    const groups = groupStays(stays);
    expect(groups.map((g) => [g.selection.hotelId, g.selection.dayStart, g.selection.dayEnd])).toEqual([
      [1, 1, 3],
      [2, 4, 4],
      [1, 6, 7],
    ]);
    expect(groups[0].upgrades.map((u) => u.tier)).toEqual(['luxury', 'grand_luxury']);
    expect(groups[1].upgrades).toEqual([]);
    expect(hotelOptionId(8, 'luxury', 1, 3)).toBe('8-luxury-1-3');
    expect(hotelOptionId(null, 'selection', 1, 8)).toBe('package-selection-1-8');
  });
  it('prices an upgrade per room for the stay, converted, null without a rate', () => {
    const eur = { cents: 15000, currency: 'EUR' };
    expect(upgradeDifferenceCents({ cents: 30000, currency: 'EUR' }, eur, 3, 'EUR', rates)).toBe(45000);
    expect(upgradeDifferenceCents({ cents: 55000, currency: 'USD' }, eur, 3, 'EUR', rates)).toBe(105000);
    expect(upgradeDifferenceCents(undefined, eur, 3, 'EUR', rates)).toBeNull();
    expect(upgradeDifferenceCents({ cents: 1, currency: 'GBP' }, eur, 3, 'EUR', rates)).toBeNull();
  });
  it('sums the selection hotels of a room type', () => {
    const r = new Map([
      [1, { cents: 15000, currency: 'EUR' }],
      [2, { cents: 2400000, currency: 'JPY' }],
    ]);
    expect(selectionHotelCostCents(stays.slice(0, 3), (id) => r.get(id), 'EUR', rates)).toBe(60000);
    expect(selectionHotelCostCents(stays.slice(0, 3), () => undefined, 'EUR', rates)).toBeNull();
  });
});

describe('funnel', () => {
  it('keeps the furthest step and always moves the current one', () => {
    expect(advanceFunnel(null, 'hotels')).toEqual({ checkoutStep: 'hotels', currentStep: 'hotels' });
    expect(advanceFunnel('travelers', 'hotels')).toEqual({ checkoutStep: 'travelers', currentStep: 'hotels' });
    expect(advanceFunnel('hotels', 'summary')).toEqual({ checkoutStep: 'summary', currentStep: 'summary' });
  });
});

describe('bookingReference', () => {
  it('is IT- and ten characters of the 32 of Crockford base32 (no I, L, O, U)', () => {
    // bytes 0..31 map to the alphabet in order; higher bytes use their low 5 bits (255 -> 31 -> Z)
    expect(bookingReference(new Uint8Array([0, 1, 9, 10, 17, 18, 20, 26, 31, 255]))).toBe('IT-019AHJMTZZ');
    expect(bookingReference(new Uint8Array([32, 64, 96, 128, 160, 192, 224, 33, 65, 97]))).toBe('IT-0000000111');
    expect(bookingReference(new Uint8Array(10))).toHaveLength(13);
    expect(() => bookingReference(new Uint8Array(6))).toThrow(/10 random bytes/);
  });
});

describe('client rules', () => {
  const ok = { first_name: 'José', last_name: 'Núñez', email: 'jose@example.com', phone: '+34 600 000 000' };
  it('accepts any script in names', () => {
    const bag = new FieldErrorBag();
    expect(checkClient(ok, bag)).toEqual(ok);
    expect(bag.empty).toBe(true);
  });
  it('checks lengths, email and required fields', () => {
    const bag = new FieldErrorBag();
    checkClient({ first_name: 'x'.repeat(101), last_name: 'N', email: 'nope', phone: '1'.repeat(31) }, bag);
    expect(Object.keys(bag.errors)).toEqual(['client.first_name', 'client.last_name', 'client.email', 'client.phone']);
    const missing = new FieldErrorBag();
    checkClient({}, missing);
    expect(missing.errors['client.first_name']).toEqual(['The first name field is required.']);
    const long = new FieldErrorBag();
    checkClient({ ...ok, email: `${'a'.repeat(250)}@example.com`, last_name: 'x'.repeat(101) }, long);
    expect(Object.keys(long.errors)).toEqual(['client.last_name', 'client.email']);
  });
});

describe('traveler rules', () => {
  const today = '2026-06-15';
  const ok = {
    first_name: 'Ana Maria',
    last_name: 'Lopez',
    nationality: 'es',
    passport_number: 'XDA123456',
    passport_expiry: '2030-01-01',
    birth_date: '1990-05-20',
    phone: '+34600000000',
    email: 'ana@example.com',
  };
  const problems = (t: Record<string, unknown>) => {
    const bag = new FieldErrorBag();
    checkTraveler(t, bag, 't.', today);
    return bag.errors;
  };
  it('accepts a valid traveler and upper-cases the nationality', () => {
    const bag = new FieldErrorBag();
    expect(checkTraveler(ok, bag, 't.', today).nationality).toBe('ES');
    expect(bag.empty).toBe(true);
  });
  it('allows ASCII letters and spaces only', () => {
    for (const bad of ['José', 'Ann3', 'Ann+Bob', "O'Neil", 'Anne-Marie']) {
      expect(problems({ ...ok, first_name: bad })).toHaveProperty(['t.first_name']);
    }
  });
  it('enforces name lengths: last >= 2, each <= 57, together 2..57', () => {
    expect(problems({ ...ok, last_name: 'L' })).toHaveProperty(['t.last_name']);
    expect(problems({ ...ok, first_name: 'A'.repeat(58) })).toHaveProperty(['t.first_name']);
    expect(problems({ ...ok, first_name: 'A'.repeat(30), last_name: 'B'.repeat(28) })).toEqual({
      't.last_name': ['First and last name together must be between 2 and 57 characters.'],
    });
    expect(problems({ ...ok, first_name: 'A'.repeat(30), last_name: 'B'.repeat(27) })).toEqual({});
  });
  it('checks nationality, passport, dates, phone and email', () => {
    const e = problems({
      ...ok,
      nationality: 'XX',
      passport_number: 'P'.repeat(51),
      passport_expiry: today,
      birth_date: '2099-01-01',
      phone: '',
      email: 'bad@',
    });
    expect(Object.keys(e)).toEqual([
      't.nationality',
      't.passport_number',
      't.passport_expiry',
      't.birth_date',
      't.phone',
      't.email',
    ]);
    expect(problems({ ...ok, passport_expiry: '2030-02-30' })['t.passport_expiry']).toEqual([
      'The passport expiry field must be a valid date (YYYY-MM-DD).',
    ]);
  });
  it('requires exactly the expected number of travelers', () => {
    expect(() => checkTravelers([ok], 2, today)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'validation_failed',
        message: expect.stringContaining('must be 2'),
      }),
    );
    expect(checkTravelers([ok, ok], 2, today)).toHaveLength(2);
  });
});

describe('ISO 3166-1 alpha-2', () => {
  it('knows assigned codes only', () => {
    expect(['ES', 'de', 'GB', 'US', 'SS', 'XK'].map(isIsoCountryCode)).toEqual([true, true, true, true, true, false]);
    expect(['EU', 'UK', 'ZZ', 'ESP', ''].some(isIsoCountryCode)).toBe(false);
  });
});
