// CSV exports: 100,000 bookings streamed over a real socket (a booking added after the first bytes
// arrived is in the file, so the rows are read while the file is sent, batch by batch, never all
// at once), the list's filters applied, the permission checked and an audit row written; leads and
// subscribers exported too.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { adminAuditLog, bookings, leads, newsletterSubscribers } from '../../db/schema/index.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

const ROWS = 100_000;

describe('CSV exports', () => {
  it('streams 100,000 bookings: rows are read while the file is sent, so a booking added after the first bytes is in it', async () => {
    await t.database.query(
      `INSERT INTO bookings (reference, status, offer_id, market_code, language, pax_count, actual_pax_count,
                             actual_room_type, total_price, currency, created_at)
       SELECT 'EX-' || lpad(i::text, 6, '0'), 'flights_confirmed', 1, 'es', 'es', 2, 2, '2A', 1000 + i % 50, 'EUR',
              '2026-06-01T00:00:00Z'::timestamptz + (i || ' seconds')::interval
         FROM generate_series(1, ${ROWS}) AS i`,
    );
    const admin = await signIn(t.app, { permissions: ['view_booking', 'export_booking'] });
    let firstChunkAt = -1;
    let chunks = 0;
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${base}/admin/bookings/export.csv?stage=sold`,
        { headers: { cookie: admin.cookie } },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
          expect(res.headers['content-length']).toBeUndefined(); // sent as it is made (chunked)
          const parts: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            parts.push(chunk);
            chunks++;
            if (firstChunkAt >= 0) return;
            firstChunkAt = parts.length;
            // hold the download, add a booking with the highest id, then read on
            res.pause();
            t.database.db
              .insert(bookings)
              .values({
                reference: 'EX-LATEST',
                status: 'flights_confirmed',
                offerId: 1,
                marketCode: 'es',
                language: 'es',
                paxCount: 2,
                actualPaxCount: 2,
                actualRoomType: '2A',
                totalPrice: '1.00',
                currency: 'EUR',
              })
              .then(() => res.resume(), reject);
          });
          res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    const lines = body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '\uFEFFreference,status,market,language,offer_id,departure_date,travellers,room_type,total_price,currency,created_at,first_name,last_name,email,phone',
    );
    expect(lines).toHaveLength(1 + ROWS + 1);
    expect(lines[1]).toBe('EX-000001,flights_confirmed,es,es,1,,2,2A,1001.00,EUR,2026-06-01T00:00:01.000Z,,,,');
    expect(lines.at(-1)).toMatch(/^EX-LATEST,flights_confirmed,/);
    expect(chunks).toBeGreaterThan(10);
    const [audit] = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, admin.email));
    expect(audit).toMatchObject({
      action: 'booking.export',
      resourceType: 'export',
      details: { filters: { stage: 'sold' } },
    });
  }, 120_000);

  it("applies the list's filters, refuses without export_booking, and exports leads and subscribers", async () => {
    const admin = await signIn(t.app);
    const filtered = await t.app.inject({
      url: '/admin/bookings/export.csv?q=EX-00001',
      headers: { cookie: admin.cookie },
    });
    // EX-000010 .. EX-000019 (reference prefix EX-00001, then digits): EX-000001 is not a prefix match
    expect(
      filtered.body
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `EX-0000${10 + i}`));
    const list = await t.app.inject({ url: '/admin/bookings?q=EX-00001', headers: { cookie: admin.cookie } });
    expect(list.body).toContain('href="/admin/bookings/export.csv?q=EX-00001">Export CSV</a>');
    const bad = await t.app.inject({
      url: '/admin/bookings/export.csv?from=2026-02-30',
      headers: { cookie: admin.cookie, accept: 'text/html' },
    });
    expect(bad.statusCode).toBe(422);

    const viewer = await signIn(t.app, { permissions: ['view_booking', 'view_lead', 'view_subscriber'] });
    for (const url of ['/admin/bookings/export.csv', '/admin/leads/export.csv', '/admin/subscribers/export.csv']) {
      expect((await t.app.inject({ url, headers: { cookie: viewer.cookie, accept: 'text/html' } })).statusCode).toBe(
        403,
      );
    }
    expect((await t.app.inject({ url: '/admin/bookings', headers: { cookie: viewer.cookie } })).body).not.toContain(
      'Export CSV',
    );

    await t.database.db.insert(leads).values({
      name: 'Lia, "the planner"',
      email: 'lia@example.com',
      phone: '+34 600 000 001',
      source: 'contact_form',
      consentGivenAt: new Date('2026-06-01T10:00:00Z'),
      privacyPolicyVersion: 'v2',
      createdAt: new Date('2026-06-02T10:00:00Z'),
    });
    await t.database.db.insert(newsletterSubscribers).values({
      email: 'sub@example.com',
      name: '=cmd()',
      consentGivenAt: new Date('2026-06-01T10:00:00Z'),
      privacyPolicyVersion: 'v2',
      market: 'es',
      createdAt: new Date('2026-06-03T10:00:00Z'),
    });
    const leadCsv = (await t.app.inject({ url: '/admin/leads/export.csv', headers: { cookie: admin.cookie } })).body;
    expect(leadCsv.split('\r\n')[1]).toMatch(
      /^\d+,"Lia, ""the planner""",lia@example\.com,\+34 600 000 001,contact_form,\[\],,2026-06-01T10:00:00\.000Z,v2,2026-06-02T10:00:00\.000Z$/,
    );
    const subCsv = (await t.app.inject({ url: '/admin/subscribers/export.csv', headers: { cookie: admin.cookie } }))
      .body;
    expect(subCsv.split('\r\n')[1]).toMatch(
      /^\d+,sub@example\.com,'=cmd\(\),,es,2026-06-01T10:00:00\.000Z,v2,2026-06-03T10:00:00\.000Z$/,
    );
    const actions = (await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, admin.email))).map(
      (a) => a.action,
    );
    expect(actions).toEqual(['booking.export', 'lead.export', 'subscriber.export']);
  });
});
