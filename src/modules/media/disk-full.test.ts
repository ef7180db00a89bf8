// Issue 26 item 6: a full MEDIA_DIR. The upload answers 507 `media_storage_full` (JSON or HTML as
// the caller asks) and leaves no partial `.tmp` file behind. The disk is a real 64 KiB tmpfs mounted
// for the test (a real ENOSPC from the kernel, not a stand-in); where mounting is not allowed (not
// root, no CAP_SYS_ADMIN) the test is skipped with the reason printed.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../../scripts/demo-images.js';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { faultTally } from '../../../test/support/fault-tally.js';
import { multipartBody } from '../../../test/support/multipart.js';
import { mediaUploads } from '../../db/schema/index.js';

const dir = mkdtempSync(join(tmpdir(), 'itinera-full-disk-'));
function mountTinyDisk(): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `cannot mount a 64 KiB tmpfs (${String((err as Error).message).split('\n')[0]})`;
  }
}
const tally = faultTally('full media disk');
const unavailable = mountTinyDisk();
if (unavailable) console.log(`skipping the full-disk media test: ${unavailable}`);

// random pixels do not compress: about 30 KB of PNG
const pixels = randomBytes(100 * 100 * 3);
const big = encodePng(100, 100, (x, y) => {
  const i = (y * 100 + x) * 3;
  return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
});

describe.skipIf(unavailable !== null)('a full MEDIA_DIR', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MEDIA_DIR: dir, MEDIA_MAX_BYTES: '200000', MEDIA_DEMO_IMAGES: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (who: { cookie: string; csrf: string }, accept: string) => {
    tally.probes += 1;
    const { payload, headers } = multipartBody(
      {},
      { name: 'file', filename: 'big.png', type: 'image/png', bytes: big },
    );
    return t.app.inject({
      method: 'POST',
      url: '/admin/media',
      payload,
      headers: { ...headers, cookie: who.cookie, 'x-csrf-token': who.csrf, accept },
    });
  };
  const leftovers = () =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.tmp'));

  it('answers 507 media_storage_full as JSON or HTML, stores no row and leaves no .tmp file', async () => {
    expect(big.length).toBeGreaterThan(25_000);
    // 48 KiB of the 64 taken: the upload's ~30 KB cannot fit
    writeFileSync(join(dir, 'filler'), Buffer.alloc(48 * 1024, 1));
    tally.faults += 1;
    const editor = await signIn(t.app, { permissions: ['edit_catalog'] });

    const json = await post(editor, 'application/json');
    expect(json.statusCode).toBe(507);
    expect(json.json()).toEqual({
      success: false,
      error: 'media_storage_full',
      message: 'The media storage is full: nothing was stored. Tell the operators.',
    });
    expect(leftovers()).toEqual([]);

    const page = await post(editor, 'text/html');
    expect(page.statusCode).toBe(507);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('The media storage is full: nothing was stored. Tell the operators.');
    expect(leftovers()).toEqual([]);
    expect(await t.database.db.select().from(mediaUploads)).toEqual([]);

    // room again: the same upload is stored
    rmSync(join(dir, 'filler'));
    const ok = await post(editor, 'application/json');
    expect(ok.statusCode).toBe(201);
    expect(await t.database.db.select().from(mediaUploads)).toHaveLength(1);
    expect(leftovers()).toEqual([]);
  });
});
