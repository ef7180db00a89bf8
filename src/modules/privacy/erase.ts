// The right to erasure: `npm run task -- privacy:erase --email E` removes a person's rows where
// nothing else depends on them (newsletter subscription, leads, their CRM sync records, checkout
// sessions, request-log entries) and anonymizes them where a booking must stay (clients and
// passengers: the booking is an accounting record). One transaction; the run is recorded in
// privacy_erasures with a keyed hash of the e-mail, never the e-mail.
import { createHmac } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { privacyErasures } from '../../db/schema/index.js';
import type { Task } from '../../platform/tasks.js';

export interface ErasureCounts {
  newsletter_subscribers: number;
  leads: number;
  clients: number;
  passengers: number;
  crm_sync_records: number;
  checkout_sessions: number;
  telescope_requests: number;
  admin_notifications: number;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** lower-case, trimmed: how the e-mail columns are compared */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** HMAC-SHA256 of the normalized e-mail keyed with APP_KEY: lets an operator check a request was carried out */
export function erasureHash(appKey: string, email: string): string {
  return createHmac('sha256', appKey).update(normalizedEmail(email)).digest('hex');
}

export async function erasePerson(
  ctx: Pick<AppContext, 'database' | 'config' | 'clock'>,
  email: string,
  trigger: string,
): Promise<ErasureCounts> {
  const e = normalizedEmail(email);
  const hash = erasureHash(ctx.config.appKey, e);
  // the placeholder keeps NOT NULL and e-mail-shaped columns valid, and differs per person
  const placeholder = `erased-${hash.slice(0, 16)}@erased.invalid`;
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const rows = async (query: SQL) =>
      ((await tx.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
    const count = async (statement: SQL) =>
      Number((await rows(sql`WITH x AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM x`))[0]?.n ?? 0);
    // ids travel as one array literal: both drivers pass a text parameter the same way
    const idsOf = async (table: string) =>
      `{${(await rows(sql`SELECT id FROM ${sql.identifier(table)} WHERE lower(email) = ${e}`)).map((r) => Number(r.id)).join(',')}}`;

    const subscriberIds = await idsOf('newsletter_subscribers');
    const leadIds = await idsOf('leads');
    const clientIds = await idsOf('clients');
    const syncRecords = await count(sql`DELETE FROM crm_sync_records
        WHERE (model_type = 'newsletter_subscriber' AND model_id = ANY(${subscriberIds}::int[]))
           OR (model_type = 'lead' AND model_id = ANY(${leadIds}::int[]))
           OR (model_type = 'client' AND model_id = ANY(${clientIds}::int[]))
           OR position(${e} in lower(coalesce(last_error, ''))) > 0`);
    const counts: ErasureCounts = {
      newsletter_subscribers: await count(
        sql`DELETE FROM newsletter_subscribers WHERE id = ANY(${subscriberIds}::int[])`,
      ),
      leads: await count(sql`DELETE FROM leads WHERE id = ANY(${leadIds}::int[])`),
      clients: await count(sql`UPDATE clients
          SET first_name = 'Erased', last_name = 'Erased', email = ${placeholder}, phone = '', updated_at = ${now}
          WHERE id = ANY(${clientIds}::int[])`),
      passengers: await count(sql`UPDATE passengers SET first_name = 'Erased', last_name = 'Erased', nationality = 'XX',
                passport_number = 'ERASED', passport_expiry = '1900-01-01', birth_date = '1900-01-01',
                phone = '', email = ${placeholder}, updated_at = ${now}
          WHERE lower(email) = ${e} OR client_id = ANY(${clientIds}::int[])`),
      crm_sync_records: syncRecords,
      checkout_sessions: await count(sql`DELETE FROM checkout_sessions WHERE position(${e} in lower(data::text)) > 0`),
      telescope_requests: await count(sql`DELETE FROM telescope_requests
          WHERE position(${e} in lower(path || ' ' || headers::text || ' ' || coalesce(error_message, ''))) > 0`),
      admin_notifications: await count(sql`UPDATE admin_notifications
          SET message = replace(lower(message), ${e}, ${placeholder}), data = '{}'::jsonb
          WHERE position(${e} in lower(message || ' ' || data::text)) > 0`),
    };
    await tx.insert(privacyErasures).values({ emailHash: hash, counts: { ...counts }, trigger, erasedAt: now });
    return counts;
  });
}

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'privacy:erase',
      describe: 'remove or anonymize a person everywhere: --email=E (recorded without the e-mail)',
      async run(ctx, run) {
        const email = run.options.email;
        if (typeof email !== 'string' || !EMAIL.test(email.trim())) {
          return { ok: false, message: 'give the e-mail address to erase: --email=person@example.com' };
        }
        const counts = await erasePerson(ctx, email, run.trigger);
        const parts = Object.entries(counts).map(([table, n]) => `${table} ${n}`);
        // the message is stored in task_runs: counts only, never the address
        return { ok: true, message: `erased: ${parts.join(', ')}` };
      },
    },
  ];
}
