// A thin typed client for the parts of the Pipedrive API the mirror uses, on Node's fetch.
// Persons, person fields and deal fields are on API v2 (`/api/v2/...`: `emails`/`phones` arrays,
// custom fields under `custom_fields`, PATCH for updates, cursor pagination); leads have no v2 yet
// and stay on `/v1/leads`, whose custom values are top-level keys from the deal field schema.
// Authentication is the `x-api-token` header, never the URL; every call has a time-out and
// follows the caller's AbortSignal (a job's time-out); every failure is classified once here so
// jobs only map a class to an outcome:
//   rate_limited  429, with the Retry-After delay in seconds
//   connection    no HTTP answer: refused, reset, DNS, time-out
//   rejected      any other non-2xx (401/403, 400/422, 404 elsewhere, 5xx) or a 2xx without what we need
//   deleted       the linked person is gone: 404/410 on /persons/{id}, or is_deleted true
import { retryAfterSeconds, secondsUntilDailyReset } from './rules.js';

export type CrmFailureKind = 'rate_limited' | 'connection' | 'rejected' | 'deleted';

export class CrmError extends Error {
  constructor(
    readonly kind: CrmFailureKind,
    message: string,
    readonly status?: number,
    /** for rate_limited: seconds to wait */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'CrmError';
  }
}

export interface CrmPerson {
  id: number;
  name: string;
  emails: string[];
  /** non-empty phone numbers only */
  phones: string[];
}

export interface NewPerson {
  name: string;
  email: string;
  phone?: string | null;
  /** custom field values by field NAME; keys are resolved from the person field schema */
  custom?: Record<string, string>;
}

export interface NewLead {
  title: string;
  personId: number;
  /** custom field values by deal field NAME (leads inherit the deal field schema) */
  custom?: Record<string, string>;
}

/** A custom field we write, by the name an admin sees in Pipedrive. */
export interface FieldSpec {
  name: string;
  /** Pipedrive field_type used when the field has to be created */
  type: 'varchar' | 'text' | 'date' | 'double';
}

export interface PipedriveOptions {
  apiUrl: string;
  apiToken: string;
  timeoutMs?: number;
  now?: () => Date;
  fieldCache?: FieldKeyCache;
  /** aborts every call (a job's time-out) */
  signal?: AbortSignal;
}

type FieldSchema = 'personFields' | 'dealFields';

/**
 * Custom field keys (40-character hashes, different in every Pipedrive account) by field name,
 * read from the field schema and kept for 7 days per account, so a sync does not read the
 * schema on every job.
 */
export class FieldKeyCache {
  private readonly entries = new Map<string, { keys: Map<string, string>; until: number }>();
  private readonly inFlight = new Map<string, Promise<Map<string, string>>>();
  constructor(private readonly ttlMs = 7 * 24 * 3600 * 1000) {}

  get(account: string, schema: FieldSchema, now: number): Map<string, string> | undefined {
    const e = this.entries.get(`${account}|${schema}`);
    return e && e.until > now ? e.keys : undefined;
  }

  set(account: string, schema: FieldSchema, keys: Map<string, string>, now: number): void {
    this.entries.set(`${account}|${schema}`, { keys, until: now + this.ttlMs });
  }

