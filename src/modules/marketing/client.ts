// ActiveCampaign API v3 client on fetch: MARKETING_API_URL + '/api/3', the `Api-Token` header, a
// 30 s time-out and no inner retry (the queue retries). Failures are classified for the job:
//   rate_limited  429; retry after Retry-After seconds (null when the header is absent)
//   transient     5xx, connection errors, time-outs: retried by backoff
//   permanent     401/403, 400/422, any other non-2xx, a 2xx without the expected body: not retried

export type FailureKind = 'rate_limited' | 'transient' | 'permanent';

export class MarketingApiError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
    /** seconds from Retry-After, for rate_limited */
    readonly retryAfterSeconds?: number | null,
  ) {
    super(message);
    this.name = 'MarketingApiError';
  }
}

export interface MarketingContact {
  id: number;
  email: string;
  phone: string;
}

export interface RemoteField {
  id: string;
  title: string;
}

export interface ContactSync {
  email: string;
  firstName: string;
  lastName: string;
  fieldValues: Array<{ field: string; value: string }>;
}

/** The spec's HTTP time-out of one marketing call (no inner HTTP retry). */
export const ACTIVECAMPAIGN_TIMEOUT_MS = 30_000;

export interface ActiveCampaignOptions {
  /** account root, without /api/3 */
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  /** aborts every call (a job's time-out) */
  signal?: AbortSignal;
  /** waits for the account's turn before each call (ActiveCampaign allows 5 requests/s per account) */
  pace?: (signal?: AbortSignal) => Promise<void>;
}

/** ActiveCampaign's list pages: 20 by default, 100 at most (`limit`, `offset`, `meta.total`). */
export const PAGE_LIMIT = 100;

