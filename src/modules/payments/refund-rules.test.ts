import { describe, expect, it } from 'vitest';
import { allocateRefund, refundableCents, refundKey } from './refund-rules.js';

// a 7,569.98 booking: deposit 2,270.99 (30 %), balance 5,298.99
const payments = [
  { paymentId: 1, intentId: 'pi_deposit', paidCents: 227099, refundedCents: 0 },
  { paymentId: 2, intentId: 'pi_balance', paidCents: 529899, refundedCents: 0 },
];

describe('refund rules', () => {
  it('draws on the deposit first, then the balance payment', () => {
    // 5,298.99 = 2,270.99 from the deposit + 3,028.00 from the balance
    expect(allocateRefund(payments, 529899)).toEqual([
      { paymentId: 1, intentId: 'pi_deposit', amountCents: 227099 },
      { paymentId: 2, intentId: 'pi_balance', amountCents: 302800 },
    ]);
    expect(allocateRefund(payments, 10000)).toEqual([{ paymentId: 1, intentId: 'pi_deposit', amountCents: 10000 }]);
  });

  it('counts what was refunded already and refuses more than is left (422 refund_exceeds_paid)', () => {
    const after = [{ ...payments[0], refundedCents: 227099 }, payments[1]];
    expect(refundableCents(after)).toBe(529899);
    expect(allocateRefund(after, 100)).toEqual([{ paymentId: 2, intentId: 'pi_balance', amountCents: 100 }]);
    expect(() => allocateRefund(after, 529900)).toThrow(
      expect.objectContaining({ status: 422, code: 'refund_exceeds_paid' }),
    );
    expect(() => allocateRefund(payments, 0)).toThrow(expect.objectContaining({ code: 'refund_amount_invalid' }));
  });

  it('keys the n-th refund of a booking', () => {
    expect(refundKey(42, 3)).toBe('refund-42-3');
  });
});
