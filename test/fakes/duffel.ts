// A fake Duffel Flights API on 127.0.0.1, written from Duffel's documentation
// (https://duffel.com/docs/api): offer requests, offers, orders (create, get, list), order
// cancellations (create: an unconfirmed quote with refund_amount / refund_to; confirm: the order
// is cancelled, cancelled_at set; only the latest quote of an order can be confirmed), with the
// `data` envelope on requests and answers, errors as {errors:[{type, code, title, message,
// documentation_url}], meta:{status, request_id}}, rate-limit headers and 429. Its fares come
// from its own small route generator (not from our sandbox), offer ids change on every search,
// offers expire after 30 minutes, and orders keep the metadata they were sent. Tests queue
// failures per operation, move prices, expire offers, and read every request it received.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DuffelOp =
  | 'create_offer_request'
  | 'get_offer'
  | 'create_order'
  | 'get_order'
  | 'list_orders'
  | 'create_order_cancellation'
  | 'confirm_order_cancellation';

export interface DuffelRequest {
  op: DuffelOp;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** the parsed JSON body (with its `data` envelope) */
  body: any;
}

export interface DuffelFailure {
  status?: number;
  /** Duffel error type and code; the body is built like Duffel's */
  type?: string;
  code?: string;
  message?: string;
  headers?: Record<string, string>;
  /** answer only after this delay; with `never` the answer never comes */
  delayMs?: number;
  never?: boolean;
  /** create_order only: create the order first, then fail (or hang): the unclear outcome */
  afterCreate?: boolean;
  /** raw body instead of Duffel's error body (a proxy's HTML page, a truncated answer) */
  rawBody?: string;
  /** create_order only, no failure: fields of the created order replaced (odd airline data) */
  orderOverrides?: Record<string, unknown>;
}

export interface FakeDuffel {
  url: string;
  token: string;
  requests: DuffelRequest[];
  /** orders created, in order */
  orders: any[];
  /** order cancellations (quotes and confirmed), in order */
  cancellations: any[];
  /** the share of an order's total an airline refunds on cancellation (default 1: all of it) */
  refundShare: number;
  failNext(op: DuffelOp, failure: DuffelFailure): void;
  /**
   * The offer's total moves: at once, at the next get_offer (`atFetch`: it moved after the
   * search), or only when the order is created (`atOrder`: 422 price_changed).
   */
  changePrice(offerId: string, totalAmount: string, opts?: { atOrder?: boolean; atFetch?: boolean }): void;
  /** called with the offers of each search, before they are answered */
  onOffers?: (offers: any[]) => void;
  /** the offer is gone: 422 offer_no_longer_available from now on */
  expireOffer(offerId: string): void;
  /** every offer of the next searches asks for passport details (passenger_identity_documents_required) */
  requireDocuments(on: boolean): void;
  /** called when an order is stored, before it is answered */
  onOrderCreated?: (order: any) => void;
  /**
   * The organisation's billing currency (Duffel prices every offer in it unless you are an IATA
   * agent): EUR by default.
   */
  billingCurrency(currency: string): void;
  /**
   * The next order is answered 202 Accepted, not confirmed yet: its booking reference appears
   * after `polls` looks at it (confirmed), or it is never created (failed: 404 from then on).
   */
  acceptNextOrder(opts: { polls: number; outcome: 'confirmed' | 'failed' }): void;
  close(): Promise<void>;
}

const CARRIERS = [
  { iata_code: 'BA', name: 'British Airways' },
  { iata_code: 'IB', name: 'Iberia' },
  { iata_code: 'AF', name: 'Air France' },
];

function hash(text: string): number {
  return createHash('md5').update(text).digest().readUInt32BE(0);
}

function at(date: string, minutes: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMinutes(minutes);
  return d.toISOString().slice(0, 19);
}

function airport(code: string) {
  return { type: 'airport', iata_code: code, name: `${code} Airport`, city_name: code, time_zone: 'UTC' };
}

function errorBody(status: number, type: string, code: string, message: string) {
  return {
    errors: [
      {
        type,
        code,
        title: code.replace(/_/g, ' '),
        message,
        documentation_url: `https://duffel.com/docs/api/overview/errors#${code}`,
      },
    ],
    meta: { status, request_id: `req_${hash(`${code}${Date.now()}${Math.random()}`).toString(16)}` },
  };
}

