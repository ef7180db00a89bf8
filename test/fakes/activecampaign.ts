// A fake ActiveCampaign API v3 on 127.0.0.1 (node:http). It keeps contacts, list memberships,
// tags, contact tags and custom fields in memory, records every request, and answers scripted
// failures: any status (429 with or without Retry-After, 401, 403, 400, 422, 500), a time-out
// (never answers), or a 2xx without a contact id.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** path without the query, e.g. /api/3/contact/sync */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export type FakeReply =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'timeout'
  | 'no-contact-id';

interface Script {
  method?: string;
  path: string | RegExp;
  reply: FakeReply;
  times: number;
}

export interface FakeContact {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  fieldValues: Record<string, string>;
}

export class FakeActiveCampaign {
  url = '';
  token = 'ac-test-token';
  requests: RecordedRequest[] = [];
  contacts: FakeContact[] = [];
  /** `${contactId}:${listId}` -> status */
  listMemberships = new Map<string, number>();
  tags: Array<{ id: string; tag: string; tagType: string }> = [];
  contactTags: Array<{ contact: string; tag: string }> = [];
  fields: Array<{ id: string; title: string; type: string }> = [];
  fieldRels: Array<{ field: string; relid: number }> = [];
  /** milliseconds before each answer (benchmarks) */
  latencyMs = 0;
  /**
   * ActiveCampaign's limit of requests per second per account: over it, 429. Off (0) unless a
   * test turns it on; `arrivals` keeps when each request came (ms).
   */
  perSecondLimit = 0;
  arrivals: number[] = [];
  /** requests answered 429 by the per-second limit */
  throttled = 0;
  private scripts: Script[] = [];
  private nextId = 100;
  private readonly hanging = new Set<ServerResponse>();
  private readonly server = createServer((req, res) => void this.handle(req, res));

  static async start(): Promise<FakeActiveCampaign> {
    const fake = new FakeActiveCampaign();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', () => resolve()));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The next `times` requests matching method and path get `reply` instead of the normal answer. */
  fail(path: string | RegExp, reply: FakeReply, opts: { method?: string; times?: number } = {}): void {
    this.scripts.push({ path, reply, method: opts.method, times: opts.times ?? 1 });
  }

  /** Requests whose "METHOD /path" (without /api/3) matches. */
  calls(match?: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => {
      const key = `${r.method} ${r.path.replace(/^\/api\/3/, '')}`;
      return !match || (typeof match === 'string' ? key === match : match.test(key));
    });
  }

