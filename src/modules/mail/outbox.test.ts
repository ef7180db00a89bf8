// The customer e-mail outbox: written in the finalization's transaction, in the booking's
// language with text and HTML parts, delivered once over SMTP (the fake server), tried again when
// the server refuses, and kept (listed by `mail:outbox`) when no SMTP_URL is set.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { type FakeSmtp, startFakeSmtp } from '../../../test/support/fake-smtp.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { bookings, mailOutbox } from '../../db/schema/index.js';
import { parseArgs } from '../../platform/cli.js';
import { taskCommand } from '../../tasks-command.js';
import { attemptsOf } from '../balance/repository.js';
import { savedCardFor } from '../balance/service.js';
import { deliverOutbox, outboxList } from './service.js';

let smtp: FakeSmtp;
let t: TestApp;
let cat: CheckoutCatalog;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  // the embedded default: sandbox gateway (no Stripe key)
  t = await createTestApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'trips@itinera.test', IN_PROCESS_WORKERS: 'false' },
  });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** the message as a reader sees it: encoded words of the headers, quoted-printable parts decoded */
function decoded(data: string): string {
  const split = data.indexOf('\r\n\r\n');
  const bytes = (text: string) =>
    Buffer.from(
      text.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  const headers = data
    .slice(0, split)
    .replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_, text: string) => bytes(text.replace(/_/g, ' ')));
  return `${headers}\r\n\r\n${bytes(data.slice(split + 4).replace(/=\r\n/g, ''))}`;
}

const mailsOf = async (bookingId: number) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, bookingId)).orderBy(mailOutbox.id);

