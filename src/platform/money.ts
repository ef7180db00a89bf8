// Money in integer minor units (cents). Decimal strings from NUMERIC columns go in and come
// out exactly; rates are applied with BigInt arithmetic, rounding half away from zero.

/** "123.45" | "123.4" | "-7" -> 12345 | 12340 | -700 */
export function toCents(value: string | number): number {
  const s = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new TypeError(`not a decimal amount: "${value}"`);
  const frac = (m[3] ?? '').padEnd(3, '0');
  let cents = Number(m[2]) * 100 + Number(frac.slice(0, 2));
  if (Number(frac[2]) >= 5) cents += 1;
  return m[1] ? -cents : cents;
}

/** 12345 -> "123.45" (the catalog's string form) */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 12345 -> 123.45 (the checkout's number form; exact for any cent amount) */
export function centsToNumber(cents: number): number {
  return Number(formatCents(cents));
}

/** "123.45" (a NUMERIC column) -> 123.45, rounded to the cent: the checkout's number form */
export function amountToNumber(value: string): number {
  return centsToNumber(toCents(value));
}

const SCALE = 10n ** 8n;

function decimalToScaled(rate: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,8}))?\d*$/.exec(rate.trim());
  if (!m) throw new TypeError(`not a rate: "${rate}"`);
  return BigInt(m[1]) * SCALE + BigInt((m[2] ?? '').padEnd(8, '0'));
}

function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const neg = n < 0n !== d < 0n;
  if ((r < 0n ? -r : r) * 2n >= (d < 0n ? -d : d)) return neg ? q - 1n : q + 1n;
  return q;
}

/** cents x rate, e.g. applying a margin "1.15" or a conversion rate "1.0832" */
export function multiplyCents(cents: number, rate: string): number {
  return Number(divRound(BigInt(cents) * decimalToScaled(rate), SCALE));
}

/** cents / rate, e.g. converting USD to EUR with a per-EUR rate */
export function divideCents(cents: number, rate: string): number {
  return Number(divRound(BigInt(cents) * SCALE, decimalToScaled(rate)));
}

/**
 * Converts between currencies with per-EUR rates (units of the currency per 1 EUR).
 * from -> EUR -> to; identity when the codes match.
 */
export function convertCents(cents: number, fromRatePerEur: string, toRatePerEur: string): number {
  if (fromRatePerEur === toRatePerEur) return cents;
  return Number(divRound(BigInt(cents) * decimalToScaled(toRatePerEur), decimalToScaled(fromRatePerEur)));
}
