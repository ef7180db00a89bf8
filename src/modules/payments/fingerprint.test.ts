// The quote's fingerprint is what the customer chose: each selection kind, the pax count and the
// room type change it (and so make a new payment intent); prices refreshed elsewhere do not.
import { describe, expect, it } from 'vitest';
import { type QuotedSelections, selectionText } from './rules.js';

const base: QuotedSelections = {
  flightSelection: { cabin_class: 'ECONOMY', fare_id: 'f1' },
  hotelSelections: [{ upsell_hotel_id: 1, nights_start: 1, nights_end: 3 }],
  activitySelections: [{ activity_id: 7, day_number: 2 }],
  transferSelections: [{ transfer_id: 3, day_number: 1 }],
  actualPaxCount: 2,
  actualRoomType: '2A',
};

describe('quote fingerprint', () => {
  it.each([
    ['flights', { flightSelection: { cabin_class: 'BUSINESS', fare_id: 'f2' } }],
    ['hotels', { hotelSelections: [] }],
    ['activities', { activitySelections: [{ activity_id: 8, day_number: 2 }] }],
    ['activities removed', { activitySelections: [] }],
    ['transfers', { transferSelections: [{ transfer_id: 3, day_number: 4 }] }],
    ['pax count', { actualPaxCount: 3 }],
    ['room type', { actualRoomType: '2A+1CH' }],
  ] as [string, Partial<QuotedSelections>][])('changes with the %s', (_kind, change) => {
    expect(selectionText({ ...base, ...change })).not.toBe(selectionText(base));
  });

  it('is the same for the same choices in another key order', () => {
    const reordered = { ...base, flightSelection: { fare_id: 'f1', cabin_class: 'ECONOMY' } };
    expect(selectionText(reordered)).toBe(selectionText(base));
  });
});
