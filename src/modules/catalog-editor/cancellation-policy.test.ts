// A market product's cancellation policy in the catalog editor and the import: saved as steps,
// shown back as lines, problems beside the field (a missing 0-day step, a bad line), and the
// import refusing a policy without a 0-day step at its path.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { importFixture } from '../../../test/support/catalog-fixture.js';
import { encodeForm, fieldErrors, formValues } from '../../../test/support/console-form.js';
import { marketProducts } from '../../db/schema/index.js';
import { runImport } from '../catalog/import.js';
import { productIdByKey } from './repository.js';

let t: TestApp;
let editor: SignedIn;
let id: number;

beforeAll(async () => {
  t = await createTestApp();
  await importFixture(t.database);
  editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog', 'publish_catalog'] });
  id = (await productIdByKey(t.database.db, 'japan-essentials', 'es', 'en'))!;
});
afterAll(() => t.close());

const action = () => `/admin/catalog/products/${id}`;
async function save(policy: string) {
  const page = await t.app.inject({ url: action(), headers: { cookie: editor.cookie } });
  const values = { ...formValues(page.body, action()), cancellation_policy: policy, _csrf: editor.csrf };
  return t.app.inject({
    method: 'POST',
    url: action(),
    headers: { cookie: editor.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: encodeForm(values),
  });
}
const stored = async () =>
  (await t.database.db.select().from(marketProducts).where(eq(marketProducts.id, id)))[0].cancellationPolicy;

describe('cancellation policy of a market product', () => {
  it('is edited as lines in the catalog editor and stored as steps', async () => {
    const res = await save('60:10\n30:25.5\n0:100');
    expect(res.statusCode).toBe(303);
    expect(await stored()).toEqual([
      { days_before_departure: 60, fee_percent: 10 },
      { days_before_departure: 30, fee_percent: 25.5 },
      { days_before_departure: 0, fee_percent: 100 },
    ]);
    const page = await t.app.inject({ url: action(), headers: { cookie: editor.cookie } });
    expect(formValues(page.body, action()).cancellation_policy).toBe('60:10\n30:25.5\n0:100');
    // emptied: the configured default applies again
    expect((await save('')).statusCode).toBe(303);
    expect(await stored()).toBeNull();
  });

  it('shows the problems beside the field and keeps what was stored', async () => {
    expect((await save('60:10\n0:100')).statusCode).toBe(303);
    const missing = await save('60:10\n30:30');
    expect(missing.statusCode).toBe(422);
    expect(fieldErrors(missing.body, 'cancellation_policy').join(' ')).toContain('days_before_departure 0');
    const bad = await save('sixty days: ten');
    expect(bad.statusCode).toBe(422);
    expect(fieldErrors(bad.body, 'cancellation_policy').length).toBeGreaterThan(0);
    expect(await stored()).toEqual([
      { days_before_departure: 60, fee_percent: 10 },
      { days_before_departure: 0, fee_percent: 100 },
    ]);
  });

  it('is imported with the market product; a policy without a 0-day step is refused at its path', async () => {
    const product = { template: 'japan-essentials', market: 'es', language: 'en' };
    const refused = await runImport(t.database, {
      market_products: [{ ...product, cancellation_policy: [{ days_before_departure: 30, fee_percent: 50 }] }],
    });
    expect(refused).toMatchObject({
      ok: false,
      problems: [
        {
          path: '/market_products/0/cancellation_policy',
          reason: 'a step with days_before_departure 0 (the last days)',
        },
      ],
    });
    const ok = await runImport(t.database, {
      market_products: [
        {
          ...product,
          cancellation_policy: [
            { days_before_departure: 45, fee_percent: 20 },
            { days_before_departure: 0, fee_percent: 100 },
          ],
        },
      ],
    });
    expect(ok.ok).toBe(true);
    expect(await stored()).toEqual([
      { days_before_departure: 45, fee_percent: 20 },
      { days_before_departure: 0, fee_percent: 100 },
    ]);
  });
});
