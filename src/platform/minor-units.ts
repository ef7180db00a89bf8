// Amounts where they meet a payment gateway: in the currency's minor unit, as ISO 4217 defines its
// exponent (JPY 0: 500 yen is 500; EUR 2: 5.00 euros is 500; KWD 3: 5.000 dinars is 5000). Inside
// itinera money is integer cents (hundredths of the major unit) whatever the currency; these
// functions are the one place that turns cents into the gateway's integers and back.

/** ISO 4217 currencies whose exponent is not 2 (the ones Stripe charges in; zero- and three-decimal). */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  MGA: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** Digits after the decimal point of a currency's minor unit (2 unless ISO 4217 says otherwise). */
export function minorUnitExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

/**
 * Cents rounded (half up) to what the currency can be paid in: whole yen for JPY, unchanged for
 * two- and three-decimal currencies. Every amount sent to a gateway is first made one of these.
 */
export function roundToMinorUnit(cents: number, currency: string): number {
  const exponent = minorUnitExponent(currency);
  if (exponent >= 2) return cents;
  const step = 10 ** (2 - exponent);
  return Math.sign(cents) * Math.floor((Math.abs(cents) + step / 2) / step) * step;
}

/** Cents -> the gateway's integer amount (JPY 4500000 cents -> 45000; KWD 1234 -> 12340). */
export function centsToMinorUnits(cents: number, currency: string): number {
  const exponent = minorUnitExponent(currency);
  const rounded = roundToMinorUnit(cents, currency);
  return exponent >= 2 ? rounded * 10 ** (exponent - 2) : rounded / 10 ** (2 - exponent);
}

/** The gateway's integer amount -> cents (JPY 45000 -> 4500000; KWD 12345 -> 1235, half up). */
export function minorUnitsToCents(minor: number, currency: string): number {
  const exponent = minorUnitExponent(currency);
  if (exponent <= 2) return minor * 10 ** (2 - exponent);
  const step = 10 ** (exponent - 2);
  return Math.sign(minor) * Math.floor((Math.abs(minor) + step / 2) / step);
}
