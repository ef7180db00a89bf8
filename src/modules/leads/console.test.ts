// The console's leads page over HTTP: list and search, one lead, bulk delete with a confirmation
// step for delete_lead, refused without it, and refused without the CSRF token.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { adminAuditLog, crmSyncRecords, leads } from '../../db/schema/index.js';
import { insertLead } from './repository.js';

let t: TestApp;
const ids: number[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const at = new Date('2026-06-10T09:00:00Z');
  for (const [name, email, phone] of [
    ['Ana García', 'ana@example.com', '+34 600 000 001'],
    ['Ben Müller', 'ben@example.com', null],
    ['Chloé Dupont', 'chloe@example.com', '+33 6 00 00 00 02'],
  ] as const) {
    const lead = await insertLead(t.database.db, {
      name,
      email,
      phone,
      source: 'website',
      consentGivenAt: at,
      privacyPolicyVersion: '2026-01',
      createdAt: at,
      updatedAt: at,
    });
    ids.push(lead.id);
    await t.database.db.insert(crmSyncRecords).values({ modelType: 'lead', modelId: lead.id, status: 'Failed' });
  }
});
afterAll(() => t.close());

const form = (values: Record<string, string | string[]>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  return q.toString();
};
const post = (url: string, cookie: string, values: Record<string, string | string[]>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(values),
  });

describe('/admin/leads', () => {
  it('lists the leads, finds one by name, e-mail or phone, and shows one', async () => {
    const a = await signIn(t.app, { permissions: ['view_lead'] });
    const list = await t.app.inject({ url: '/admin/leads', headers: { cookie: a.cookie } });
    expect(list.statusCode).toBe(200);
    for (const e of ['ana@example.com', 'ben@example.com', 'chloe@example.com']) expect(list.body).toContain(e);
    // view_lead alone: no selection and no delete button
    expect(list.body).not.toContain('Delete selected');
    expect(list.body).not.toContain('type="checkbox"');
    const found = await t.app.inject({ url: '/admin/leads?q=M%C3%BCller', headers: { cookie: a.cookie } });
    expect(found.body).toContain('ben@example.com');
    expect(found.body).not.toContain('ana@example.com');
    const byPhone = await t.app.inject({ url: '/admin/leads?q=600%20000%20001', headers: { cookie: a.cookie } });
    expect(byPhone.body).toContain('ana@example.com');
    expect(byPhone.body).not.toContain('chloe@example.com');
    const one = await t.app.inject({ url: `/admin/leads/${ids[2]}`, headers: { cookie: a.cookie } });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain('Lead: Chloé Dupont');
    expect(one.body).toContain('+33 6 00 00 00 02');
    expect((await t.app.inject({ url: '/admin/leads/999999', headers: { cookie: a.cookie } })).statusCode).toBe(404);
  });

  it('refuses the delete without delete_lead, and without the CSRF token', async () => {
    const viewer = await signIn(t.app, { permissions: ['view_lead'] });
    const refused = await post('/admin/leads/delete', viewer.cookie, { _csrf: viewer.csrf, ids: [String(ids[0])] });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('delete_lead');
    const deleter = await signIn(t.app, { permissions: ['view_lead', 'delete_lead'] });
    const noToken = await post('/admin/leads/delete', deleter.cookie, { ids: [String(ids[0])] });
    expect(noToken.statusCode).toBe(403);
    expect(await t.database.db.select().from(leads).where(eq(leads.id, ids[0]!))).toHaveLength(1);
  });

  it('deletes the selected leads after a confirmation step, with their sync records, and audits it', async () => {
    const a = await signIn(t.app, { permissions: ['view_lead', 'delete_lead'] });
    const list = await t.app.inject({ url: '/admin/leads', headers: { cookie: a.cookie } });
    expect(list.body).toContain('Delete selected');
    expect(list.body).toContain(`aria-label="Select lead Ana García"`);
    const confirm = await post('/admin/leads/delete/confirm', a.cookie, {
      _csrf: a.csrf,
      ids: [String(ids[0]), String(ids[1])],
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete 2 lead(s)?');
    expect(confirm.body).toContain('Ana García (ana@example.com)');
    // nothing is deleted by the confirmation page itself
    expect(await t.database.db.select().from(leads)).toHaveLength(3);
    const done = await post('/admin/leads/delete', a.cookie, { _csrf: a.csrf, ids: [String(ids[0]), String(ids[1])] });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/admin/leads?done=2');
    expect((await t.database.db.select().from(leads)).map((l) => l.email)).toEqual(['chloe@example.com']);
    expect((await t.database.db.select().from(crmSyncRecords)).map((r) => r.modelId)).toEqual([ids[2]]);
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, a.email));
    expect(audit.map((r) => [r.action, r.resourceId, r.details])).toEqual([
      ['lead.delete', `${ids[0]},${ids[1]}`, { deleted: 2 }],
    ]);
    const after = await t.app.inject({ url: '/admin/leads?done=2', headers: { cookie: a.cookie } });
    expect(after.body).toContain('Deleted 2 lead(s).');
  });
});
