// Pure payment rules.

/** The deposit due now: `percent` of the total, in integer cents, half up. */
export function depositCents(totalCents: number, percent: number): number {
  if (totalCents <= 0) return 0;
  return Math.floor((totalCents * percent + 50) / 100);
}

export type PaymentStatus = 'Succeeded' | 'Processing' | 'Pending' | 'RequiresAction' | 'Failed' | 'Canceled';

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
      return 'Processing';
    case 'requires_capture':
    case 'requires_payment_method':
      return 'Pending';
    default:
      return 'Failed';
  }
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export interface QuotedSelections {
  flightSelection: unknown;
  hotelSelections: unknown[];
  activitySelections: unknown[];
  transferSelections: unknown[];
  actualPaxCount: number;
  actualRoomType: string;
}

/** The text whose sha256 is a quote's fingerprint: what the customer chose, not what it costs today. */
export function selectionText(s: QuotedSelections): string {
  return canonicalJson({
    flights: s.flightSelection ?? null,
    hotels: s.hotelSelections,
    activities: s.activitySelections,
    transfers: s.transferSelections,
    pax: s.actualPaxCount,
    room: s.actualRoomType,
  });
}

/** Seats left on an offer: allotment less the seats paid bookings took and the seats others hold. */
export function seatsLeft(allotment: number, used: number, heldByOthers: number): number {
  return Math.max(0, allotment - used - heldByOthers);
}

/**
 * What a payment intent pays for, frozen when it is made and stored with it: the money, the
 * selection fingerprint, and the session state finalization books (contact, travelers, selections).
 */
export interface Quote<State = Record<string, unknown>> {
  totalCents: number;
  depositCents: number;
  /** upper-case ISO code */
  currency: string;
  fingerprint: string;
  state: State;
}

/**
 * Why a paid intent is not what its quote froze (null when it is): the amount (in cents, as the
 * gateway reports it after the minor-unit conversion) and the currency must both match.
 */
export function quoteMismatch(
  intent: { amountCents: number; currency: string },
  quote: Pick<Quote, 'depositCents' | 'currency'>,
): string | null {
  if (intent.currency.toUpperCase() !== quote.currency.toUpperCase()) {
    return `currency ${intent.currency.toUpperCase()} instead of ${quote.currency.toUpperCase()}`;
  }
  if (intent.amountCents !== quote.depositCents) {
    return `amount ${(intent.amountCents / 100).toFixed(2)} instead of ${(quote.depositCents / 100).toFixed(2)}`;
  }
  return null;
}