export class ActiveCampaignClient {
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ActiveCampaignOptions) {
    this.base = `${opts.baseUrl.replace(/\/+$/, '')}/api/3`;
    this.timeoutMs = opts.timeoutMs ?? ACTIVECAMPAIGN_TIMEOUT_MS;
  }

  /** Creates or updates the contact with this email; its id. */
  async syncContact(c: ContactSync): Promise<number> {
    const body = await this.request<{ contact?: { id?: string | number } }>('POST', '/contact/sync', {
      contact: { email: c.email, firstName: c.firstName, lastName: c.lastName, fieldValues: c.fieldValues },
    });
    const id = Number(body?.contact?.id);
    if (!Number.isInteger(id) || id <= 0) {
      throw new MarketingApiError('permanent', 'contact/sync answered without a contact id');
    }
    return id;
  }

  /** Subscribes the contact to the list (status 1: active). */
  async subscribeToList(contactId: number, listId: string): Promise<void> {
    await this.request('POST', '/contactLists', {
      contactList: { list: Number(listId), contact: contactId, status: 1 },
    });
  }

  async tagContact(contactId: number, tagId: string): Promise<void> {
    await this.request('POST', '/contactTags', { contactTag: { contact: String(contactId), tag: tagId } });
  }

  /**
   * The id of the contact tag named exactly `name`. The API's search also matches partially ("es"
   * finds "best-sellers"), so every page is read until the exact name is found or the total is.
   */
  async findTag(name: string): Promise<string | null> {
    for await (const tag of this.each<{ id: string; tag: string; tagType?: string }>('/tags', 'tags', {
      search: name,
    })) {
      if (tag.tag === name && (tag.tagType ?? 'contact') === 'contact') return String(tag.id);
    }
    return null;
  }

  async createTag(name: string): Promise<string> {
    const body = await this.request<{ tag?: { id?: string | number } }>('POST', '/tags', {
      tag: { tag: name, tagType: 'contact', description: '' },
    });
    if (!body?.tag?.id) throw new MarketingApiError('permanent', 'tags answered without a tag id');
    return String(body.tag.id);
  }

  /** Every custom contact field, page by page. */
  async listFields(): Promise<RemoteField[]> {
    const fields: RemoteField[] = [];
    for await (const f of this.each<{ id: string | number; title: string }>('/fields', 'fields')) {
      fields.push({ id: String(f.id), title: f.title });
    }
    return fields;
  }

  /** Creates a custom contact field and makes it available on all lists (relid 0). */
  async createField(title: string, type: 'text' | 'date'): Promise<string> {
    const body = await this.request<{ field?: { id?: string | number } }>('POST', '/fields', {
      field: { type, title, visible: 1 },
    });
    if (!body?.field?.id) throw new MarketingApiError('permanent', 'fields answered without a field id');
    const id = String(body.field.id);
    await this.request('POST', '/fieldRels', { fieldRel: { field: id, relid: 0 } });
    return id;
  }

  async getContact(id: number): Promise<MarketingContact | null> {
    const body = await this.request<{ contact?: { id: string; email: string; phone?: string | null } }>(
      'GET',
      `/contacts/${id}`,
      undefined,
      [404],
    );
    return body?.contact ? toContact(body.contact) : null;
  }

  async findContactByEmail(email: string): Promise<MarketingContact | null> {
    type Row = { id: string; email: string; phone?: string | null };
    for await (const c of this.each<Row>('/contacts', 'contacts', { email })) {
      if (c.email.toLowerCase() === email.toLowerCase()) return toContact(c);
    }
    return null;
  }

  /**
   * The items of a list look-up, page after page (`limit` 100, `offset`), until `meta.total`
   * items were read (or a page comes back short when the total is missing).
   */
  private async *each<T>(path: string, key: string, params: Record<string, string> = {}): AsyncGenerator<T> {
    let offset = 0;
    for (;;) {
      const query = new URLSearchParams({ ...params, limit: String(PAGE_LIMIT), offset: String(offset) });
      const body = await this.request<Record<string, unknown> & { meta?: { total?: string | number } }>(
        'GET',
        `${path}?${query}`,
      );
      const page = Array.isArray(body?.[key]) ? (body[key] as T[]) : [];
      yield* page;
      offset += page.length;
      const total = Number(body?.meta?.total);
      const more = Number.isFinite(total) ? offset < total : page.length === PAGE_LIMIT;
      if (page.length === 0 || !more) return;
    }
  }

  async updatePhone(id: number, phone: string): Promise<void> {
    await this.request('PUT', `/contacts/${id}`, { contact: { phone } });
  }

  /** One HTTP call; `missing` lists statuses answered as null instead of an error (e.g. 404). */
  private async request<T>(method: string, path: string, body?: unknown, missing: number[] = []): Promise<T | null> {
    let res: Response;
    try {
      await this.opts.pace?.(this.opts.signal);
      res = await fetch(this.base + path, {
        method,
        headers: {
          'Api-Token': this.opts.token,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: this.opts.signal
          ? AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.opts.signal])
          : AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } };
      const cause = e.cause?.code ?? e.cause?.errors?.[0]?.code ?? e.cause?.message ?? e.message;
      const stopped = this.opts.signal?.aborted
        ? `stopped: ${String((this.opts.signal.reason as Error)?.message ?? 'aborted')}`
        : null;
      const what = stopped ?? (e.name === 'TimeoutError' ? `timed out after ${this.timeoutMs} ms` : cause);
      throw new MarketingApiError('transient', `${method} ${path}: ${what}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new MarketingApiError(
        'transient',
        `${method} ${path}: reading the answer failed: ${(err as Error).message}`,
      );
    }
    if (missing.includes(res.status)) return null;
    if (res.status === 429) {
      throw new MarketingApiError(
        'rate_limited',
        `${method} ${path}: HTTP 429`,
        429,
        retryAfterSeconds(res.headers.get('retry-after')),
      );
    }
    if (res.status >= 500)
      throw new MarketingApiError('transient', `${method} ${path}: HTTP ${res.status}`, res.status);
    if (res.status < 200 || res.status >= 300) {
      throw new MarketingApiError('permanent', `${method} ${path}: HTTP ${res.status} ${snippet(text)}`, res.status);
    }
    if (text.trim() === '') return null;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new MarketingApiError('permanent', `${method} ${path}: HTTP ${res.status} with a body that is not JSON`);
    }
  }
}

function toContact(c: { id: string | number; email: string; phone?: string | null }): MarketingContact {
  return { id: Number(c.id), email: c.email, phone: c.phone ?? '' };
}

/** Retry-After as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function snippet(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
}