  /** "METHOD /path" of every request, in order (without /api/3). */
  get log(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path.replace(/^\/api\/3/, '')}`);
  }

  reset(): void {
    this.requests = [];
    this.contacts = [];
    this.listMemberships.clear();
    this.tags = [];
    this.contactTags = [];
    this.fields = [];
    this.fieldRels = [];
    this.scripts = [];
    this.arrivals = [];
    this.throttled = 0;
    this.perSecondLimit = 0;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://fake');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    this.requests.push(rec);
    const now = Date.now();
    this.arrivals.push(now);
    if (this.perSecondLimit && this.arrivals.filter((t) => t > now - 1000).length > this.perSecondLimit) {
      this.throttled++;
      return this.send(res, 429, { message: 'Too Many Requests' }, { 'retry-after': '1' });
    }
    if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));

    const script = this.scripts.find(
      (s) =>
        s.times > 0 &&
        (!s.method || s.method === rec.method) &&
        (typeof s.path === 'string' ? rec.path === `/api/3${s.path}` : s.path.test(rec.path)),
    );
    if (script) {
      script.times--;
      if (script.reply === 'timeout') {
        this.hanging.add(res);
        return;
      }
      if (script.reply === 'no-contact-id') return this.send(res, 200, { contact: {}, fieldValues: [] });
      return this.send(
        res,
        script.reply.status,
        script.reply.body ?? { message: 'scripted failure' },
        script.reply.headers,
      );
    }
    if (req.headers['api-token'] !== this.token) return this.send(res, 403, { message: 'No Result found' });
    this.route(rec, res);
  }

  private route(r: RecordedRequest, res: ServerResponse) {
    const p = r.path.replace(/^\/api\/3/, '');
    const key = `${r.method} ${p}`;
    if (key === 'POST /contact/sync') {
      const c = r.body?.contact ?? {};
      if (!c.email) return this.send(res, 422, { errors: [{ title: 'Email address is required' }] });
      const unknown = (c.fieldValues ?? []).find(
        (fv: { field: unknown }) => !this.fields.some((f) => f.id === String(fv.field)),
      );
      if (unknown) {
        return this.send(res, 404, {
          errors: [{ status: 404, title: 'Not Found', detail: `Field ${unknown.field} not found` }],
        });
      }
      let contact = this.contacts.find((x) => x.email.toLowerCase() === String(c.email).toLowerCase());
      const created = !contact;
      if (!contact) {
        contact = { id: this.nextId++, email: c.email, firstName: '', lastName: '', phone: '', fieldValues: {} };
        this.contacts.push(contact);
      }
      if (c.firstName !== undefined) contact.firstName = c.firstName;
      if (c.lastName !== undefined) contact.lastName = c.lastName;
      if (c.phone !== undefined) contact.phone = c.phone;
      for (const fv of c.fieldValues ?? []) contact.fieldValues[String(fv.field)] = fv.value;
      return this.send(res, created ? 201 : 200, { contact: this.view(contact), fieldValues: [] });
    }
    if (key === 'POST /contactLists') {
      const cl = r.body?.contactList ?? {};
      this.listMemberships.set(`${cl.contact}:${cl.list}`, Number(cl.status));
      return this.send(res, 201, { contactList: { ...cl, id: String(this.nextId++) } });
    }
    if (key === 'POST /contactTags') {
      const ct = r.body?.contactTag ?? {};
      if (!this.tags.some((t) => t.id === String(ct.tag)))
        return this.send(res, 404, { errors: [{ status: 404, title: 'Not Found', detail: 'Tag not found' }] });
      if (!this.contactTags.some((x) => x.contact === String(ct.contact) && x.tag === String(ct.tag))) {
        this.contactTags.push({ contact: String(ct.contact), tag: String(ct.tag) });
      }
      return this.send(res, 201, { contactTag: { ...ct, id: String(this.nextId++) } });
    }
    if (key === 'GET /tags') {
      // the search matches anywhere in the name ("es" finds "best-sellers")
      const q = (r.query.search ?? '').toLowerCase();
      const tags = this.tags.filter((t) => t.tag.toLowerCase().includes(q));
      return this.send(res, 200, this.page(r, 'tags', tags));
    }
    if (key === 'POST /tags') {
      const t = { id: String(this.nextId++), tag: r.body?.tag?.tag, tagType: r.body?.tag?.tagType ?? 'template' };
      // ActiveCampaign refuses a second tag of the same name and type
      if (this.tags.some((x) => x.tag === t.tag && x.tagType === t.tagType)) {
        return this.send(res, 422, {
          errors: [
            {
              title: `Duplicate entry '${t.tag}-${t.tagType}' for key 'typetag'`,
              source: { pointer: '/data/attributes/tag' },
            },
          ],
        });
      }
      this.tags.push(t);
      return this.send(res, 201, { tag: t });
    }
    if (key === 'GET /fields') {
      return this.send(res, 200, this.page(r, 'fields', this.fields));
    }
    if (key === 'POST /fields') {
      const f = { id: String(this.nextId++), title: r.body?.field?.title, type: r.body?.field?.type };
      this.fields.push(f);
      return this.send(res, 201, { field: f });
    }
    if (key === 'POST /fieldRels') {
      this.fieldRels.push({ field: String(r.body?.fieldRel?.field), relid: Number(r.body?.fieldRel?.relid) });
      return this.send(res, 201, { fieldRel: r.body?.fieldRel });
    }
    if (key === 'GET /contacts') {
      const email = (r.query.email ?? '').toLowerCase();
      const found = this.contacts.filter((c) => !email || c.email.toLowerCase() === email);
      return this.send(
        res,
        200,
        this.page(
          r,
          'contacts',
          found.map((c) => this.view(c)),
        ),
      );
    }
    const one = /^(GET|PUT) \/contacts\/(\d+)$/.exec(key);
    if (one) {
      const contact = this.contacts.find((c) => c.id === Number(one[2]));
      if (!contact) return this.send(res, 404, { message: 'No Result found for Subscriber with id ' + one[2] });
      if (one[1] === 'PUT' && r.body?.contact?.phone !== undefined) contact.phone = r.body.contact.phone;
      return this.send(res, 200, { contact: this.view(contact) });
    }
    return this.send(res, 404, { message: `no fake route for ${key}` });
  }

  /** One page of a list as ActiveCampaign pages it: `limit` 20 by default, 100 at most, `offset`, `meta.total`. */
  private page(r: RecordedRequest, key: string, all: unknown[]) {
    const limit = Math.min(100, Math.max(1, Number(r.query.limit ?? 20) || 20));
    const offset = Math.max(0, Number(r.query.offset ?? 0) || 0);
    return { [key]: all.slice(offset, offset + limit), meta: { total: String(all.length) } };
  }

  private view(c: FakeContact) {
    return { id: String(c.id), email: c.email, firstName: c.firstName, lastName: c.lastName, phone: c.phone };
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}
