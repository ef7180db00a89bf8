// A storefront on another site checks out in Chromium: the page is served from http://shop.test
// and the API from http://api.test (both 127.0.0.1 on their own ports, mapped by Chromium's
// --host-resolver-rules), so every call is a cross-site, credentialed CORS fetch. The page keeps
// the session by sending the start's session_token in the X-Checkout-Session header.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { launchChromium, visible } from './chromium.js';

let t: TestApp;
let cat: CheckoutCatalog;
let shop: Server;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let apiOrigin: string;

/** the storefront's page: a button that starts a checkout and fills the contact step */
const page = (api: string, offerId: number) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
<main>
  <h1>Japan in spring</h1>
  <button type="button" id="book">Book this tour</button>
  <p role="status" id="result"></p>
</main>
<script>
const api = ${JSON.stringify(`${api}/api/es/es/checkout`)};
document.getElementById('book').addEventListener('click', async () => {
  const out = document.getElementById('result');
  try {
    const started = await fetch(api + '/${offerId}', {
      method: 'POST', credentials: 'include',
      headers: { 'content-type': 'application/json' }, body: '{}',
    });
    const { data } = await started.json();
    const session = { 'content-type': 'application/json', 'x-checkout-session': data.session_token };
    const contact = await fetch(api + '/contact', {
      method: 'PUT', credentials: 'include', headers: session,
      body: JSON.stringify({ client: { first_name: 'Ana', last_name: 'Garcia', email: 'ana@example.com', phone: '+34600000000' } }),
    });
    const read = await fetch(api, { credentials: 'include', headers: { 'x-checkout-session': data.session_token } });
    const now = (await read.json()).data;
    out.textContent = 'Started ' + started.status + ', header ' + (started.headers.get('x-checkout-session') === data.session_token)
      + ', contact ' + contact.status + ', ' + now.booking_reference + ' for ' + now.client_data.first_name + ' ' + now.client_data.last_name;
  } catch (err) {
    out.textContent = 'Failed: ' + err;
  }
});
</script>
</body></html>`;

beforeAll(async () => {
  shop = createServer();
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const shopOrigin = `http://shop.test:${(shop.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { APP_URL: 'http://api.test', CORS_ORIGINS: shopOrigin } });
  cat = await seedCheckoutCatalog(t.database);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiOrigin = `http://api.test:${(t.app.server.address() as AddressInfo).port}`;
  shop.on('request', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(apiOrigin, cat.offers.active));
  });
  chromium = await launchChromium(shopOrigin, [
    '--host-resolver-rules=MAP shop.test 127.0.0.1, MAP api.test 127.0.0.1',
  ]);
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
  await new Promise((resolve) => shop?.close(resolve));
});

describe('a storefront on another site', () => {
  it('starts a checkout and keeps it across calls with the X-Checkout-Session header', async () => {
    const tab = await chromium.context.newPage();
    await tab.goto('/');
    await tab.getByRole('button', { name: 'Book this tour' }).click();
    const status = tab.getByRole('status');
    await visible(status.filter({ hasText: /\S/ }));
    expect(await status.textContent()).toMatch(
      /^Started 201, header true, contact 200, IT-[0-9A-Z]{10} for Ana Garcia$/,
    );
    await tab.close();
  });
});
