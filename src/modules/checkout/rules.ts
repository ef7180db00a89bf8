// Pure checkout rules: funnel steps, room types, pricing in integer cents, hotel option grouping,
// booking references and the field rules of client and traveler data.

import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import { FieldErrorBag } from '../../platform/errors.js';
import { convertCents } from '../../platform/money.js';
import { isIsoCountryCode } from './countries.js';

// ---------------------------------------------------------------------------------------------
// Funnel

export const FUNNEL_STEPS = [
  'flights',
  'hotels',
  'activities',
  'transfers',
  'main_contact',
  'travelers',
  'summary',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

export function isFunnelStep(value: unknown): value is FunnelStep {
  return typeof value === 'string' && (FUNNEL_STEPS as readonly string[]).includes(value);
}

/** checkout_step only moves forward; current_step is always the step just viewed. */
export function advanceFunnel(
  furthest: string | null,
  step: FunnelStep,
): { checkoutStep: FunnelStep; currentStep: FunnelStep } {
  const before = isFunnelStep(furthest) ? FUNNEL_STEPS.indexOf(furthest) : -1;
  const now = FUNNEL_STEPS.indexOf(step);
  return { checkoutStep: now > before ? step : (furthest as FunnelStep), currentStep: step };
}

/** The page a visitor moves on to after saving each checkout step (with `advance`). */
export const STEP_AFTER = {
  flights: 'hotels',
  hotels: 'activities',
  activities: 'transfers',
  transfers: 'main_contact',
  contact: 'travelers',
  travelers: 'summary',
} as const satisfies Record<string, FunnelStep>;

// ---------------------------------------------------------------------------------------------
// Passengers and room types

export const MIN_PAX = 1;
export const MAX_PAX = 4;
/** Room types hotel options can be priced for (query room_type). */
export const PRICING_ROOM_TYPES = ['1A', '2A', '3A', '4A'] as const;

/** `2A` -> 2 adults, `2A+1CH` -> 2 adults and 1 child; null when not a room type code. */
export function roomOccupancy(roomType: string): { adults: number; children: number } | null {
  const m = /^([1-4])A(?:\+([1-3])CH)?$/.exec(roomType);
  if (!m) return null;
  return { adults: Number(m[1]), children: Number(m[2] ?? 0) };
}

/** The room type a party of `pax` adults takes when none is chosen: 1A .. 4A. */
export function defaultRoomType(pax: number): string {
  return `${pax}A`;
}

/** A room type fits a party when its occupancy (adults plus children) equals the passengers. */
export function roomTypeFits(roomType: string, pax: number): boolean {
  const o = roomOccupancy(roomType);
  return o !== null && o.adults + o.children === pax;
}

/** Non-standard: passengers or room differ from the offer's default (pax_count adults in one room). */
export function isNonStandardPax(offerPax: number, actualPax: number, roomType: string): boolean {
  return actualPax !== offerPax || roomType !== defaultRoomType(offerPax);
}

// ---------------------------------------------------------------------------------------------
// Money

/** Exchange rates: units of the currency per 1 EUR (EUR itself is 1 when absent). */
export type RatesPerEur = ReadonlyMap<string, string>;

/** Converts supplier cents into the target currency; null when a rate is missing. */
export function convertTo(cents: number, from: string, to: string, rates: RatesPerEur): number | null {
  if (from === to) return cents;
  const fromRate = from === 'EUR' ? (rates.get('EUR') ?? '1') : rates.get(from);
  const toRate = to === 'EUR' ? (rates.get('EUR') ?? '1') : rates.get(to);
  if (!fromRate || !toRate) return null;
  return convertCents(cents, fromRate, toRate);
}

/**
 * Marketing rounding of a per-person price, the catalog's rule (the demo catalog is built with it):
 * up to the next multiple of 5 currency units, minus 1 cent (3690.10 -> 3694.99, 3694.99 -> 3694.99,
 * 3695.00 -> 3694.99, 3695.01 -> 3699.99). Start, re-pricing and every other written price use it.
 */
export function marketingRoundCents(cents: number): number {
  if (cents <= 0) return 0;
  return Math.ceil(cents / 500) * 500 - 1;
}

/** a x n / d rounded half up, exact for cents (BigInt). */
function mulDivRound(a: number, n: number, d: number): number {
  const num = BigInt(a) * BigInt(n);
  const den = BigInt(d);
  const q = num / den;
  const r = num % den;
  return Number(r * 2n >= den ? q + 1n : q);
}

/** cents x (1 + margin/100); margin as the NUMERIC string of the offer, e.g. "15.00". */
export function applyMargin(cents: number, marginPercent: string): number {
  const m = /^(\d+)(?:\.(\d{1,4}))?\d*$/.exec(marginPercent.trim());
  if (!m) throw new TypeError(`not a margin: "${marginPercent}"`);
  // percent with 4 decimals as millionths of the whole: 15.5 -> 155000
  const millionths = Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
  return mulDivRound(cents, 1_000_000 + millionths, 1_000_000);
}

export interface NonStandardPriceInput {
  /** the offer's land_base_price: land services for pax_count adults in the default room */
  landBaseCents: number;
  offerPax: number;
  actualPax: number;
  /** cost of the selection hotels for the whole tour in the default room type (offer pax) */
  defaultRoomHotelCents: number;
  /** cost of the selection hotels for the whole tour in the chosen room type */
  roomTypeHotelCents: number;
  /** the offer's flight_price (per person) */
  flightPerPersonCents: number;
  marginPercent: string;
}

export interface NonStandardPrice {
  landCents: number;
  flightCents: number;
  rawTotalCents: number;
  perPersonCents: number;
  baseCents: number;
}

/**
 * Base price for a non-standard party:
 *   land   = (land_base - default-room hotels) / offer pax x actual pax + chosen-room hotels
 *   flight = flight_price x actual pax
 *   raw    = (land + flight) x (1 + margin/100)
 *   base   = marketingRound(raw / actual pax) x actual pax
 * The non-hotel land services scale per person; hotels are priced per room for the room type.
 */
export function nonStandardBasePrice(input: NonStandardPriceInput): NonStandardPrice {
  const services = input.landBaseCents - input.defaultRoomHotelCents;
  const landCents = mulDivRound(services, input.actualPax, input.offerPax) + input.roomTypeHotelCents;
  const flightCents = input.flightPerPersonCents * input.actualPax;
  const rawTotalCents = applyMargin(landCents + flightCents, input.marginPercent);
  const perPersonCents = marketingRoundCents(Math.ceil(rawTotalCents / input.actualPax));
  return { landCents, flightCents, rawTotalCents, perPersonCents, baseCents: perPersonCents * input.actualPax };
}

export interface PricedSelections {
  /** business_extra_price_per_person of the flight selection, in cents, or null */
  businessExtraPerPersonCents: number | null;
  hotelDifferencesCents: number[];
  activityPerPersonCents: number[];
  transferPerTripCents: number[];
}

/**
 * extras = business extra x pax + hotel differences (per room) + activities x pax + transfers (flat).
 */
export function extrasCents(s: PricedSelections, actualPax: number): number {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return (
    (s.businessExtraPerPersonCents ?? 0) * actualPax +
    sum(s.hotelDifferencesCents) +
    sum(s.activityPerPersonCents) * actualPax +
    sum(s.transferPerTripCents)
  );
}

// ---------------------------------------------------------------------------------------------
// Hotel options

export type Tier = 'selection' | 'luxury' | 'grand_luxury';
export const TIERS: readonly Tier[] = ['selection', 'luxury', 'grand_luxury'];

export interface Stay {
  hotelId: number;
  tier: Tier;
  /** first and last tour day (night) of the stay, inclusive */
  dayStart: number;
  dayEnd: number;
}

export interface StayGroup {
  selection: Stay;
  upgrades: Stay[];
}

/** Nights of an inclusive day range. */
export function nightsOf(dayStart: number, dayEnd: number): number {
  return dayEnd - dayStart + 1;
}

/**
 * Groups selection stays by consecutive nights at the same hotel; each group carries the upgrade
 * stays that overlap it, clipped to the group's nights.
 */
export function groupStays(stays: Stay[]): StayGroup[] {
  const selection = stays.filter((s) => s.tier === 'selection').sort((a, b) => a.dayStart - b.dayStart);
  const groups: Stay[] = [];
  for (const s of selection) {
    const last = groups.at(-1);
    if (last && last.hotelId === s.hotelId && s.dayStart <= last.dayEnd + 1) {
      last.dayEnd = Math.max(last.dayEnd, s.dayEnd);
    } else groups.push({ ...s });
  }
  const upgrades = stays.filter((s) => s.tier !== 'selection');
  return groups.map((g) => ({
    selection: g,
    upgrades: upgrades
      .filter((u) => u.dayStart <= g.dayEnd && u.dayEnd >= g.dayStart)
      .map((u) => ({ ...u, dayStart: Math.max(u.dayStart, g.dayStart), dayEnd: Math.min(u.dayEnd, g.dayEnd) }))
      .sort((a, b) => TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier) || a.dayStart - b.dayStart),
  }));
}