  /** Runs `resolve` unless one for the same account and schema is running; then shares its result. */
  async once(account: string, schema: FieldSchema, resolve: () => Promise<Map<string, string>>) {
    const key = `${account}|${schema}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = resolve().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  clear(): void {
    this.entries.clear();
  }
}

export const sharedFieldKeys = new FieldKeyCache();

/** The three consent fields written on a newly created person (newsletter and leads). */
export const CONSENT_FIELDS = {
  consentGivenAt: { name: 'Consent Given At', type: 'date' },
  privacyPolicyVersion: { name: 'Privacy Policy Version', type: 'varchar' },
  consentIp: { name: 'Consent IP', type: 'varchar' },
} as const satisfies Record<string, FieldSpec>;

/** The four deal-schema fields written on a lead. */
export const LEAD_FIELDS = {
  leadId: { name: 'Website Lead ID', type: 'varchar' },
  source: { name: 'Lead Source', type: 'varchar' },
  destinations: { name: 'Destinations', type: 'text' },
  preferredCallTime: { name: 'Preferred Call Time', type: 'varchar' },
} as const satisfies Record<string, FieldSpec>;

interface Envelope<T> {
  success?: boolean;
  data?: T;
  error?: string;
  error_info?: string;
  additional_data?: { next_cursor?: string | null };
}

interface RawContact {
  value?: string;
  primary?: boolean;
  label?: string;
}

interface RawPerson {
  id: number;
  name?: string;
  is_deleted?: boolean;
  emails?: RawContact[];
  phones?: RawContact[];
}

interface RawSearchItem {
  item?: { id: number; type?: string; name?: string; emails?: string[]; phones?: string[] };
}

interface RawField {
  field_code: string;
  field_name: string;
}

function values(list: RawContact[] | undefined): string[] {
  return (list ?? []).map((e) => (e.value ?? '').trim()).filter(Boolean);
}

function toPerson(raw: RawPerson, fallbackName = ''): CrmPerson {
  return { id: raw.id, name: raw.name ?? fallbackName, emails: values(raw.emails), phones: values(raw.phones) };
}

export class PipedriveClient {
  private readonly root: string;
  private readonly timeoutMs: number;
  private readonly now: () => Date;
  private readonly fieldCache: FieldKeyCache;

  constructor(private readonly opts: PipedriveOptions) {
    this.root = opts.apiUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.now = opts.now ?? (() => new Date());
    this.fieldCache = opts.fieldCache ?? sharedFieldKeys;
  }

  /** The person behind a linked id; CrmError('deleted') when the CRM no longer has it. */
  async getPerson(id: number): Promise<CrmPerson> {
    const person = await this.call<RawPerson>('GET', `/api/v2/persons/${id}`, undefined, { goneMeansDeleted: true });
    if (!person || typeof person.id !== 'number') throw new CrmError('rejected', `GET /persons/${id}: no person`);
    if (person.is_deleted === true) throw new CrmError('deleted', `person ${id} is deleted in the CRM`);
    return toPerson(person);
  }

  /** The first person whose email matches exactly (Pipedrive matches case-insensitively). */
  async findPersonByEmail(email: string): Promise<CrmPerson | null> {
    const wanted = email.trim().toLowerCase();
    let cursor: string | undefined;
    // exact matches on one e-mail are few; a couple of pages covers every real account
    for (let page = 0; page < 5; page++) {
      const query: Record<string, string> = { term: email, fields: 'email', exact_match: 'true', limit: '100' };
      if (cursor) query.cursor = cursor;
      const env = await this.request<{ items?: RawSearchItem[] }>('GET', '/api/v2/persons/search', undefined, {
        query,
      });
      for (const hit of env.data?.items ?? []) {
        const item = hit.item;
        if (!item || typeof item.id !== 'number') continue;
        const emails = (item.emails ?? []).map((e) => e.trim()).filter(Boolean);
        if (!emails.some((e) => e.toLowerCase() === wanted)) continue;
        return {
          id: item.id,
          name: item.name ?? '',
          emails,
          phones: (item.phones ?? []).map((p) => p.trim()).filter(Boolean),
        };
      }
      cursor = env.additional_data?.next_cursor ?? undefined;
      if (!cursor) break;
    }
    return null;
  }

  async createPerson(p: NewPerson, fields: FieldSpec[] = []): Promise<CrmPerson> {
    const body: Record<string, unknown> = {
      name: p.name,
      emails: [{ value: p.email, primary: true, label: 'work' }],
    };
    if (p.phone) body.phones = [{ value: p.phone, primary: true, label: 'mobile' }];
    const custom = await this.customValues('personFields', fields, p.custom);
    if (Object.keys(custom).length) body.custom_fields = custom;
    const person = await this.call<RawPerson>('POST', '/api/v2/persons', body);
    if (!person || typeof person.id !== 'number') throw new CrmError('rejected', 'POST /persons: answer without id');
    return toPerson(person, p.name);
  }

  /** Sets the person's phone; only called when the CRM person has none. */
  async setPersonPhone(id: number, phone: string): Promise<void> {
    await this.call<RawPerson>(
      'PATCH',
      `/api/v2/persons/${id}`,
      { phones: [{ value: phone, primary: true, label: 'mobile' }] },
      { goneMeansDeleted: true },
    );
  }

  /** Creates a lead in the Leads Inbox (API v1: leads have no v2); returns its UUID. */
  async createLead(l: NewLead, fields: FieldSpec[] = []): Promise<string> {
    const body: Record<string, unknown> = { title: l.title, person_id: l.personId };
    Object.assign(body, await this.customValues('dealFields', fields, l.custom));
    const lead = await this.call<{ id?: string }>('POST', '/v1/leads', body);
    if (!lead || typeof lead.id !== 'string' || !lead.id)
      throw new CrmError('rejected', 'POST /leads: answer without id');
    return lead.id;
  }

  /** Maps {field name: value} to {field key: value}, creating fields that do not exist yet. */
  private async customValues(
    schema: FieldSchema,
    fields: FieldSpec[],
    byName: Record<string, string> | undefined,
  ): Promise<Record<string, string>> {
    const wanted = fields.filter((f) => byName && byName[f.name] !== undefined);
    if (!wanted.length) return {};
    const keys = await this.fieldKeys(schema, wanted);
    const out: Record<string, string> = {};
    for (const f of wanted) out[keys.get(f.name.toLowerCase())!] = byName![f.name];
    return out;
  }

  async fieldKeys(schema: FieldSchema, fields: FieldSpec[]): Promise<Map<string, string>> {
    const account = `${this.root}|${this.opts.apiToken.slice(0, 8)}`;
    const cached = this.fieldCache.get(account, schema, this.now().getTime());
    if (cached && fields.every((f) => cached.has(f.name.toLowerCase()))) return cached;
    // one resolution at a time per account and schema in this process, so concurrent jobs on a
    // fresh account do not each create the same field
    const has = (m: Map<string, string>) => fields.every((f) => m.has(f.name.toLowerCase()));
    const resolved = await this.fieldCache.once(account, schema, async () => {
      const again = this.fieldCache.get(account, schema, this.now().getTime());
      if (again && has(again)) return again;
      const keys = await this.readFieldSchema(schema);
      for (const f of fields) {
        if (keys.has(f.name.toLowerCase())) continue;
        const created = await this.call<RawField>('POST', `/api/v2/${schema}`, {
          field_name: f.name,
          field_type: f.type,
        });
        if (!created?.field_code) throw new CrmError('rejected', `POST /${schema}: answer without field_code`);
        keys.set(f.name.toLowerCase(), created.field_code);
      }
      this.fieldCache.set(account, schema, keys, this.now().getTime());
      return keys;
    });
    // a resolution started by a caller that wanted other fields: run ours now
    return has(resolved) ? resolved : this.fieldKeys(schema, fields);
  }

  /** The whole field schema, page by page (v2 cursor pagination). */
  private async readFieldSchema(schema: FieldSchema): Promise<Map<string, string>> {
    const keys = new Map<string, string>();
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const query: Record<string, string> = { limit: '500' };
      if (cursor) query.cursor = cursor;
      const env = await this.request<RawField[]>('GET', `/api/v2/${schema}`, undefined, { query });
      for (const f of env.data ?? []) {
        const name = f?.field_name?.toLowerCase();
        if (name && f.field_code && !keys.has(name)) keys.set(name, f.field_code);
      }
      cursor = env.additional_data?.next_cursor ?? undefined;
      if (!cursor) break;
    }
    return keys;
  }

  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: { query?: Record<string, string>; goneMeansDeleted?: boolean } = {},
  ): Promise<T | undefined> {
    return (await this.request<T>(method, path, body, opts)).data;
  }

  private async request<T>(
    method: string,
    path: string,
    body: unknown,
    opts: { query?: Record<string, string>; goneMeansDeleted?: boolean },
  ): Promise<Envelope<T>> {
    const url = new URL(this.root + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const what = `${method} ${path}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = this.opts.signal ? AbortSignal.any([timeout, this.opts.signal]) : timeout;
    const why = () =>
      this.opts.signal?.aborted ? `stopped: ${reasonOf(this.opts.signal)}` : `timed out after ${this.timeoutMs} ms`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          'x-api-token': this.opts.apiToken,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const aborted = this.opts.signal?.aborted || e.name === 'TimeoutError' || e.name === 'AbortError';
      const reason = aborted ? why() : (e.cause?.code ?? e.message);
      throw new CrmError('connection', `${what}: ${reason}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      const name = (err as Error).name;
      throw new CrmError(
        'connection',
        `${what}: ${this.opts.signal?.aborted || name === 'TimeoutError' || name === 'AbortError' ? why() : 'body lost'}`,
      );
    }
    let env: Envelope<T> = {};
    try {
      env = text ? (JSON.parse(text) as Envelope<T>) : {};
    } catch {
      env = {};
    }
    const detail = env.error ? `: ${env.error}${env.error_info ? ` (${env.error_info})` : ''}` : '';
    if (res.status === 429) {
      // the daily token budget is spent: blocked until the next day (UTC), with no Retry-After;
      // polling meanwhile only spends the next day's budget
      if (!res.headers.get('retry-after') && res.headers.get('x-daily-requests-left') === '0') {
        const wait = secondsUntilDailyReset(this.now());
        throw new CrmError(
          'rate_limited',
          `${what}: HTTP 429 daily API budget spent, parked until ${new Date(this.now().getTime() + wait * 1000).toISOString()}${detail}`,
          429,
          wait,
        );
      }
      // the spec's rule: Retry-After, else 10 s (x-ratelimit-reset is the 2 s burst window only)
      const wait = retryAfterSeconds(res.headers.get('retry-after'), this.now());
      throw new CrmError('rate_limited', `${what}: HTTP 429 rate limited${detail}`, 429, wait);
    }
    if (opts.goneMeansDeleted && (res.status === 404 || res.status === 410)) {
      throw new CrmError('deleted', `${what}: HTTP ${res.status}, the person is deleted in the CRM`, res.status);
    }
    if (!res.ok) throw new CrmError('rejected', `${what}: HTTP ${res.status}${detail}`, res.status);
    if (env.success === false) throw new CrmError('rejected', `${what}: HTTP ${res.status} unsuccessful${detail}`);
    return env;
  }
}

function reasonOf(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  return r instanceof Error ? r.message : String(r ?? 'aborted');
}
