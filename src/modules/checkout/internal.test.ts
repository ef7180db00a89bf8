import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { apiTokens, bookingStepVisits, bookings } from '../../db/schema/index.js';
import type { CliContext } from '../../platform/cli.js';
import { parseArgs } from '../../platform/cli.js';
import { commands } from './commands.js';

let t: TestApp;
let c: CheckoutCatalog;

beforeAll(async () => {
  t = await createTestApp();
  c = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

async function createToken(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const cli = {
    config: t.config,
    database: t.database,
    log: t.app.log,
    out: (l: string) => out.push(l),
    err: (l: string) => err.push(l),
  } as CliContext;
  const code = await commands['token:create'].run(parseArgs(commands['token:create'], argv), cli);
  return { code, out, err };
}

const patch = (id: number | string, body: unknown, token?: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/internal/bookings/${id}/checkout-step`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as object,
  });

describe('token:create', () => {
  it('prints a new token once and stores only its sha256 with the abilities', async () => {
    const { code, out } = await createToken(['frontend', '--ability', 'internal:read']);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const token = out[0];
    expect(token).toMatch(/^itn_[\w-]{40}$/);
    const rows = await t.database.db.select().from(apiTokens).where(eq(apiTokens.name, 'frontend'));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0].abilities).toEqual(['internal:read']);
  });

  it('refuses a missing name or ability', async () => {
    expect((await createToken([])).code).toBe(2);
    expect((await createToken(['x'])).code).toBe(2);
    expect((await createToken(['x', '--ability', 'Bad Ability'])).code).toBe(2);
  });
});

describe('PATCH /api/internal/bookings/{id}/checkout-step', () => {
  let reader: string;
  let other: string;
  let bookingId: number;

  beforeAll(async () => {
    reader = (await createToken(['reader', '--ability=internal:read'])).out[0];
    other = (await createToken(['other', '--ability', 'reports:read'])).out[0];
    const start = await t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
    bookingId = start.json().data.booking_id;
  });

  it('answers 401 without a token or with an unknown one, 403 without the ability', async () => {
    for (const token of [undefined, 'itn_nope']) {
      const res = await patch(bookingId, { step: 'hotels' }, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, error: 'unauthenticated' });
    }
    const basic = await t.app.inject({
      method: 'PATCH',
      url: `/api/internal/bookings/${bookingId}/checkout-step`,
      headers: { authorization: `Basic ${reader}` },
      payload: { step: 'hotels' },
    });
    expect(basic.statusCode).toBe(401);
    // authentication comes before body validation
    expect((await patch(bookingId, { step: 'nope' })).statusCode).toBe(401);
    const res = await patch(bookingId, { step: 'hotels' }, other);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, error: 'forbidden' });
  });

  it('answers 422 for an invalid or missing step and 404 for an unknown booking', async () => {
    for (const body of [{ step: 'payment' }, {}, { step: 3 }]) {
      const res = await patch(bookingId, body, reader);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toMatchObject({
        success: false,
        error: 'validation_failed',
        errors: { step: expect.any(Array) },
      });
    }
    for (const id of [999999, 'abc']) {
      const res = await patch(id, { step: 'hotels' }, reader);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        success: false,
        error: 'booking_not_found',
        message: `Booking ${id} not found.`,
      });
    }
  });

  it('moves checkout_step forward only, current_step always, and stamps the first visit', async () => {
    const step = async (s: string) => {
      const res = await patch(bookingId, { step: s }, reader);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const [b] = await t.database.db.select().from(bookings).where(eq(bookings.id, bookingId));
      return [b.checkoutStep, b.currentStep];
    };
    expect(await step('flights')).toEqual(['flights', 'flights']);
    const t0 = t.clock.now();
    expect(await step('transfers')).toEqual(['transfers', 'transfers']);
    t.clock.advance(60_000);
    expect(await step('hotels')).toEqual(['transfers', 'hotels']);
    expect(await step('transfers')).toEqual(['transfers', 'transfers']);
    expect(await step('summary')).toEqual(['summary', 'summary']);
    const visits = await t.database.db
      .select()
      .from(bookingStepVisits)
      .where(eq(bookingStepVisits.bookingId, bookingId));
    expect(visits.map((v) => v.step).sort()).toEqual(['flights', 'hotels', 'summary', 'transfers']);
    expect(visits.find((v) => v.step === 'transfers')!.firstVisitedAt.toISOString()).toBe(t0.toISOString());
  });
});

describe('cookies in production', () => {
  it('are Secure when APP_ENV is production', async () => {
    const prod = await createTestApp({
      database: t.database,
      env: { ...PRODUCTION_ENV, LOG_LEVEL: 'silent' },
    });
    try {
      const res = await prod.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
      expect(res.statusCode).toBe(201);
      for (const ck of res.headers['set-cookie'] as string[]) expect(ck).toMatch(/; Secure/);
    } finally {
      await prod.close();
    }
  });
});
