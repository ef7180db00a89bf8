// Field rules of POST /api/leads that a JSON schema cannot say (spec 3, "POST /api/leads").
import { FieldErrorBag } from '../../platform/errors.js';

export interface LeadBody {
  name: string;
  email: string;
  phone?: string | null;
  region?: string | null;
  destinations?: { type: 'region' | 'country'; id?: string | null; label: string }[] | null;
  preferred_call_time?: string | null;
  consent: boolean;
}

export interface LeadInput {
  name: string;
  email: string;
  phone: string | null;
  region: string | null;
  destinations: { type: 'region' | 'country'; id?: string; label: string }[];
  preferredCallTime: string | null;
}

// One "@", a dotted domain, no spaces or control characters: the practical shape of an
// addressable mailbox (quoted local parts and IP literals are refused on purpose).
const EMAIL = /^[^\s@"(),:;<>[\]\\]+@(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isValidEmail(email: string): boolean {
  if (!EMAIL.test(email)) return false;
  const local = email.slice(0, email.lastIndexOf('@'));
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

const blankToNull = (v: string | null | undefined): string | null => {
  const t = v?.trim();
  return t ? t : null;
};

/** Trims, applies the rules the schema cannot, and throws 422 validation_failed on the first problems. */
export function validateLead(body: LeadBody): LeadInput {
  const bag = new FieldErrorBag();
  const name = body.name.trim();
  const email = body.email.trim();
  if (!name) bag.add('name', 'The name field is required.');
  if (!email) bag.add('email', 'The email field is required.');
  else if (!isValidEmail(email)) bag.add('email', 'The email field must be a valid email address.');
  const destinations = (body.destinations ?? []).map((d, i) => {
    const label = d.label.trim();
    if (!label) bag.add(`destinations.${i}.label`, 'The label field is required.');
    const id = blankToNull(d.id);
    return id === null ? { type: d.type, label } : { type: d.type, id, label };
  });
  if (body.consent !== true) bag.add('consent', 'The consent field must be accepted.');
  bag.throwIfAny(422);
  return {
    name,
    email,
    phone: blankToNull(body.phone),
    region: blankToNull(body.region),
    destinations,
    preferredCallTime: blankToNull(body.preferred_call_time),
  };
}