export async function startFakeDuffel(token = 'duffel_test_fake'): Promise<FakeDuffel> {
  const requests: DuffelRequest[] = [];
  const failures = new Map<DuffelOp, DuffelFailure[]>();
  const offers = new Map<string, any>();
  const gone = new Set<string>();
  const movesAtOrder = new Map<string, string>();
  const movesAtFetch = new Map<string, string>();
  const orders: any[] = [];
  const cancellations: any[] = [];
  let documentsRequired = false;
  let currency = 'EUR';
  const accepting: { polls: number; outcome: 'confirmed' | 'failed' }[] = [];
  /** accepted orders still pending: looks left before they settle */
  const pendingOrders = new Map<string, { polls: number; outcome: 'confirmed' | 'failed'; reference: string }>();
  let seq = 0;
  const pending = new Set<() => void>();
  const id = (prefix: string) => `${prefix}_0000${(++seq).toString(36).padStart(6, '0')}`;

  function slice(s: { origin: string; destination: string; departure_date: string }, k: number, paxIds: string[]) {
    const carrier = CARRIERS[k % CARRIERS.length];
    const seed = hash(`${s.origin}${s.destination}${s.departure_date}${k}`);
    const depart = 7 * 60 + (seed % 12) * 60;
    const hops = k === 1 ? [s.origin, 'FRA', s.destination] : [s.origin, s.destination];
    const segments = [];
    let t = depart;
    for (let i = 0; i < hops.length - 1; i++) {
      const length = 95 + (hash(`${hops[i]}${hops[i + 1]}`) % 600);
      segments.push({
        id: id('seg'),
        origin: airport(hops[i]),
        destination: airport(hops[i + 1]),
        departing_at: at(s.departure_date, t),
        arriving_at: at(s.departure_date, t + length),
        duration: `PT${Math.floor(length / 60)}H${length % 60}M`,
        marketing_carrier: carrier,
        operating_carrier: carrier,
        marketing_carrier_flight_number: String(100 + ((seed >>> (i * 4)) % 800) + i),
        operating_carrier_flight_number: String(100 + ((seed >>> (i * 4)) % 800) + i),
        stops: [],
        passengers: paxIds.map((pid) => ({
          passenger_id: pid,
          cabin_class: 'economy',
          baggages: [{ type: 'checked', quantity: k === 1 ? 0 : 1 }],
        })),
      });
      t += length + 70;
    }
    const total = t - 70 - depart;
    return {
      id: id('sli'),
      origin: airport(s.origin),
      destination: airport(s.destination),
      duration: `PT${Math.floor(total / 60)}H${total % 60}M`,
      segments,
    };
  }

  function offersFor(data: any, requestId: string) {
    const route = data.slices.map((s: any) => `${s.origin}${s.destination}${s.departure_date}`).join('|');
    const list = [];
    for (let k = 0; k < 3; k++) {
      // Duffel: a type for adults, an age under 18 (under 2: an infant without seat by default)
      const passengers = data.passengers.map((p: any) => ({
        id: id('pas'),
        type: p.type ?? (p.age >= 2 ? 'child' : 'infant_without_seat'),
        age: p.age ?? null,
      }));
      const perPax = 20_000 + (hash(`${route}${data.cabin_class}`) % 60_000) + k * 3_750;
      const adultFare = data.cabin_class === 'business' ? perPax * 3 : perPax;
      // children pay 75 % of an adult fare, infants on a lap 10 %
      const share = { adult: 100, child: 75, infant_without_seat: 10 } as Record<string, number>;
      const cents = passengers.reduce((sum: number, p: any) => sum + Math.round((adultFare * share[p.type]) / 100), 0);
      const offer = {
        id: id('off'),
        offer_request_id: requestId,
        live_mode: false,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
        total_amount: (cents / 100).toFixed(2),
        total_currency: currency,
        base_amount: ((cents * 0.8) / 100).toFixed(2),
        base_currency: currency,
        tax_amount: ((cents * 0.2) / 100).toFixed(2),
        tax_currency: currency,
        owner: CARRIERS[k % CARRIERS.length],
        passenger_identity_documents_required: documentsRequired,
        supported_passenger_identity_document_types: ['passport'],
        passengers,
        payment_requirements: { requires_instant_payment: true, payment_required_by: null },
        slices: data.slices.map((s: any) =>
          slice(
            s,
            k,
            passengers.map((p: any) => p.id),
          ),
        ),
      };
      for (const s of offer.slices)
        for (const g of s.segments) for (const p of g.passengers) p.cabin_class = data.cabin_class;
      offers.set(offer.id, offer);
      list.push(offer);
    }
    return list;
  }

  /** Duffel's order validation as documented: the fields each passenger needs, payment equal to the total. */
  function orderProblems(data: any, offer: any): string[] {
    const problems: string[] = [];
    if (data.type !== 'instant') problems.push('type must be instant');
    const byId = new Map((data.passengers ?? []).map((p: any) => [p.id, p]));
    for (const op of offer.passengers) {
      const p: any = byId.get(op.id);
      if (!p) {
        problems.push(`passenger ${op.id} is missing`);
        continue;
      }
      for (const field of ['title', 'gender', 'given_name', 'family_name', 'born_on', 'email', 'phone_number']) {
        if (!p[field]) problems.push(`passengers.${op.id}.${field} is required`);
      }
      if (p.title && !['mr', 'ms', 'mrs', 'miss', 'dr'].includes(p.title)) problems.push('title is invalid');
      // Duffel: "The passenger's phone number in E.164 (international) format"
      if (p.phone_number && !/^\+[1-9]\d{6,14}$/.test(p.phone_number)) {
        problems.push(`passengers.${op.id}.phone_number must be in E.164 format`);
      }
      if (p.gender && !['m', 'f'].includes(p.gender)) problems.push('gender is invalid');
      if (offer.passenger_identity_documents_required) {
        const doc = p.identity_documents?.[0];
        if (!doc?.unique_identifier || !doc.issuing_country_code || !doc.expires_on || doc.type !== 'passport') {
          problems.push(`passengers.${op.id}.identity_documents is required`);
        }
      }
    }
    // every infant without seat travels on the lap of one adult, named on the adult
    for (const op of offer.passengers.filter((x: any) => x.type === 'infant_without_seat')) {
      const carriers = (data.passengers ?? []).filter((p: any) => p.infant_passenger_id === op.id);
      if (carriers.length !== 1) problems.push(`passengers.${op.id} must be linked to one adult (infant_passenger_id)`);
    }
    const pay = data.payments?.[0];
    if (pay?.type !== 'balance') problems.push('payments must be one balance payment');
    return problems;
  }

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, {
        'content-type': 'application/json',
        'ratelimit-limit': '60',
        'ratelimit-remaining': '59',
        'ratelimit-reset': new Date(Date.now() + 60_000).toUTCString(),
        ...headers,
      });
      res.end(JSON.stringify(payload));
    };
    let op: DuffelOp | undefined;
    if (req.method === 'POST' && path === '/air/offer_requests') op = 'create_offer_request';
    else if (req.method === 'GET' && /^\/air\/offers\/[^/]+$/.test(path)) op = 'get_offer';
    else if (req.method === 'POST' && path === '/air/orders') op = 'create_order';
    else if (req.method === 'GET' && /^\/air\/orders\/[^/]+$/.test(path)) op = 'get_order';
    else if (req.method === 'GET' && path === '/air/orders') op = 'list_orders';
    else if (req.method === 'POST' && path === '/air/order_cancellations') op = 'create_order_cancellation';
    else if (req.method === 'POST' && /^\/air\/order_cancellations\/[^/]+\/actions\/confirm$/.test(path)) {
      op = 'confirm_order_cancellation';
    }
    if (!op) return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'The resource does not exist'));
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return send(400, errorBody(400, 'invalid_request_error', 'malformed_json', 'The body is not JSON'));
    }
    requests.push({ op, method: req.method ?? '', path, query: url.searchParams, headers: req.headers, body });

    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(401, errorBody(401, 'authentication_error', 'invalid_token', 'The access token is not valid'));
    }
    if (req.headers['duffel-version'] !== 'v2') {
      return send(
        400,
        errorBody(400, 'invalid_request_error', 'unsupported_version', 'Duffel-Version must name a supported version'),
      );
    }
    if (raw && (typeof body !== 'object' || body === null || !('data' in body))) {
      return send(422, errorBody(422, 'validation_error', 'invalid_data', 'The body must be wrapped in data'));
    }

    const failure = failures.get(op)?.shift();
    const fail = async () => {
      if (!failure) return false;
      if (failure.never) {
        await new Promise<void>((resolve) => pending.add(resolve));
        res.destroy();
        return true;
      }
      if (failure.delayMs) await new Promise((r) => setTimeout(r, failure.delayMs));
      if (failure.rawBody !== undefined) {
        res.writeHead(failure.status ?? 502, { 'content-type': 'text/html', ...(failure.headers ?? {}) });
        res.end(failure.rawBody);
        return true;
      }
      if (!failure.status) return false;
      send(
        failure.status,
        errorBody(
          failure.status,
          failure.type ?? 'api_error',
          failure.code ?? 'internal_server_error',
          failure.message ?? 'failure',
        ),
        failure.headers,
      );
      return true;
    };
    if (failure && !(op === 'create_order' && failure.afterCreate)) {
      if (await fail()) return;
    }

    switch (op) {
      case 'create_offer_request': {
        const data = body?.data;
        const problems: string[] = [];
        if (!Array.isArray(data?.slices) || data.slices.length === 0) problems.push('slices is required');
        for (const s of data?.slices ?? []) {
          if (!/^[A-Z]{3}$/.test(s.origin ?? '') || !/^[A-Z]{3}$/.test(s.destination ?? ''))
            problems.push('slice airports');
          if (!/^\d{4}-\d{2}-\d{2}$/.test(s.departure_date ?? '')) problems.push('slice departure_date');
        }
        if (!Array.isArray(data?.passengers) || data.passengers.length === 0) problems.push('passengers is required');
        if (data?.cabin_class && !['first', 'business', 'premium_economy', 'economy'].includes(data.cabin_class)) {
          problems.push('cabin_class is invalid');
        }
        if (problems.length) return send(422, errorBody(422, 'validation_error', 'invalid_data', problems.join('; ')));
        const requestId = id('orq');
        const list = offersFor(data, requestId);
        fake.onOffers?.(list);
        return send(201, {
          data: {
            id: requestId,
            live_mode: false,
            cabin_class: data.cabin_class ?? null,
            slices: data.slices,
            passengers: list[0].passengers,
            offers: url.searchParams.get('return_offers') === 'false' ? [] : list,
            created_at: new Date().toISOString(),
          },
        });
      }
      case 'get_offer': {
        const offerId = decodeURIComponent(path.split('/')[3]);
        if (gone.has(offerId)) {
          return send(
            422,
            errorBody(422, 'invalid_state_error', 'offer_no_longer_available', 'The offer is no longer available'),
          );
        }
        const offer = offers.get(offerId);
        if (!offer) return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'Offer not found'));
        const moved = movesAtFetch.get(offerId);
        if (moved) {
          offer.total_amount = moved;
          movesAtFetch.delete(offerId);
        }
        return send(200, { data: offer });
      }
      case 'create_order': {
        const data = body?.data;
        const offerId = data?.selected_offers?.[0];
        if (gone.has(offerId)) {
          return send(
            422,
            errorBody(422, 'invalid_state_error', 'offer_no_longer_available', 'The offer is no longer available'),
          );
        }
        const offer = offers.get(offerId);
        if (!offer) return send(422, errorBody(422, 'validation_error', 'invalid_data', 'selected_offers is invalid'));
        const moved = movesAtOrder.get(offer.id);
        if (moved) {
          offer.total_amount = moved;
          movesAtOrder.delete(offer.id);
        }
        const problems = orderProblems(data, offer);
        if (problems.length) return send(422, errorBody(422, 'validation_error', 'invalid_data', problems.join('; ')));
        const pay = data.payments[0];
        if (pay.amount !== offer.total_amount || pay.currency !== offer.total_currency) {
          return send(
            422,
            errorBody(
              422,
              'invalid_state_error',
              'price_changed',
              'The price of the offer has changed since it was fetched',
            ),
          );
        }
        const order = {
          id: id('ord'),
          live_mode: false,
          booking_reference: createHash('md5').update(String(seq)).digest('hex').slice(0, 6).toUpperCase(),
          total_amount: offer.total_amount,
          total_currency: offer.total_currency,
          base_amount: offer.base_amount,
          base_currency: offer.base_currency,
          tax_amount: offer.tax_amount,
          tax_currency: offer.tax_currency,
          owner: offer.owner,
          slices: offer.slices,
          passengers: data.passengers.map((p: any) => ({
            ...p,
            type: offer.passengers.find((op: any) => op.id === p.id)?.type ?? 'adult',
          })),
          payment_status: { awaiting_payment: false, payment_required_by: null, price_guarantee_expires_at: null },
          documents: [{ type: 'electronic_ticket', unique_identifier: `125${String(seq).padStart(10, '0')}` }],
          metadata: data.metadata ?? {},
          cancelled_at: null,
          created_at: new Date().toISOString(),
          synced_at: new Date().toISOString(),
          services: [],
          conditions: {},
          airline_initiated_changes: [],
          available_actions: ['cancel'],
        };
        if (failure?.orderOverrides) Object.assign(order, failure.orderOverrides);
        orders.push(order);
        // Duffel books an offer once
        gone.add(offer.id);
        fake.onOrderCreated?.(order);
        if (failure?.afterCreate && (await fail())) return;
        const accepted = accepting.shift();
        if (accepted) {
          // accepted, not confirmed: no booking reference or ticket until the airline answers
          pendingOrders.set(order.id, { ...accepted, reference: order.booking_reference });
          (order as any).booking_reference = null;
          const documents = order.documents;
          order.documents = [];
          (order as any)._documents = documents;
          return send(202, { data: order });
        }
        return send(201, { data: order });
      }
      case 'get_order': {
        const order = orders.find((o) => o.id === decodeURIComponent(path.split('/')[3]));
        if (!order) return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'Order not found'));
        const waiting = pendingOrders.get(order.id);
        if (waiting) {
          if (waiting.polls > 0) {
            waiting.polls--;
            return send(200, { data: order });
          }
          pendingOrders.delete(order.id);
          if (waiting.outcome === 'failed') {
            orders.splice(orders.indexOf(order), 1);
            return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'Order not found'));
          }
          order.booking_reference = waiting.reference;
          order.documents = (order as any)._documents;
          delete (order as any)._documents;
        }
        return send(200, { data: order });
      }
      case 'create_order_cancellation': {
        const order = orders.find((o) => o.id === body?.data?.order_id);
        if (!order) return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'Order not found'));
        if (order.cancelled_at) {
          return send(
            422,
            errorBody(422, 'invalid_state_error', 'order_already_cancelled', 'The order has already been cancelled'),
          );
        }
        const refund = (Math.round(Number(order.total_amount) * 100 * fake.refundShare) / 100).toFixed(2);
        const cancellation = {
          id: id('ore'),
          order_id: order.id,
          live_mode: false,
          refund_amount: refund,
          refund_currency: order.total_currency,
          refund_to: 'balance',
          airline_credits: [],
          confirmed_at: null,
          expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
          created_at: new Date().toISOString(),
        };
        cancellations.push(cancellation);
        return send(201, { data: cancellation });
      }
      case 'confirm_order_cancellation': {
        const cancellationId = decodeURIComponent(path.split('/')[3]);
        const cancellation = cancellations.find((c) => c.id === cancellationId);
        if (!cancellation) {
          return send(404, errorBody(404, 'invalid_request_error', 'not_found', 'Order cancellation not found'));
        }
        const latest = cancellations.filter((c) => c.order_id === cancellation.order_id).at(-1);
        const order = orders.find((o) => o.id === cancellation.order_id);
        if (latest !== cancellation || order.cancelled_at || cancellation.confirmed_at) {
          return send(
            422,
            errorBody(
              422,
              'invalid_state_error',
              'order_cancellation_not_confirmable',
              'This cancellation cannot be confirmed',
            ),
          );
        }
        cancellation.confirmed_at = new Date().toISOString();
        order.cancelled_at = cancellation.confirmed_at;
        order.available_actions = [];
        return send(200, { data: cancellation });
      }
      case 'list_orders': {
        const names = url.searchParams.getAll('passenger_name[]');
        const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 50));
        const matching = orders
          .filter((o) =>
            names.every((n) =>
              o.passengers.some((p: any) => `${p.given_name} ${p.family_name}`.toLowerCase() === n.toLowerCase()),
            ),
          )
          .reverse();
        const start = Number(url.searchParams.get('after') ?? 0);
        const page = matching.slice(start, start + limit);
        const after = start + limit < matching.length ? String(start + limit) : null;
        return send(200, { data: page, meta: { limit, after, before: null } });
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeDuffel = {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    orders,
    cancellations,
    refundShare: 1,
    failNext: (op, f) => {
      if (!failures.has(op)) failures.set(op, []);
      failures.get(op)!.push(f);
    },
    changePrice(offerId, totalAmount, opts = {}) {
      const offer = offers.get(offerId);
      if (opts.atOrder) movesAtOrder.set(offerId, totalAmount);
      else if (opts.atFetch) movesAtFetch.set(offerId, totalAmount);
      else if (offer) offer.total_amount = totalAmount;
    },
    expireOffer: (offerId) => {
      gone.add(offerId);
    },
    requireDocuments: (on) => {
      documentsRequired = on;
    },
    billingCurrency: (c) => {
      currency = c;
    },
    acceptNextOrder: (opts) => {
      accepting.push({ ...opts });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of pending) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
