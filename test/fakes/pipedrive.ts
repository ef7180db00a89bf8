// A fake Pipedrive on 127.0.0.1 for tests, written from Pipedrive's API v2 documentation: persons
// (`/api/v2/persons`, search, PATCH), person and deal fields (`/api/v2/personFields`, `field_code`,
// `field_name`) with cursor pagination (`cursor`, `limit`, `additional_data.next_cursor`), and the
// v1 Leads API (`/v1/leads`, custom values as top-level deal field keys). It checks the
// `x-api-token` header (a token in the query string is refused), answers 410 to the deprecated v1
// person endpoints, sends the burst rate-limit headers (x-ratelimit-limit/remaining/reset) on every
// answer, keeps everything in memory, records every request and answers scripted failures.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface FakePerson {
  id: number;
  name: string;
  is_deleted: boolean;
  emails: { label: string; value: string; primary: boolean }[];
  phones: { label: string; value: string; primary: boolean }[];
  custom_fields: Record<string, unknown>;
}

export interface FakeLead {
  id: string;
  title: string;
  person_id: number;
  [customKey: string]: unknown;
}

export type Failure =
  | { status: 429; retryAfter?: string; reset?: string }
  | { status: 400 | 401 | 403 | 404 | 410 | 422 | 500 | 502 | 503 }
  /** hold the request without answering (the client's time-out fires) */
  | { hang: true }
  /** close the socket without an answer */
  | { reset: true };

interface Scripted {
  method?: string;
  path: RegExp;
  failure: Failure;
  times: number;
}

export interface FakePipedrive {
  url: string;
  token: string;
  requests: RecordedRequest[];
  persons: Map<number, FakePerson>;
  leads: FakeLead[];
  personFields: FakeField[];
  dealFields: FakeField[];
  /** adds a person as the CRM would hold it */
  addPerson(p: { name: string; email: string; phone?: string; id?: number }): FakePerson;
  /** soft delete (is_deleted true, as in Pipedrive's 30-day window) or hard delete (404) */
  deletePerson(id: number, how?: 'soft' | 'hard' | 'gone'): void;
  /** the next `times` requests matching method and path answer `failure` */
  fail(match: { method?: string; path: RegExp | string }, failure: Failure, times?: number): void;
  /** answers of requests matching the path wait `ms` first (to line up concurrent callers) */
  delay(path: RegExp, ms: number): void;
  /** the person's custom field value by field name */
  personCustom(person: FakePerson, fieldName: string): unknown;
  leadCustom(lead: FakeLead, fieldName: string): unknown;
  /**
   * The company's daily token budget is spent (true) or reset (false): meanwhile every request is
   * blocked with 429, no Retry-After, and `x-daily-requests-left: 0`, until the next day.
   */
  spendDailyBudget(spent: boolean): void;
  /** requests other than field schema reads and writes */
  calls(): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

export interface FakeField {
  field_code: string;
  field_name: string;
  field_type: string;
  is_custom_field: boolean;
}

function fieldKey(name: string): string {
  return createHash('sha1').update(name).digest('hex');
}

const STANDARD_PERSON_FIELDS: FakeField[] = [
  { field_code: 'name', field_name: 'Name', field_type: 'varchar', is_custom_field: false },
  { field_code: 'emails', field_name: 'Email', field_type: 'varchar', is_custom_field: false },
  { field_code: 'phones', field_name: 'Phone', field_type: 'phone', is_custom_field: false },
];
const STANDARD_DEAL_FIELDS: FakeField[] = [
  { field_code: 'title', field_name: 'Title', field_type: 'varchar', is_custom_field: false },
  { field_code: 'person_id', field_name: 'Contact person', field_type: 'people', is_custom_field: false },
];
const FIELD_TYPES = new Set(['varchar', 'text', 'date', 'double', 'phone', 'enum', 'set', 'monetary']);

/** Cursors are opaque to clients; here a base64 offset, as Pipedrive's look. */
const cursorFor = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');
function offsetOf(cursor: string | undefined): number | null {
  if (!cursor) return 0;
  try {
    const n = JSON.parse(Buffer.from(cursor, 'base64url').toString()).offset;
    return Number.isInteger(n) && n >= 0 ? n : null;
  } catch {
    return null;
  }
}

export async function startFakePipedrive(token = 'pd-test-token'): Promise<FakePipedrive> {
  const requests: RecordedRequest[] = [];
  const persons = new Map<number, FakePerson>();
  const leads: FakeLead[] = [];
  const personFields = [...STANDARD_PERSON_FIELDS];
  const dealFields = [...STANDARD_DEAL_FIELDS];
  const gone = new Set<number>();
  let scripted: Scripted[] = [];
  let nextPersonId = 1000;
  let nextLeadNo = 1;
  const hanging = new Set<ServerResponse>();
  const delays: { path: RegExp; ms: number }[] = [];
  // the burst window: 80 requests per 2 s, as documented for the lowest plan
  let burstUsed = 0;
  let burstStart = Date.now();
  let budgetSpent = false;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (Date.now() - burstStart >= 2000) {
      burstStart = Date.now();
      burstUsed = 0;
    }
    burstUsed++;
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '80',
      'x-ratelimit-remaining': String(Math.max(0, 80 - burstUsed)),
      'x-ratelimit-reset': '2',
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, data: unknown, status = 200, extra: Record<string, unknown> = {}) =>
    send(res, status, { success: true, data, ...extra });
  const error = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
    send(res, status, { success: false, error: message, errorCode: status, error_info: 'See the API docs' }, headers);

