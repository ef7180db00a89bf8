// A paid booking with flights, ready for the admin "Book All Flights" action: client, two
// passengers and a flight selection (international round trip + one domestic leg) whose fares
// are the sandbox generator's, so the fake provider's re-search finds them.
import type { Database } from '../../src/db/database.js';
import { bookingPassengers, bookings, clients, passengers } from '../../src/db/schema/index.js';
import type { DuffelFlightProvider } from '../../src/modules/flights/duffel.js';
import type { StoredFlightSelection } from '../../src/modules/flights/jobs.js';
import type { FlightSearchRequest } from '../../src/modules/flights/provider.js';
import {
  domesticLeg,
  domesticSearch,
  internationalLeg,
  internationalSearch,
  pickFare,
  segmentOf,
} from '../../src/modules/flights/rules.js';
import { sandboxFares } from '../../src/modules/flights/sandbox.js';

export function paidSelection(pax = 2, cabin: 'ECONOMY' | 'BUSINESS' = 'ECONOMY'): StoredFlightSelection {
  const intl: FlightSearchRequest = {
    tripType: 'ROUND_TRIP',
    cabin,
    pax,
    currency: 'EUR',
    legs: [
      { origin: 'MAD', destination: 'NRT', date: '2026-09-01' },
      { origin: 'NRT', destination: 'MAD', date: '2026-09-12' },
    ],
  };
  const fare = pickFare(sandboxFares(intl))!;
  const domestic = pickFare(
    sandboxFares(
      domesticSearch({ origin: 'NRT', destination: 'KIX', departure_date: '2026-09-05' }, 'ECONOMY', pax, 'EUR'),
    ),
  )!;
  return {
    cabin_class: cabin,
    outbound: segmentOf(fare.legs[0]),
    inbound: segmentOf(fare.legs[1]),
    legs: [internationalLeg(fare, pax, 0), domesticLeg(domestic, pax, 1)],
  };
}

/**
 * A paid selection made from a provider's live offers (MAD-NRT round trip leaving `departure`,
 * back 11 days later, and NRT-KIX on day 4), 2 passengers in economy: `offer` picks which
 * international offer the visitor chose.
 */
export async function liveSelection(
  provider: DuffelFlightProvider,
  departure: string,
  offer = 0,
  currency = 'EUR',
): Promise<StoredFlightSelection> {
  const day = (n: number) => new Date(Date.parse(`${departure}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const out = { departure_airport: 'MAD', arrival_airport: 'NRT', departure_date: departure };
  const back = { departure_airport: 'NRT', arrival_airport: 'MAD', departure_date: day(11) };
  const intl = await provider.search(internationalSearch(out as never, back as never, 'ECONOMY', 2, currency));
  const dom = await provider.search(
    domesticSearch({ origin: 'NRT', destination: 'KIX', departure_date: day(4) }, 'ECONOMY', 2, currency),
  );
  const fare = intl.fares[offer];
  return {
    cabin_class: 'ECONOMY',
    outbound: segmentOf(fare.legs[0]),
    inbound: segmentOf(fare.legs[1]),
    legs: [internationalLeg(fare, 2, 0), domesticLeg(dom.fares[0], 2, 1)],
  };
}

let seq = 0;

export async function insertPaidBooking(
  database: Database,
  opts: {
    status?: string;
    pax?: number;
    selection?: StoredFlightSelection;
    /** the travelers' birth dates (adults of 1985 by default) */
    birthDates?: string[];
    /** the travelers' last names (Garcia by default) */
    lastNames?: string[];
    currency?: string;
  } = {},
): Promise<{ id: number; reference: string }> {
  const pax = opts.pax ?? 2;
  const db = database.db;
  const [client] = await db
    .insert(clients)
    .values({ firstName: 'Ana', lastName: 'Garcia', email: 'ana@example.com', phone: '+34600000000' })
    .returning();
  const reference = `IT-FB${String(++seq).padStart(4, '0')}`;
  const [booking] = await db
    .insert(bookings)
    .values({
      reference,
      status: opts.status ?? 'pending_flight_booking',
      offerId: 1,
      marketCode: 'es',
      language: 'es',
      clientId: client.id,
      paxCount: 2,
      actualPaxCount: pax,
      actualRoomType: `${pax}A`,
      isNonStandardPax: pax !== 2,
      totalPrice: '4140.00',
      currency: opts.currency ?? 'EUR',
      flightSelection: (opts.selection ?? paidSelection(pax)) as unknown as Record<string, unknown>,
    })
    .returning();
  for (let i = 0; i < pax; i++) {
    const [p] = await db
      .insert(passengers)
      .values({
        clientId: client.id,
        title: i === 0 ? 'ms' : 'mr',
        gender: i === 0 ? 'f' : 'm',
        firstName: i === 0 ? 'Ana' : `Traveler ${String.fromCharCode(65 + i)}`,
        lastName: opts.lastNames?.[i] ?? 'Garcia',
        nationality: 'ES',
        passportNumber: `X00${i}`,
        passportExpiry: '2032-01-01',
        birthDate: opts.birthDates?.[i] ?? '1985-05-05',
        phone: '+34600000000',
        email: 'ana@example.com',
      })
      .returning();
    await db
      .insert(bookingPassengers)
      .values({ bookingId: booking.id, passengerId: p.id, position: i, isLead: i === 0 });
  }
  return { id: booking.id, reference };
}
