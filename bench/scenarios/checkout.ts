// Checkout load scenarios for bench/run.ts (autocannon against a running server with demo data).
// A scenario: { name, connections, duration?, target?: { p99Ms }, setup(baseUrl) -> autocannon
// options to merge ({ url, method, headers, body }) }. setup runs once before the measured run, so
// preparing a session is not measured.

interface Scenario {
  name: string;
  connections: number;
  duration?: number;
  target?: { p99Ms: number };
  setup(baseUrl: string): Promise<Record<string, unknown>>;
}

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

const scenarios: Scenario[] = [
  {
    name: 'checkout start (a new visitor on every request)',
    connections: 20,
    target: { p99Ms: 25 },
    async setup(baseUrl) {
      const offerId = await bookableOfferId(baseUrl);
      // no cookie is sent, so every request is a new visitor with a new booking and session
      return {
        url: `${baseUrl}${MARKET}/checkout/${offerId}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      };
    },
  },
  {
    name: 'checkout GET session',
    connections: 20,
    target: { p99Ms: 10 },
    async setup(baseUrl) {
      const offerId = await bookableOfferId(baseUrl);
      const res = await fetch(`${baseUrl}${MARKET}/checkout/${offerId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      return { url: `${baseUrl}${MARKET}/checkout`, method: 'GET', headers: { cookie } };
    },
  },
];

export default scenarios;
