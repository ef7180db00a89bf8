// A fake Pipedrive v1 API on 127.0.0.1 for tests: it speaks the real paths and envelopes
// ({success, data, additional_data}), checks the api_token query parameter, keeps persons, leads
// and custom field schemas in memory, records every request, and answers scripted failures.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

export interface FakePerson {
  id: number;
  name: string;
  active_flag: boolean;
  email: { label: string; value: string; primary: boolean }[];
  phone: { label: string; value: string; primary: boolean }[];
  [customKey: string]: unknown;
}

export interface FakeLead {
  id: string;
  title: string;
  person_id: number;
  [customKey: string]: unknown;
}

export type Failure =
  | { status: 429; retryAfter?: string }
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
  personFields: { key: string; name: string; field_type: string }[];
  dealFields: { key: string; name: string; field_type: string }[];
  /** adds a person as the CRM would hold it */
  addPerson(p: { name: string; email: string; phone?: string; id?: number }): FakePerson;
  /** soft delete (active_flag false, as in Pipedrive's 30-day window) or hard delete (404) */
  deletePerson(id: number, how?: 'soft' | 'hard' | 'gone'): void;
  /** the next `times` requests matching method and path answer `failure` */
  fail(match: { method?: string; path: RegExp | string }, failure: Failure, times?: number): void;
  /** the person's custom field value by field name */
  personCustom(person: FakePerson, fieldName: string): unknown;
  leadCustom(lead: FakeLead, fieldName: string): unknown;
  /** requests other than field schema reads and writes */
  calls(): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

function fieldKey(name: string): string {
  return createHash('sha1').update(name).digest('hex');
}

const STANDARD_PERSON_FIELDS = [
  { key: 'name', name: 'Name', field_type: 'varchar' },
  { key: 'email', name: 'Email', field_type: 'varchar' },
  { key: 'phone', name: 'Phone', field_type: 'phone' },
];
const STANDARD_DEAL_FIELDS = [
  { key: 'title', name: 'Title', field_type: 'varchar' },
  { key: 'person_id', name: 'Contact person', field_type: 'people' },
];

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

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
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
      active_flag: true,
      email: [{ label: 'work', value: p.email, primary: true }],
      // Pipedrive returns an empty primary entry when a person has no phone
      phone: [{ label: '', value: p.phone ?? '', primary: true }],
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
      phones: p.phone.map((x) => x.value).filter(Boolean),
      emails: p.email.map((x) => x.value).filter(Boolean),
      visible_to: 3,
      owner: { id: 1 },
      organization: null,
      custom_fields: [],
      notes: [],
    },
  });

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
    requests.push({ method, path, query, body });

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
        return error(
          res,
          429,
          'Rate limit exceeded',
          f.retryAfter === undefined ? {} : { 'retry-after': f.retryAfter },
        );
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

    if (query.api_token !== token) return error(res, 401, 'unauthorized access');

    if (method === 'GET' && path === '/v1/persons/search') {
      const term = (query.term ?? '').toLowerCase();
      const exact = query.exact_match === 'true' || query.exact_match === '1';
      const items = [...persons.values()]
        .filter((p) => p.active_flag)
        .filter((p) =>
          p.email.some((e) => (exact ? e.value.toLowerCase() === term : e.value.toLowerCase().includes(term))),
        )
        .map(searchItem);
      return ok(res, { items }, 200, {
        additional_data: { pagination: { start: 0, limit: 10, more_items_in_collection: false } },
      });
    }
    const personPath = path.match(/^\/v1\/persons\/(\d+)$/);
    if (personPath) {
      const id = Number(personPath[1]);
      const person = persons.get(id);
      if (gone.has(id)) return error(res, 410, 'Item is gone');
      if (!person) return error(res, 404, 'Person not found');
      if (method === 'GET') return ok(res, person);
      if (method === 'PUT') {
        if (!person.active_flag) return error(res, 410, 'Item is gone');
        if (Array.isArray(body?.phone)) {
          person.phone = body.phone.map((p: any) => ({
            label: p.label ?? '',
            value: String(p.value ?? ''),
            primary: !!p.primary,
          }));
        }
        return ok(res, person);
      }
    }
    if (method === 'POST' && path === '/v1/persons') {
      if (!body?.name) return error(res, 400, 'Name must be given.');
      const email = Array.isArray(body.email) ? body.email : [{ value: body.email, primary: true, label: 'work' }];
      const phone = Array.isArray(body.phone) ? body.phone : [{ value: body.phone ?? '', primary: true, label: '' }];
      const id = nextPersonId++;
      const person: FakePerson = { ...body, id, name: body.name, active_flag: true, email, phone };
      persons.set(id, person);
      return ok(res, person, 201);
    }
    if (method === 'POST' && path === '/v1/leads') {
      if (!body?.title) return error(res, 400, 'Title must be given');
      if (!persons.has(body.person_id)) return error(res, 400, 'Person not found');
      const lead: FakeLead = { ...body, id: `00000000-0000-4000-8000-${String(nextLeadNo++).padStart(12, '0')}` };
      leads.push(lead);
      return ok(res, lead, 201);
    }
    const fieldsPath = path.match(/^\/v1\/(personFields|dealFields)$/);
    if (fieldsPath) {
      const list = fieldsPath[1] === 'personFields' ? personFields : dealFields;
      if (method === 'GET') {
        const start = Number(query.start ?? 0);
        const limit = Number(query.limit ?? 100);
        const slice = list.slice(start, start + limit);
        const more = start + limit < list.length;
        return ok(res, slice, 200, {
          additional_data: { pagination: { start, limit, more_items_in_collection: more, next_start: start + limit } },
        });
      }
      if (method === 'POST') {
        if (!body?.name || !body?.field_type) return error(res, 400, 'name and field_type are required');
        const field = { key: fieldKey(body.name), name: body.name, field_type: body.field_type };
        list.push(field);
        return ok(res, { ...field, id: list.length }, 201);
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
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fieldValue = (list: { key: string; name: string }[], obj: Record<string, unknown>, name: string) => {
    const f = list.find((x) => x.name.toLowerCase() === name.toLowerCase());
    return f ? obj[f.key] : undefined;
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
      if (how === 'soft') persons.get(id)!.active_flag = false;
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
    personCustom: (p, name) => fieldValue(personFields, p, name),
    leadCustom: (l, name) => fieldValue(dealFields, l, name),
    calls: () => requests.filter((r) => !/Fields$/.test(r.path)),
    reset() {
      requests.length = 0;
      scripted = [];
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
