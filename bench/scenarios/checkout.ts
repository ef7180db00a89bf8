// Checkout: start (every request a new visitor: no cookie, so a new booking and session each time)
// and GET session (one visitor's session read again and again), at 20 connections.
import type { BenchScenario, BenchTarget } from './types.js';

const MARKET = '/api/es/es';

/** The first bookable offer of the first listed product (through the public catalog API). */
async function bookableOfferId(baseUrl: string): Promise<number> {
  const products = (await (await fetch(`${baseUrl}${MARKET}/products`)).json()) as { data: { id: number }[] };
  for (const p of products.data) {
    const conf = (await (await fetch(`${baseUrl}${MARKET}/products/${p.id}/configurator`)).json()) as {
      data?: { months?: { dates: { offer_id: number; available: boolean }[] }[] };
    };
    const date = conf.data?.months?.flatMap((m) => m.dates).find((d) => d.available);
    if (date) return date.offer_id;
  }
  throw new Error('no bookable offer in the demo data');
}

export const scenario: BenchScenario = {
  name: 'checkout',
  async targets(baseUrl) {
    const offerId = await bookableOfferId(baseUrl);
    const started = await fetch(`${baseUrl}${MARKET}/checkout/${offerId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const cookie = started.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const targets: BenchTarget[] = [
      {
        name: 'checkout: start (new visitor)',
        path: `${MARKET}/checkout/${offerId}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        connections: 20,
        p99TargetMs: 25,
      },
      {
        name: 'checkout: GET session',
        path: `${MARKET}/checkout`,
        headers: { cookie },
        connections: 20,
        p99TargetMs: 10,
      },
    ];
    return targets;
  },
};
