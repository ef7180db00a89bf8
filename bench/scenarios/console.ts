// The console's booking list at 100,000 bookings (issue 16: list, filter and search p99 < 50 ms
// on PostgreSQL) and its operations pages (issue 28: home, departures, reports p99 < 100 ms). On the PostgreSQL run it seeds 100,000 clients and bookings spread over the demo's
// offers, markets and statuses, and a signed-in super admin (a session row), then measures the
// list, filters and searches as that admin. The embedded PGlite run has no target and is skipped
// (its database belongs to the server process).
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BenchScenario, BenchTarget } from './types.js';

const BOOKINGS = 100_000;

async function seed(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = Date.now();
    await client.query(`
      INSERT INTO clients (first_name, last_name, email, phone)
      SELECT (ARRAY['Ana','Luis','Marta','John','Emma','Noah','Mia','Liam'])[1 + i % 8], 'Surname' || i,
             'customer' || i || '@example.com', '+34600' || lpad(i::text, 6, '0')
        FROM generate_series(1, ${BOOKINGS}) AS i`);
    await client.query(`
      WITH o AS (SELECT array_agg(id ORDER BY id) AS ids FROM offers),
           m AS (SELECT array_agg(code ORDER BY code) AS codes FROM markets),
           c AS (SELECT id, row_number() OVER (ORDER BY id) AS i FROM clients WHERE email LIKE 'customer%@example.com')
      INSERT INTO bookings (reference, status, offer_id, market_code, language, client_id, pax_count, actual_pax_count,
                            actual_room_type, total_price, currency, created_at)
      SELECT 'BN-' || lpad(c.i::text, 7, '0'),
             (ARRAY['checkout','pending_flight_booking','flight_booking_in_progress','flights_confirmed',
                    'flight_booking_failed','pending_land_confirmation'])[1 + c.i % 6],
             o.ids[1 + c.i % array_length(o.ids, 1)], m.codes[1 + c.i % array_length(m.codes, 1)], 'es', c.id,
             2, 2, '2A', 1000 + c.i % 5000, 'EUR', now() - (c.i || ' minutes')::interval
        FROM c, o, m`);
    await client.query('ANALYZE clients; ANALYZE bookings; ANALYZE offers');
    const id = randomBytes(32).toString('base64url');
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO admin_users (email, name, password_hash) VALUES ('bench@example.com', 'Bench', '$argon2id$unused') RETURNING id`,
    );
    await client.query(
      `INSERT INTO admin_user_roles (user_id, role_id) SELECT $1, id FROM admin_roles WHERE name = 'super_admin'`,
      [rows[0]!.id],
    );
    await client.query(
      `INSERT INTO admin_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, 'bench', now(), now(), now() + interval '1 day')`,
      [createHash('sha256').update(id).digest('hex'), rows[0]!.id],
    );
    console.log(`   console: seeded ${BOOKINGS} bookings in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return id;
  } finally {
    await client.end();
  }
}

export const scenario: BenchScenario = {
  name: 'console',
  async targets(_baseUrl, run) {
    if (run.database !== 'postgres' || !run.env.DATABASE_URL) {
      console.log('   console: skipped on embedded PGlite (the 100,000-booking target is for PostgreSQL)');
      return [];
    }
    const session = await seed(run.env.DATABASE_URL);
    // the development server's cookie name (APP_ENV is not production in the bench)
    const headers = { cookie: `itinera_admin=${session}`, accept: 'text/html' };
    const target = (name: string, path: string, p99TargetMs = 50): BenchTarget => ({
      name: `console: ${name}`,
      path,
      headers,
      connections: 10,
      p99TargetMs,
    });
    const today = new Date().toISOString().slice(0, 10);
    const inMonths = (n: number) => {
      const d = new Date();
      d.setUTCMonth(d.getUTCMonth() + n);
      return d.toISOString().slice(0, 10);
    };
    return [
      target('bookings list', '/admin/bookings'),
      target('bookings list, page 20', '/admin/bookings?page=20'),
      target('filter status + market', '/admin/bookings?status=flights_confirmed&market=es'),
      target('filter departure range', `/admin/bookings?from=${today}&to=${inMonths(2)}&sort=departure`),
      target('search customer name', '/admin/bookings?q=surname4242'),
      target('search e-mail', '/admin/bookings?q=customer777%40'),
      target('search reference', '/admin/bookings?q=BN-00123'),
      // issue 28: the operations pages, p99 < 100 ms
      target('home (day at a glance)', '/admin', 100),
      target('departures list', '/admin/departures', 100),
      target('revenue report', '/admin/reports/revenue', 100),
      target('funnel report', '/admin/reports/funnel', 100),
    ];
  },
};
