// A fake flight provider HTTP server on 127.0.0.1 speaking the wire format of
// src/modules/flights/http-provider.ts. Fares come from the sandbox generator, so searches are
// deterministic; failures (status + body, or a delay) can be queued per operation, and every
// request is recorded for assertions.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlightSearchRequest } from '../../src/modules/flights/provider.js';
import { sandboxFares } from '../../src/modules/flights/sandbox.js';
import { formatCents } from '../../src/platform/money.js';

export type FakeOperation = 'search' | 'verify' | 'book' | 'retrieve';

export interface RecordedRequest {
  op: FakeOperation;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeFailure {
  status?: number;
  body?: unknown;
  /** answer only after this delay (time-out tests) */
  delayMs?: number;
}

export interface FakeFlights {
  url: string;
  token: string;
  requests: RecordedRequest[];
  /** queue a failure for the next call of `op` */
  failNext(op: FakeOperation, failure: FakeFailure): void;
  close(): Promise<void>;
}

function wireFare(f: ReturnType<typeof sandboxFares>[number]) {
  return {
    fare_id: f.id,
    cabin_class: f.cabin,
    total_price: formatCents(f.totalCents),
    currency: f.currency,
    baggage_included: f.baggageIncluded,
    legs: f.legs.map((l) => ({
      origin: l.origin,
      destination: l.destination,
      departure_date: l.departureDate,
      departure_time: l.departureTime,
      arrival_time: l.arrivalTime,
      arrival_day_offset: l.arrivalDayOffset,
      duration_minutes: l.durationMinutes,
      flight_numbers: l.flightNumbers,
      airlines: l.airlines,
      stops: l.stops,
      stopover_airports: l.stopoverAirports,
    })),
  };
}

export async function startFakeFlights(token = 'flights-test-token'): Promise<FakeFlights> {
  const requests: RecordedRequest[] = [];
  const failures: Record<FakeOperation, FakeFailure[]> = { search: [], verify: [], book: [], retrieve: [] };
  const fares = new Map<string, ReturnType<typeof wireFare>>();
  const bookings = new Map<string, Record<string, unknown>>();
  let seq = 0;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    const path = (req.url ?? '').split('?')[0];
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    let op: FakeOperation | undefined;
    if (req.method === 'POST' && path === '/v1/search') op = 'search';
    else if (req.method === 'POST' && /^\/v1\/fares\/[^/]+\/verify$/.test(path)) op = 'verify';
    else if (req.method === 'POST' && path === '/v1/bookings') op = 'book';
    else if (req.method === 'GET' && /^\/v1\/bookings\/[^/]+$/.test(path)) op = 'retrieve';
    if (!op) return send(404, { error: { code: 'NOT_FOUND', message: 'unknown endpoint' } });
    requests.push({ op, method: req.method ?? '', path, headers: req.headers, body });
    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(401, { error: { code: 'UNAUTHORIZED', message: 'bad token' } });
    }
    const failure = failures[op].shift();
    if (failure) {
      if (failure.delayMs) await new Promise((r) => setTimeout(r, failure.delayMs));
      if (failure.status) return send(failure.status, failure.body ?? {});
    }
    switch (op) {
      case 'search': {
        const legs = (body?.legs as { origin: string; destination: string; departure_date: string }[]) ?? [];
        const request: FlightSearchRequest = {
          tripType: body?.trip_type as FlightSearchRequest['tripType'],
          cabin: body?.cabin_class as FlightSearchRequest['cabin'],
          pax: Number((body?.passengers as { adults: number })?.adults ?? 1),
          currency: String(body?.currency ?? 'EUR'),
          legs: legs.map((l) => ({ origin: l.origin, destination: l.destination, date: l.departure_date })),
        };
        const list = sandboxFares(request).map(wireFare);
        for (const f of list) fares.set(f.fare_id, f);
        return send(200, { flow_id: `flow-${++seq}`, fares: list });
      }
      case 'verify': {
        const fareId = decodeURIComponent(path.split('/')[3]);
        const fare = fares.get(fareId);
        if (!fare) return send(410, { error: { code: 'FARE_EXPIRED', message: 'fare expired', expired_at: null } });
        return send(200, { fare_id: fareId, total_price: fare.total_price, currency: fare.currency });
      }
      case 'book': {
        const fare = fares.get(String(body?.fare_id));
        if (!fare) return send(409, { error: { code: 'FARE_UNAVAILABLE', message: 'fare not available' } });
        const reservation = {
          reservation_id: `R${++seq}`,
          pnr: `PNR${String(seq).padStart(3, '0')}`,
          status: 'CONFIRMED',
          total_price: fare.total_price,
          currency: fare.currency,
          passengers: body?.passengers,
          legs: fare.legs,
        };
        bookings.set(reservation.reservation_id, reservation);
        return send(201, reservation);
      }
      case 'retrieve': {
        const found = bookings.get(decodeURIComponent(path.split('/')[3]));
        return found
          ? send(200, { ...found, tickets: ['0750000000001'] })
          : send(404, { error: { code: 'NOT_FOUND', message: 'reservation not found' } });
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    failNext: (op, failure) => failures[op].push(failure),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