  const addPerson: FakePipedrive['addPerson'] = (p) => {
    const id = p.id ?? nextPersonId++;
    const person: FakePerson = {
      id,
      name: p.name,
      is_deleted: false,
      emails: [{ label: 'work', value: p.email, primary: true }],
      phones: p.phone ? [{ label: 'mobile', value: p.phone, primary: true }] : [],
      custom_fields: {},
    };
    persons.set(id, person);
    return person;
  };

  const searchItem = (p: FakePerson) => ({
    result_score: 1,
    item: {
      id: p.id,
      type: 'person',
      name: p.name,
      phones: p.phones.map((x) => x.value).filter(Boolean),
      emails: p.emails.map((x) => x.value).filter(Boolean),
      visible_to: 3,
      owner: { id: 1 },
      organization: null,
      custom_fields: [],
      notes: [],
    },
  });

  /** v2 cursor pagination: `limit` (max 500) and `cursor`; the next cursor in additional_data */
  const paged = <T>(res: ServerResponse, all: T[], query: Record<string, string>, wrap: (items: T[]) => unknown) => {
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) return error(res, 400, 'limit must be 1..500');
    const start = offsetOf(query.cursor);
    if (start === null) return error(res, 400, 'Invalid cursor');
    const slice = all.slice(start, start + limit);
    const next = start + limit < all.length ? cursorFor(start + limit) : null;
    return ok(res, wrap(slice), 200, { additional_data: { next_cursor: next } });
  };
  const contact = (c: any) => ({ label: c.label ?? '', value: String(c.value), primary: c.primary === true });
  // v2 is strict: arrays of {value: string, primary?: boolean, label?: string}, booleans as booleans
  const contactError = (list: unknown): string | null => {
    if (list === undefined) return null;
    if (!Array.isArray(list)) return 'emails/phones must be arrays';
    for (const c of list) {
      if (typeof c?.value !== 'string') return 'value must be a string';
      if (c.primary !== undefined && typeof c.primary !== 'boolean') return 'primary must be a boolean';
    }
    return null;
  };
  const customError = (custom: unknown, fields: FakeField[]): string | null => {
    if (custom === undefined) return null;
    if (typeof custom !== 'object' || custom === null || Array.isArray(custom))
      return 'custom_fields must be an object';
    for (const [code, value] of Object.entries(custom)) {
      const f = fields.find((x) => x.field_code === code && x.is_custom_field);
      if (!f) return `Unknown custom field ${code}`;
      if (f.field_type === 'date' && !(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))) {
        return `${f.field_name} must be a date YYYY-MM-DD`;
      }
      if (f.field_type === 'double' && typeof value !== 'number') return `${f.field_name} must be a number`;
    }
    return null;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    let body: any = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return error(res, 400, 'Bad JSON');
      }
    }
    const method = req.method ?? 'GET';
    const path = url.pathname;
    requests.push({ method, path, query, headers: req.headers, body });
    if (budgetSpent) {
      // blocked until the budget resets at the start of the next day: no Retry-After
      return error(res, 429, 'Daily API request limit exceeded', { 'x-daily-requests-left': '0' });
    }

    const hit = scripted.find((s) => s.times > 0 && (!s.method || s.method === method) && s.path.test(path));
    if (hit) {
      hit.times--;
      const f = hit.failure;
      if ('hang' in f) {
        hanging.add(res);
        return;
      }
      if ('reset' in f) {
        req.socket.destroy();
        return;
      }
      if (f.status === 429) {
        return error(res, 429, 'Rate limit exceeded', {
          'x-ratelimit-remaining': '0',
          ...(f.reset === undefined ? {} : { 'x-ratelimit-reset': f.reset }),
          ...(f.retryAfter === undefined ? {} : { 'retry-after': f.retryAfter }),
        });
      }
      const messages: Record<number, string> = {
        400: 'Bad request',
        401: 'unauthorized access',
        403: 'You do not have permission',
        404: 'Item not found',
        410: 'Item is gone',
        422: 'Unprocessable entity',
      };
      return error(res, f.status, messages[f.status] ?? 'Internal server error');
    }

    // the token travels in the x-api-token header only; one in a URL would end up in logs
    if (query.api_token !== undefined || req.headers['x-api-token'] !== token) {
      return error(res, 401, 'unauthorized access');
    }
    // the v1 person endpoints are past their end of support
    if (/^\/(api\/)?v1\/(persons|personFields|dealFields)(\/|$)/.test(path)) {
      return error(res, 410, 'This endpoint is deprecated; use /api/v2');
    }

    if (method === 'GET' && path === '/api/v2/persons/search') {
      const term = (query.term ?? '').toLowerCase();
      if (term.length < 1) return error(res, 400, 'term is required');
      if (query.exact_match !== undefined && !['true', 'false'].includes(query.exact_match)) {
        return error(res, 400, 'exact_match must be a boolean');
      }
      const exact = query.exact_match === 'true';
      const all = [...persons.values()]
        .filter((p) => !p.is_deleted)
        .filter((p) =>
          p.emails.some((e) => (exact ? e.value.toLowerCase() === term : e.value.toLowerCase().includes(term))),
        )
        .map(searchItem);
      return paged(res, all, query, (items) => ({ items }));
    }
    const personPath = path.match(/^\/api\/v2\/persons\/(\d+)$/);
    if (personPath) {
      const id = Number(personPath[1]);
      const person = persons.get(id);
      if (gone.has(id)) return error(res, 410, 'Item is gone');
      if (!person) return error(res, 404, 'Person not found');
      if (method === 'GET') return ok(res, person);
      if (method === 'PATCH') {
        if (person.is_deleted) return error(res, 410, 'Item is gone');
        const bad = contactError(body?.phones) ?? contactError(body?.emails);
        if (bad) return error(res, 400, bad);
        if (Array.isArray(body?.phones)) person.phones = body.phones.map(contact);
        if (Array.isArray(body?.emails)) person.emails = body.emails.map(contact);
        return ok(res, person);
      }
      return error(res, 405, 'Method not allowed');
    }
    if (method === 'POST' && path === '/api/v2/persons') {
      if (!body?.name || typeof body.name !== 'string') return error(res, 400, 'Name must be given.');
      if ('email' in body || 'phone' in body) return error(res, 400, 'Unknown fields email/phone; use emails/phones');
      const bad =
        contactError(body.emails) ?? contactError(body.phones) ?? customError(body.custom_fields, personFields);
      if (bad) return error(res, 400, bad);
      const id = nextPersonId++;
      const person: FakePerson = {
        id,
        name: body.name,
        is_deleted: false,
        emails: (body.emails ?? []).map(contact),
        phones: (body.phones ?? []).map(contact),
        custom_fields: { ...(body.custom_fields ?? {}) },
      };
      persons.set(id, person);
      return ok(res, person);
    }
    if (method === 'POST' && path === '/v1/leads') {
      if (!body?.title) return error(res, 400, 'Title must be given');
      if (!persons.has(body.person_id)) return error(res, 400, 'Person not found');
      const lead: FakeLead = { ...body, id: `00000000-0000-4000-8000-${String(nextLeadNo++).padStart(12, '0')}` };
      leads.push(lead);
      return ok(res, lead, 201);
    }
    const fieldsPath = path.match(/^\/api\/v2\/(personFields|dealFields)$/);
    if (fieldsPath) {
      const list = fieldsPath[1] === 'personFields' ? personFields : dealFields;
      if (method === 'GET') return paged(res, list, query, (items) => items);
      if (method === 'POST') {
        if (!body?.field_name || !FIELD_TYPES.has(body?.field_type)) {
          return error(res, 400, 'field_name and a valid field_type are required');
        }
        const field: FakeField = {
          field_code: fieldKey(body.field_name),
          field_name: body.field_name,
          field_type: body.field_type,
          is_custom_field: true,
        };
        list.push(field);
        return ok(res, field);
      }
    }
    return error(res, 404, 'Unknown method');
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const wait = delays.find((d) => d.path.test(new URL(req.url ?? '/', 'http://fake').pathname))?.ms ?? 0;
      if (wait > 0) setTimeout(() => handle(req, res, raw), wait);
      else handle(req, res, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fieldValue = (list: FakeField[], obj: Record<string, unknown>, name: string) => {
    const f = list.find((x) => x.field_name.toLowerCase() === name.toLowerCase());
    return f ? obj[f.field_code] : undefined;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    persons,
    leads,
    personFields,
    dealFields,
    addPerson,
    deletePerson(id, how = 'soft') {
      if (how === 'soft') persons.get(id)!.is_deleted = true;
      else {
        persons.delete(id);
        if (how === 'gone') gone.add(id);
      }
    },
    fail(match, failure, times = 1) {
      const path =
        typeof match.path === 'string'
          ? new RegExp(`^${match.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
          : match.path;
      scripted.push({ method: match.method, path, failure, times });
    },
    delay(path, ms) {
      delays.push({ path, ms });
    },
    personCustom: (p, name) => fieldValue(personFields, p.custom_fields, name),
    leadCustom: (l, name) => fieldValue(dealFields, l, name),
    calls: () => requests.filter((r) => !/Fields$/.test(r.path)),
    spendDailyBudget(spent) {
      budgetSpent = spent;
    },
    reset() {
      requests.length = 0;
      scripted = [];
      delays.length = 0;
      budgetSpent = false;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
