// The European Central Bank's euro foreign exchange reference rates, daily feed
// (eurofxref-daily.xml): a gesmes:Envelope whose Cube holds one Cube per reference date
// (time='YYYY-MM-DD') with one Cube per currency (currency='USD' rate='1.0866'): units of that
// currency per 1 EUR. Read with a strict pattern rather than an XML library: the document is small
// and fixed, and anything that does not look exactly like it is refused as malformed.

export interface ReferenceRates {
  /** the reference date, YYYY-MM-DD */
  date: string;
  /** currency -> units per 1 EUR, as the decimal text the feed gave */
  rates: Map<string, string>;
}

export class FeedError extends Error {
  override name = 'FeedError';
}

const DAY = /<Cube\s+time\s*=\s*['"](\d{4}-\d{2}-\d{2})['"]\s*>([\s\S]*?)<\/Cube>/g;
const RATE = /<Cube\s+currency\s*=\s*['"]([A-Z]{3})['"]\s+rate\s*=\s*['"]([^'"]*)['"]\s*\/>/g;
/** at most 10 integer digits and 8 decimals: the rate column is numeric(18, 8) */
const DECIMAL = /^\d{1,10}(\.\d{1,8})?$/;

/** The newest reference date of an ECB feed document; FeedError when it is not one. */
export function parseEcbFeed(xml: string): ReferenceRates {
  if (!/<gesmes:Envelope[\s>]/.test(xml) || !/<\/gesmes:Envelope>\s*$/.test(xml.trim())) {
    throw new FeedError('not an ECB reference rates document (no complete gesmes:Envelope)');
  }
  const days = [...xml.matchAll(DAY)];
  if (days.length === 0) throw new FeedError('no reference date (Cube time=...) in the feed');
  // the daily feed has one date; the 90-day one lists the newest first
  const [, date, body] = days.reduce((a, b) => (b[1] > a[1] ? b : a));
  if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new FeedError(`bad reference date ${date}`);
  const rates = new Map<string, string>();
  for (const [, currency, rate] of body.matchAll(RATE)) {
    if (!DECIMAL.test(rate) || Number(rate) <= 0) throw new FeedError(`bad rate for ${currency}: "${rate}"`);
    if (rates.has(currency)) throw new FeedError(`${currency} is listed twice for ${date}`);
    rates.set(currency, rate);
  }
  // every currency entry must have been read: a half-broken one is not skipped quietly
  const entries = (body.match(/<Cube\b/g) ?? []).length;
  if (entries !== rates.size) throw new FeedError(`${entries - rates.size} unreadable rate entries for ${date}`);
  if (rates.size === 0) throw new FeedError(`no rates for ${date}`);
  return { date, rates };
}

/** Downloads and reads the feed; FeedError for anything but a 200 with a well-formed document. */
export async function fetchEcbFeed(url: string, timeoutMs = 30_000, stop?: AbortSignal): Promise<ReferenceRates> {
  let res: Response;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    res = await fetch(url, {
      headers: { accept: 'application/xml, text/xml' },
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const why = stop?.aborted
      ? 'stopped by the task time-out'
      : e.name === 'TimeoutError'
        ? `timed out after ${timeoutMs} ms`
        : (e.cause?.code ?? e.message);
    throw new FeedError(`download failed: ${why}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw new FeedError(`download failed: ${(err as Error).message}`);
  }
  if (!res.ok) throw new FeedError(`download failed: HTTP ${res.status}`);
  return parseEcbFeed(text);
}