describe('customer e-mails', () => {
  it('writes the confirmation with the finalization, in the booking language, text and HTML, and sends it once', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const client = { first_name: 'Jonas', last_name: 'Weber', email: 'jonas@example.de', phone: '+4915100000000' };
    const b = await paidBooking(t, cat, { departureInDays: 120, market: 'de', client });
    const [mail] = await mailsOf(b.bookingId);
    expect(mail).toMatchObject({
      key: `booking-confirmation:${b.bookingId}`,
      kind: 'booking_confirmation',
      toAddress: 'jonas@example.de',
      language: 'de',
      status: 'pending',
      subject: `Buchung ${b.reference} bestätigt`,
    });
    expect(mail.textBody).toContain('Hallo Jonas,');
    expect(mail.textBody).toContain('Vielen Dank für Ihre Buchung.');
    expect(mail.textBody).toContain('Restzahlung fällig am: 14. August 2026');
    expect(mail.htmlBody).toContain('<html lang="de">');
    expect(mail.htmlBody).toContain('<th align="left">Abreise</th><td>13. Oktober 2026</td>');

    const before = smtp.received.length;
    expect(await deliverOutbox(t.app.ctx)).toEqual({ sent: 1, retrying: 0, failed: 0, smtp: true });
    expect(await deliverOutbox(t.app.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0, smtp: true });
    const received = smtp.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'trips@itinera.test', to: ['jonas@example.de'] });
    const message = decoded(received[0].data);
    expect(message).toContain(`Subject: Buchung ${b.reference} bestätigt`);
    expect(message).toMatch(/Content-Type: multipart\/alternative/);
    expect(message).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(message).toMatch(/Content-Type: text\/html; charset=utf-8/);
    expect(message).toContain(`Message-ID: <outbox-${mail.id}@api.test>`);
    expect((await mailsOf(b.bookingId))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('tries a refused mail again later and sends it once the server takes it', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [mail] = await mailsOf(b.bookingId);
    expect(mail).toMatchObject({ language: 'es', subject: `Reserva ${b.reference} confirmada` });
    expect(mail.textBody).toContain('Hola Ana:');
    const before = smtp.received.length;
    smtp.rejectData = true;
    try {
      expect(await deliverOutbox(t.app.ctx)).toMatchObject({ sent: 0, retrying: 1 });
    } finally {
      smtp.rejectData = false;
    }
    const [refused] = await mailsOf(b.bookingId);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: new Date('2026-06-15T10:01:00Z') });
    expect(refused.lastError).toContain('554');
    expect(await deliverOutbox(t.app.ctx)).toMatchObject({ sent: 0, retrying: 0 });
    t.clock.set('2026-06-15T10:01:00Z');
    expect(await deliverOutbox(t.app.ctx)).toMatchObject({ sent: 1 });
    expect(await deliverOutbox(t.app.ctx)).toMatchObject({ sent: 0 });
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([['ana@example.com']]);
    expect((await mailsOf(b.bookingId))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('balance receipt and reminder in the booking language with the sandbox gateway', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await paidBooking(t, cat, { departureInDays: 120, market: 'de' });
    // the card the sandbox deposit saved (pm_card_visa, on the sandbox customer) is charged
    const run = (asOf: string) =>
      taskCommand.run(parseArgs(taskCommand, ['balance.collect', `--as-of=${asOf}`]), {
        config: t.config,
        database: t.database,
        log: t.app.log,
        out() {},
        err() {},
        app: t.app.ctx,
      } as never);
    expect(await run('2026-08-07')).toBe(0);
    expect(await run('2026-08-08')).toBe(0); // the reminder is sent once
    expect(await run('2026-08-14')).toBe(0);
    const mails = await mailsOf(b.bookingId);
    expect(mails.map((m) => [m.kind, m.language, m.subject])).toEqual([
      ['booking_confirmation', 'de', `Buchung ${b.reference} bestätigt`],
      ['balance_reminder', 'de', `Buchung ${b.reference}: Ihre Restzahlung ist bald fällig`],
      ['balance_receipt', 'de', `Buchung ${b.reference}: Restzahlung erhalten`],
    ]);
    expect(mails[2].textBody).toContain('Ihre Reise ist vollständig bezahlt.');
    expect(await savedCardFor(t.database.db, b.bookingId)).toMatchObject({
      gatewayCode: 'sandbox',
      customerId: expect.stringMatching(/^cus_sandbox_/),
      paymentMethodId: expect.stringMatching(/^pm_card_visa_/),
    });
    expect((await attemptsOf(t.database.db, b.bookingId)).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'succeeded'],
    ]);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.bookingId));
    expect(row.status).toBe('fully_paid');
  });
});

describe('without SMTP_URL', () => {
  it('keeps the mails in the outbox and lists them with mail:outbox', async () => {
    const quiet = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' }, database: t.database });
    try {
      const pending = (await outboxList(quiet.app.ctx, { status: 'pending' })).length;
      expect(await deliverOutbox(quiet.app.ctx)).toEqual({ sent: 0, retrying: 0, failed: 0, smtp: false });
      t.clock.set('2026-06-15T10:00:00Z');
      const b = await paidBooking(t, cat, { departureInDays: 120 });
      const lines: string[] = [];
      const code = await taskCommand.run(parseArgs(taskCommand, ['mail:outbox', '--status=pending']), {
        config: quiet.config,
        database: quiet.database,
        log: quiet.app.log,
        out: (l: string) => lines.push(l),
        err: (l: string) => lines.push(`ERR ${l}`),
        app: quiet.app.ctx,
      } as never);
      expect(code).toBe(0);
      expect(lines[0]).toMatch(
        new RegExp(`^#\\d+ pending .* booking_confirmation es ana@example.com "Reserva ${b.reference} confirmada"$`),
      );
      expect(lines.at(-1)).toBe(`mail:outbox: ok: ${pending + 1} mail(s)`);
      const [listed] = await outboxList(quiet.app.ctx, { bookingId: b.bookingId });
      expect(listed).toMatchObject({ kind: 'booking_confirmation', status: 'pending', to: 'ana@example.com' });
      expect(listed.html).toContain('<html lang="es">');
    } finally {
      await quiet.close();
    }
  });
});
