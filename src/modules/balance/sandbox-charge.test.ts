import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { sandboxPaymentIntents } from '../../db/schema/index.js';
import { SandboxGateway } from '../payments/gateway.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const charge = (paymentMethodId: string, idempotencyKey = 'balance-7-1') =>
  new SandboxGateway(database).chargeOffSession({
    amountCents: 273_700,
    currency: 'EUR',
    customerId: 'cus_sandbox',
    paymentMethodId,
    bookingReference: 'IT-ABC123',
    bookingId: 7,
    description: 'Balance for booking IT-ABC123',
    idempotencyKey,
  });

describe('sandbox off-session charges', () => {
  it("follow Stripe's test payment methods and name one intent per idempotency key", async () => {
    const ok = await charge('pm_card_visa');
    expect(ok).toMatchObject({ outcome: 'succeeded', intent: { status: 'Succeeded', amountCents: 273_700 } });
    const again = await charge('pm_card_visa');
    expect(again.outcome === 'succeeded' && ok.outcome === 'succeeded' && again.intent.id === ok.intent.id).toBe(true);
    const next = await charge('pm_card_visa', 'balance-7-2');
    expect(next.outcome === 'succeeded' && ok.outcome === 'succeeded' && next.intent.id !== ok.intent.id).toBe(true);
    expect(await charge('pm_card_chargeDeclined_1a2b3c4d', 'balance-7-3')).toMatchObject({
      outcome: 'declined',
      code: 'generic_decline',
    });
    expect(await charge('pm_card_authenticationRequired', 'balance-7-4')).toMatchObject({
      outcome: 'authentication_required',
      code: 'authentication_required',
    });
  });

  it('pm_card_chargeCustomerFail pays the deposit and saves the card, then declines the balance', async () => {
    const gateway = new SandboxGateway(database);
    const deposit = await gateway.createIntent({
      amountCents: 117_300,
      currency: 'EUR',
      bookingReference: 'IT-DEC001',
      bookingId: 8,
      description: 'Deposit',
      customer: { email: 'ana@example.com', name: 'Ana Garcia' },
      idempotencyKey: 'deposit-8',
    });
    const paid = await gateway.confirmIntent(deposit.id, 'pm_card_chargeCustomerFail');
    expect(paid.status).toBe('Succeeded');
    expect(paid.paymentMethodId).toMatch(/^pm_card_chargeCustomerFail_/);
    expect(await charge(paid.paymentMethodId!, 'balance-8-1')).toMatchObject({
      outcome: 'declined',
      code: 'generic_decline',
    });
  });

  it('a SEPA debit processes, and the sandbox bank pays it a minute later; a detached method is refused for good', async () => {
    const debit = await charge('pm_sepaDebit_1a2b', 'balance-7-5');
    expect(debit).toMatchObject({ outcome: 'processing', intent: { status: 'Processing', amountCents: 273_700 } });
    const id = debit.outcome === 'processing' ? debit.intent.id : '';
    const gateway = new SandboxGateway(database);
    expect((await gateway.retrieveIntent(id)).status).toBe('Processing');
    await database.db
      .update(sandboxPaymentIntents)
      .set({ updatedAt: sql`now() - interval '2 minutes'` })
      .where(eq(sandboxPaymentIntents.id, id));
    expect((await gateway.retrieveIntent(id)).status).toBe('Succeeded');
    expect(await charge('pm_detached_9z', 'balance-7-6')).toEqual({
      outcome: 'permanent',
      intentId: null,
      code: 'resource_missing',
      message: "No such PaymentMethod: 'pm_detached_9z'",
    });
  });
});
