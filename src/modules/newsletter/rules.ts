// Pure rules of the newsletter signup: trimming, the email and phone shapes, the market list, and
// the Spanish messages the site shows (the frontend displays the first one).
import { domainToASCII } from 'node:url';
import type { FieldErrors } from '../../platform/errors.js';

/** A mirror job's payload (the CRM and the marketing sync): ids only, the job re-reads the row. */
export interface MirrorPayload {
  subscriberId: number;
  /** only fill an empty phone on an existing remote contact */
  phoneOnly: boolean;
}

export const NEWSLETTER_MARKETS = ['es', 'de', 'us', 'uk', 'ca'] as const;
export type NewsletterMarket = (typeof NEWSLETTER_MARKETS)[number];

export const messages = {
  nameRequired: 'El nombre es obligatorio.',
  nameText: 'El nombre debe ser un texto.',
  nameMax: 'El nombre no puede tener más de 255 caracteres.',
  emailRequired: 'El correo electrónico es obligatorio.',
  emailText: 'El correo electrónico debe ser un texto.',
  emailMax: 'El correo electrónico no puede tener más de 255 caracteres.',
  emailInvalid: 'El correo electrónico no es válido.',
  emailNoMail: 'El dominio del correo electrónico no puede recibir correo.',
  phoneText: 'El teléfono debe ser un texto.',
  phoneMax: 'El teléfono no puede tener más de 50 caracteres.',
  phoneInvalid: 'El teléfono no es válido: usa de 7 a 15 dígitos, con + inicial opcional.',
  consentBoolean: 'El consentimiento debe ser verdadero o falso.',
  marketInvalid: 'El mercado seleccionado no es válido.',
  created: '¡Gracias por suscribirte!',
  existing: 'Ya estás suscrito. ¡Gracias por tu interés!',
} as const;

export interface SubscribeInput {
  name: string;
  email: string;
  /** null when absent or blank */
  phone: string | null;
  market: NewsletterMarket | null;
  consent: boolean | null;
}

/**
 * A string trimmed, with blank turned into null (the site's empty inputs mean "not given");
 * undefined when it is not a string. (A NUL character never gets here: the JSON parser refuses it.)
 */
function text(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? null : t;
}

/**
 * Validates and normalises the request body. Returns the input, or the field problems in the
 * order of the form (name, email, phone, consent, market). The email's DNS check is separate.
 */
export function parseSubscribe(body: unknown): { input: SubscribeInput } | { errors: FieldErrors } {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };

  const name = text(b.name);
  if (name === undefined) add('name', messages.nameText);
  else if (name === null) add('name', messages.nameRequired);
  else if (name.length > 255) add('name', messages.nameMax);

  const email = text(b.email);
  if (email === undefined) add('email', messages.emailText);
  else if (email === null) add('email', messages.emailRequired);
  else if (email.length > 255) add('email', messages.emailMax);
  else if (!isRfcEmail(email)) add('email', messages.emailInvalid);

  const phone = text(b.phone);
  if (phone === undefined) add('phone', messages.phoneText);
  else if (phone !== null && phone.length > 50) add('phone', messages.phoneMax);
  else if (phone !== null && !isPhone(phone)) add('phone', messages.phoneInvalid);

  let consent: boolean | null = null;
  if (b.consent !== undefined && b.consent !== null) {
    const c = parseBoolean(b.consent);
    if (c === undefined) add('consent', messages.consentBoolean);
    else consent = c;
  }

  const market = text(b.market);
  if (market === undefined || (market !== null && !(NEWSLETTER_MARKETS as readonly string[]).includes(market))) {
    add('market', messages.marketInvalid);
  }

  if (Object.keys(errors).length) return { errors };
  return {
    input: {
      name: name as string,
      email: email as string,
      phone: phone ?? null,
      market: (market ?? null) as NewsletterMarket | null,
      consent,
    },
  };
}

/** Booleans as HTML forms and JSON send them: true/false, 1/0, "1"/"0", "true"/"false", "on"/"off". */
function parseBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true' || v === 'on') return true;
  if (v === 0 || v === '0' || v === 'false' || v === 'off') return false;
  return undefined;
}

/** 7 to 15 digits; an optional leading +; spaces, parentheses, dots and hyphens between them. */
export function isPhone(phone: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(phone)) return false;
  const digits = phone.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

// RFC 5322 atext, plus UTF-8 (RFC 6531) in the local part
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\uFFFF-]+";
const DOT_ATOM = new RegExp(`^${ATOM}(\\.${ATOM})*$`);
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e\u0080-\uffff]|\\[\x20-\x7e])*"$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * An addr-spec of RFC 5322 (dot-atom or quoted local part) whose domain is a DNS host name
 * (internationalised names allowed): the DNS check needs a name to look up, so address literals
 * and single-label domains are refused.
 */
export function isRfcEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  // a dot-atom ends with an atom: "user@example.com." is not an addr-spec (mailDomain strips it for DNS)
  if (domain.endsWith('.')) return false;
  if (local.length > 64) return false;
  if (!DOT_ATOM.test(local) && !QUOTED.test(local)) return false;
  const ascii = mailDomain(email);
  if (!ascii || ascii.length > 253) return false;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  // the top-level label is never all digits (that would be an IP address)
  return !/^\d+$/.test(labels[labels.length - 1]) && domain.length > 0;
}

/** The email's domain in ASCII (punycode), lower-cased; '' when it is not a valid host name. */
export function mailDomain(email: string): string {
  const domain = email.slice(email.lastIndexOf('@') + 1).replace(/\.$/, '');
  return domainToASCII(domain).toLowerCase();
}

/** First name and last name split on the first space ("Ana María López" -> "Ana", "María López"). */
export function splitName(name: string | null): { firstName: string; lastName: string } {
  const n = (name ?? '').trim();
  const i = n.indexOf(' ');
  return i < 0 ? { firstName: n, lastName: '' } : { firstName: n.slice(0, i), lastName: n.slice(i + 1).trim() };
}
