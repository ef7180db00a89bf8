// The Media page in headless Chromium: an editor signs in, opens Media from the navigation,
// uploads an image with the file picker, reads the path to paste, and the browser then fetches
// that image from /storage: 200, the same bytes, an image the browser can decode.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../scripts/demo-images.js';
import { systemClock } from '../../src/platform/clock.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { launchChromium, signedInPage } from './chromium.js';

let t: TestApp;
let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
const dir = mkdtempSync(join(tmpdir(), 'itinera-media-browser-'));

beforeAll(async () => {
  t = await createTestApp({ clock: systemClock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  chromium = await launchChromium(base);
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Media page in a browser', () => {
  it('uploads an image and the browser fetches it from /storage', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const image = encodePng(120, 80, (x, y) => [(x * 2) % 256, (y * 3) % 256, 160]);
    const file = join(dir, 'sunset over kyoto.png');
    writeFileSync(file, image);
    const sha = createHash('sha256').update(image).digest('hex');

    const page = await signedInPage(chromium.context, admin.email, TEST_PASSWORD);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Media' }).click();
    await page.getByRole('heading', { name: 'Media' }).waitFor();

    await page.getByLabel(/^Image \(PNG, JPEG, WebP or GIF/).setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('status').filter({ hasText: 'Uploaded:' }).waitFor();
    const path = await page.locator('#uploaded-path').textContent();
    expect(path).toBe(`uploads/${sha}.png`);
    // the list shows it too, with the file's own name
    await page.getByRole('cell', { name: 'sunset over kyoto.png' }).waitFor();

    const res = await page.request.get(`/storage/${path}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    expect(Buffer.from(await res.body()).equals(image)).toBe(true);
    // and the page's preview decodes it
    const size = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, `/storage/${path}`);
    expect(size).toEqual([120, 80]);
    await page.close();
  });
});