export function hotelOptionId(hotelId: number | null, tier: Tier, dayStart: number, dayEnd: number): string {
  return `${hotelId ?? 'package'}-${tier}-${dayStart}-${dayEnd}`;
}

export interface Rate {
  cents: number;
  currency: string;
}

/**
 * Price difference per room for a stay: (upgrade - selection) nightly rate x nights, each stay
 * converted to the target currency; null when a rate or an exchange rate is missing.
 */
export function upgradeDifferenceCents(
  upgrade: Rate | undefined,
  selection: Rate | undefined,
  nights: number,
  target: string,
  rates: RatesPerEur,
): number | null {
  if (!upgrade || !selection) return null;
  const up = convertTo(upgrade.cents * nights, upgrade.currency, target, rates);
  const base = convertTo(selection.cents * nights, selection.currency, target, rates);
  return up === null || base === null ? null : up - base;
}

/** Cost of all selection stays for one room type in the target currency; null when unpriceable. */
export function selectionHotelCostCents(
  stays: Stay[],
  rateOf: (hotelId: number) => Rate | undefined,
  target: string,
  rates: RatesPerEur,
): number | null {
  let total = 0;
  for (const s of stays) {
    if (s.tier !== 'selection') continue;
    const rate = rateOf(s.hotelId);
    if (!rate) return null;
    const cost = convertTo(rate.cents * nightsOf(s.dayStart, s.dayEnd), rate.currency, target, rates);
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// Booking reference

/**
 * Crockford's base32: 32 letters and digits without I, L, O and U (no 1/I/L or 0/O mix-up), so each
 * character is 5 random bits. References before issue 26 were 6 characters of a 24-letter alphabet
 * (`IT-` + [34679ACDEFGHJKMNPQRTVWXY]{6}); they stay valid, only new ones are drawn this way.
 */
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** characters of a new reference: 32^10 = 2^50 (10^15) references, not guessable by enumeration */
export const REFERENCE_LENGTH = 10;

/** `IT-` and REFERENCE_LENGTH characters from as many random bytes (each byte's low 5 bits: no bias). */
export function bookingReference(random: Uint8Array): string {
  if (random.length < REFERENCE_LENGTH) throw new Error(`bookingReference needs ${REFERENCE_LENGTH} random bytes`);
  let out = 'IT-';
  for (let i = 0; i < REFERENCE_LENGTH; i++) out += REFERENCE_ALPHABET[random[i]! & 31];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Client and traveler data

export interface ClientData {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

export interface TravelerData {
  /** mr, ms, mrs, miss, dr: asked when the flight provider needs it (Duffel) */
  title?: string | null;
  /** m or f: asked when the flight provider needs it (Duffel) */
  gender?: string | null;
  first_name: string;
  last_name: string;
  nationality: string;
  passport_number: string;
  passport_expiry: string;
  birth_date: string;
  phone: string;
  email: string;
}

// a practical address check: local@domain.tld, no spaces, one @
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ASCII_NAME = /^[A-Za-z ]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const NAME_MAX = 57;

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function isCalendarDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function requireString(bag: FieldErrorBag, field: string, label: string, value: unknown): string | null {
  const v = str(value);
  if (v === '') {
    bag.add(field, `The ${label} field is required.`);
    return null;
  }
  return v;
}

function checkEmail(bag: FieldErrorBag, field: string, value: unknown): string {
  const v = requireString(bag, field, 'email', value);
  if (v === null) return '';
  if (v.length > 255) bag.add(field, 'The email field must not be greater than 255 characters.');
  else if (!EMAIL.test(v)) bag.add(field, 'The email field must be a valid email address.');
  return v;
}

function checkPhone(bag: FieldErrorBag, field: string, value: unknown): string {
  const v = requireString(bag, field, 'phone', value);
  if (v === null) return '';
  if (v.length > 30) bag.add(field, 'The phone field must not be greater than 30 characters.');
  return v;
}

/**
 * A traveler phone as the flight provider books it (E.164, e.g. +34612345678): a number written
 * without its country code is read as a number of `country` (the market's), the one a customer
 * of that market most likely typed; anything that is no valid number is refused by field.
 */
export function e164Phone(bag: FieldErrorBag, field: string, value: string, country: string | null): string {
  if (value === '') return value;
  const region = country && isSupportedCountry(country.toUpperCase()) ? country.toUpperCase() : undefined;
  const parsed = parsePhoneNumberFromString(value, region as Parameters<typeof parsePhoneNumberFromString>[1]);
  if (!parsed?.isValid()) {
    bag.add(
      field,
      'The phone field must be a valid phone number with its country code (e.g. +34 612 345 678): the flight provider books it in international format.',
    );
    return value;
  }
  return parsed.number;
}

/** Client (contact person) rules; names may hold any script. Returns trimmed values. */
export function checkClient(input: Record<string, unknown>, bag: FieldErrorBag, prefix = 'client.'): ClientData {
  const first = requireString(bag, `${prefix}first_name`, 'first name', input.first_name) ?? '';
  if (first.length > 100)
    bag.add(`${prefix}first_name`, 'The first name field must not be greater than 100 characters.');
  const last = requireString(bag, `${prefix}last_name`, 'last name', input.last_name);
  if (last !== null && [...last].length < 2)
    bag.add(`${prefix}last_name`, 'The last name field must be at least 2 characters.');
  if (last !== null && [...last].length > 100)
    bag.add(`${prefix}last_name`, 'The last name field must not be greater than 100 characters.');
  const email = checkEmail(bag, `${prefix}email`, input.email);
  const phone = checkPhone(bag, `${prefix}phone`, input.phone);
  return { first_name: first, last_name: last ?? '', email, phone };
}

/**
 * Traveler rules (names as in passports for the flight booking): ASCII letters and spaces only,
 * last name at least 2, each at most 57, first plus last 2 to 57 characters; nationality an ISO
 * 3166-1 alpha-2 code; passport expiry after `today`, birth date before `today` (YYYY-MM-DD).
 */
export function checkTraveler(
  input: Record<string, unknown>,
  bag: FieldErrorBag,
  prefix: string,
  today: string,
  extra: readonly TravelerExtraField[] = [],
  phoneCountry: string | null = null,
): TravelerData {
  const name = (key: 'first_name' | 'last_name', label: string): string => {
    const v = requireString(bag, `${prefix}${key}`, label, input[key]);
    if (v === null) return '';
    if (!ASCII_NAME.test(v)) {
      bag.add(`${prefix}${key}`, `The ${label} field may only contain letters (A-Z without accents) and spaces.`);
    } else if (v.length > NAME_MAX) {
      bag.add(`${prefix}${key}`, `The ${label} field must not be greater than ${NAME_MAX} characters.`);
    } else if (key === 'last_name' && v.length < 2) {
      bag.add(`${prefix}${key}`, `The ${label} field must be at least 2 characters.`);
    }
    return v;
  };
  const first = name('first_name', 'first name');
  const last = name('last_name', 'last name');
  const combined = first.length + last.length;
  if (first && last && (combined < 2 || combined > NAME_MAX)) {
    bag.add(`${prefix}last_name`, `First and last name together must be between 2 and ${NAME_MAX} characters.`);
  }

  const nationality = requireString(bag, `${prefix}nationality`, 'nationality', input.nationality);
  if (nationality !== null && !isIsoCountryCode(nationality)) {
    bag.add(`${prefix}nationality`, 'The nationality field must be an ISO 3166-1 alpha-2 country code.');
  }
  const passport = requireString(bag, `${prefix}passport_number`, 'passport number', input.passport_number);
  if (passport !== null && passport.length > 50) {
    bag.add(`${prefix}passport_number`, 'The passport number field must not be greater than 50 characters.');
  }
  const date = (key: 'passport_expiry' | 'birth_date', label: string, future: boolean): string => {
    const v = requireString(bag, `${prefix}${key}`, label, input[key]);
    if (v === null) return '';
    if (!isCalendarDate(v)) bag.add(`${prefix}${key}`, `The ${label} field must be a valid date (YYYY-MM-DD).`);
    else if (future && v <= today) bag.add(`${prefix}${key}`, `The ${label} field must be a date in the future.`);
    else if (!future && v >= today) bag.add(`${prefix}${key}`, `The ${label} field must be a date in the past.`);
    return v;
  };
  const passportExpiry = date('passport_expiry', 'passport expiry', true);
  const birthDate = date('birth_date', 'birth date', false);
  const typed = checkPhone(bag, `${prefix}phone`, input.phone);
  const phone = extra.includes('phone_e164') ? e164Phone(bag, `${prefix}phone`, typed, phoneCountry) : typed;
  const email = checkEmail(bag, `${prefix}email`, input.email);
  const title = checkChoice(bag, `${prefix}title`, 'title', input.title, TITLES, extra.includes('title'));
  const gender = checkChoice(bag, `${prefix}gender`, 'gender', input.gender, GENDERS, extra.includes('gender'));
  return {
    ...(title ? { title } : {}),
    ...(gender ? { gender } : {}),
    first_name: first,
    last_name: last,
    nationality: (nationality ?? '').toUpperCase(),
    passport_number: passport ?? '',
    passport_expiry: passportExpiry,
    birth_date: birthDate,
    phone,
    email,
  };
}

/**
 * Traveler fields beyond the spec's, required only when the flight provider needs them;
 * `phone_e164`: the phone is stored in E.164 (Duffel books nothing else).
 */
export type TravelerExtraField = 'title' | 'gender' | 'phone_e164';
export const TITLES = ['mr', 'ms', 'mrs', 'miss', 'dr'] as const;
export const GENDERS = ['m', 'f'] as const;

/** An optional field from a closed list (lower-cased); required when `required`. */
function checkChoice(
  bag: FieldErrorBag,
  field: string,
  label: string,
  value: unknown,
  allowed: readonly string[],
  required: boolean,
): string | null {
  const v = str(value).toLowerCase();
  if (v === '') {
    if (required) bag.add(field, `The ${label} field is required by the flight provider.`);
    return null;
  }
  if (!allowed.includes(v)) {
    bag.add(field, `The ${label} field must be one of: ${allowed.join(', ')}.`);
    return null;
  }
  return v;
}

/** All travelers; their number must equal the passengers of the session. */
export function checkTravelers(
  list: unknown[],
  expected: number,
  today: string,
  extra: readonly TravelerExtraField[] = [],
  phoneCountry: string | null = null,
): TravelerData[] {
  const bag = new FieldErrorBag();
  if (list.length !== expected) {
    bag.add('travelers', `The number of travelers must be ${expected}, got ${list.length}.`);
  }
  const out = list.map((t, i) =>
    checkTraveler(
      t && typeof t === 'object' ? (t as Record<string, unknown>) : {},
      bag,
      `travelers.${i}.`,
      today,
      extra,
      phoneCountry,
    ),
  );
  bag.throwIfAny(400);
  return out;
}
