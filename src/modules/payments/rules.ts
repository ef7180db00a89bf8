// Pure payment rules.

/** The deposit due now: `percent` of the total, in integer cents, half up. */
export function depositCents(totalCents: number, percent: number): number {
  if (totalCents <= 0) return 0;
  return Math.floor((totalCents * percent + 50) / 100);
}

export type PaymentStatus = 'Succeeded' | 'Pending' | 'RequiresAction' | 'Failed' | 'Canceled';

/** Stripe PaymentIntent status -> our payment status (the contract names `Succeeded`). */
export function paymentStatusOf(stripeStatus: string): PaymentStatus {
  switch (stripeStatus) {
    case 'succeeded':
      return 'Succeeded';
    case 'requires_action':
    case 'requires_confirmation':
      return 'RequiresAction';
    case 'canceled':
      return 'Canceled';
    case 'processing':
    case 'requires_capture':
    case 'requires_payment_method':
      return 'Pending';
    default:
      return 'Failed';
  }
}
