// A booking paid through the real checkout over HTTP (start, contact, travelers, deposit intent,
// confirm), on a fresh offer departing in `departureInDays`, with the Stripe fake or the sandbox
// gateway. What the balance and mail tests start from.
import { eq } from 'drizzle-orm';
import { bookings, offers } from '../../src/db/schema/index.js';
import type { FakeStripe } from '../fakes/stripe.js';
import type { TestApp } from './app.js';
import { type CheckoutCatalog, offer } from './checkout-fixture.js';

let n = 0;

export interface PaidBooking {
  bookingId: number;
  reference: string;
  offerId: number;
  departureDate: string;
  totalPrice: number;
  deposit: number;
  /** the confirm answer's signed "manage my booking" URL */
  manageUrl: string | null;
}

export async function paidBooking(
  t: TestApp,
  cat: CheckoutCatalog,
  opts: {
    departureInDays: number;
    market?: 'es' | 'de';
    lang?: string;
    stripe?: FakeStripe;
    client?: { first_name: string; last_name: string; email: string; phone: string };
    /** the offer's final price and price per person (default: the fixture's 3910.00 / 1955.00) */
    price?: { finalPrice: string; pricePerPerson: string };
  },
): Promise<PaidBooking> {
  const market = opts.market ?? 'es';
  const lang = opts.lang ?? market;
  const db = t.database.db;
  const template = market === 'es' ? cat.offers.active : cat.offers.otherMarket;
  const [model] = await db.select().from(offers).where(eq(offers.id, template));
  n++;
  const o = await offer(
    db,
    {
      code: `PAID-${process.pid}-${n}`,
      marketProductId: model.marketProductId,
      departureInDays: opts.departureInDays,
      airport: model.departureAirport,
      ...(opts.price ?? {}),
    },
    cat.today,
  );
  const ip = `198.51.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const cookies = new Map<string, string>();
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      headers: { 'x-forwarded-for': ip, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.cookies) cookies.set(c.name, c.value);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const base = `/api/${market}/${lang}/checkout`;
  const client = opts.client ?? {
    first_name: 'Ana',
    last_name: 'Garcia',
    email: 'ana@example.com',
    phone: '+34600000000',
  };
  const traveler = (first: string, passport: string) => ({
    first_name: first,
    last_name: client.last_name,
    nationality: 'ES',
    passport_number: passport,
    passport_expiry: '2031-01-01',
    birth_date: '1980-02-03',
    phone: client.phone,
    email: client.email,
  });
  const start = await call('POST', `${base}/${o.id}`, {});
  await call('PUT', `${base}/contact`, { client });
  await call('PUT', `${base}/travelers`, {
    travelers: [traveler(client.first_name, `P${n}A`), traveler('Luis', `P${n}B`)],
  });
  const intent = await call('POST', `${base}/payment/intent`);
  opts.stripe?.succeed(intent.payment_intent_id);
  const confirmed = await call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
  const [b] = await db.select().from(bookings).where(eq(bookings.id, start.booking_id));
  return {
    bookingId: b.id,
    reference: b.reference,
    offerId: o.id,
    departureDate: o.departureDate,
    totalPrice: intent.total_price,
    deposit: intent.amount,
    manageUrl: confirmed.manage_url,
  };
}
