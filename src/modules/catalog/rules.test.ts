import { describe, expect, it } from 'vitest';
import { isBookable, isInsideLeadTime } from './rules.js';

describe('isBookable', () => {
  const today = '2026-06-15';
  it('needs status Active and departure at least 5 days after today', () => {
    expect(isBookable({ status: 'Active', departureDate: '2026-06-20' }, today)).toBe(true);
    expect(isBookable({ status: 'Active', departureDate: '2026-06-19' }, today)).toBe(false);
    expect(isBookable({ status: 'SoldOut', departureDate: '2026-08-01' }, today)).toBe(false);
    expect(isBookable({ status: 'Active', departureDate: '2026-06-01' }, today)).toBe(false);
  });
  it('tells an Active offer inside the lead time apart', () => {
    expect(isInsideLeadTime({ status: 'Active', departureDate: '2026-06-19' }, today)).toBe(true);
    expect(isInsideLeadTime({ status: 'Inactive', departureDate: '2026-06-19' }, today)).toBe(false);
    expect(isInsideLeadTime({ status: 'Active', departureDate: '2026-06-20' }, today)).toBe(false);
  });
});
