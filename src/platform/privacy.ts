// What of a request or an error may reach the log and the request inspector (Telescope). Errors
// lose their SQL parameters and any e-mail, phone or passport number in their text; requests keep
// an allow-list of headers and the names, not the values, of their query parameters.
import pino from 'pino';

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+/gu;
// "+34 600 111 222", "(0)20 7946 0958", "600111222": a + and 7 digits, or 9 digits or more, with
// single separators; ISO dates (8 digits) and times stay readable
const PHONE = /\+\d(?:[\s().-]?\d){6,}|(?<![\w.-])\d(?:[\s().-]?\d){8,}(?![\w-])/g;
// passport and identity document numbers: one to three letters, then 6 to 9 digits
const DOCUMENT = /\b[A-Z]{1,3}\d{6,9}\b/g;
// Drizzle's "Failed query: ...\nparams: a,b,c" and PostgreSQL's "Key (email)=(x) already exists"
const SQL_PARAMS = /\n?params: [\s\S]*$/;
const KEY_VALUE = /\)=\([^)]*\)/g;
// PostgreSQL quotes the refused value: invalid input syntax for type integer: "Ana Garcia"
const QUOTED_INPUT = /(invalid input[^:"]*|value too long[^:"]*): "[^"]*"/g;

/** text with the personal data it may hold replaced by placeholders */
export function scrubText(text: string): string {
  return text
    .replace(SQL_PARAMS, '\nparams: [redacted]')
    .replace(KEY_VALUE, ')=([redacted])')
    .replace(QUOTED_INPUT, '$1: "[redacted]"')
    .replace(EMAIL, '[email]')
    .replace(PHONE, '[phone]')
    .replace(DOCUMENT, '[document]');
}

type Serialized = Record<string, unknown>;

/** fields of driver errors that hold values from the query (PostgreSQL's detail, Drizzle's params) */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'body', 'payload']);

function scrubSerialized(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (!value || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrubSerialized(v, depth + 1));
  const out: Serialized = {};
  for (const [k, v] of Object.entries(value)) {
    if (VALUE_FIELDS.has(k)) continue;
    out[k] = scrubSerialized(v, depth + 1);
  }
  return out;
}

type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

/** pino's error serializer, then without values: message, stack and causes scrubbed */
export function errSerializer(err: Error): SerializedError {
  const plain = err instanceof Error ? pino.stdSerializers.err(err) : err;
  return scrubSerialized(plain) as SerializedError;
}

/** "/p?token=abc&period=1h" -> "/p?token&period": which parameters, never their values */
export function urlWithoutQueryValues(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=')[0]!);
  return names.length ? `${url.slice(0, q)}?${names.join('&')}` : url.slice(0, q);
}

/** the request as logged: method, url without query values, id; no headers, no address */
export function reqSerializer(req: { method?: string; url?: string; id?: unknown }): Serialized {
  return { method: req.method, url: urlWithoutQueryValues(String(req.url ?? '')), id: req.id };
}

/** request headers Telescope may keep: nothing that authenticates, identifies or tracks a person */
export const STORED_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-length',
  'content-type',
  'host',
  'origin',
  'referer',
  'user-agent',
  'x-request-id',
]);
