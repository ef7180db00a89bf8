// The media rules on bytes made here: types by their magic bytes (whatever the name), dimensions
// from each format's header, refusals with their codes, content-addressed names, storage paths.
import { describe, expect, it } from 'vitest';
import { encodeJpeg, encodePng } from '../../../scripts/demo-images.js';
import { AppError } from '../../platform/errors.js';
import {
  cacheControlOf,
  checkStoragePath,
  checkUpload,
  contentHashOf,
  contentTypeOf,
  dimensionsOf,
  sniffImage,
  uploadPath,
} from './rules.js';

const LIMITS = { maxBytes: 100_000, maxWidth: 800, maxHeight: 600 };
const png = (w: number, h: number) => encodePng(w, h, (x, y) => [x % 256, y % 256, 128]);
const jpeg = (w: number, h: number) => encodeJpeg(w, h, (bx, by) => [bx * 10, by * 10, 50]);
const riff = (chunk: string, payload: number[]) => {
  const b = Buffer.alloc(30 + payload.length);
  b.write('RIFF', 0);
  b.writeUInt32LE(b.length - 8, 4);
  b.write('WEBP', 8);
  b.write(chunk, 12);
  b.writeUInt32LE(payload.length, 16);
  b.set(payload, 20);
  return b;
};
const gif = (w: number, h: number) => {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0);
  b.writeUInt16LE(w, 6);
  b.writeUInt16LE(h, 8);
  return b;
};

function refusal(run: () => unknown): { status: number; code: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('not refused');
}

describe('sniffImage and dimensionsOf', () => {
  it('read PNG, JPEG, GIF and the three WebP headers', () => {
    expect(sniffImage(png(3, 2))).toBe('png');
    expect(dimensionsOf('png', png(3, 2))).toEqual({ width: 3, height: 2 });
    expect(sniffImage(jpeg(24, 16))).toBe('jpeg');
    expect(dimensionsOf('jpeg', jpeg(24, 16))).toEqual({ width: 24, height: 16 });
    expect(sniffImage(gif(640, 480))).toBe('gif');
    expect(dimensionsOf('gif', gif(640, 480))).toEqual({ width: 640, height: 480 });
    // VP8L: signature 0x2f, then 14 bits of width-1 and 14 of height-1 (300x200)
    const bits = 299 | (199 << 14);
    const vp8l = riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24, 0, 0, 0, 0, 0]);
    expect(sniffImage(vp8l)).toBe('webp');
    expect(dimensionsOf('webp', vp8l)).toEqual({ width: 300, height: 200 });
    // VP8X: flags, then 24-bit width-1 and height-1 (1024x768)
    const vp8x = riff('VP8X', [0, 0, 0, 0, 0xff, 0x03, 0, 0xff, 0x02, 0]);
    expect(dimensionsOf('webp', vp8x)).toEqual({ width: 1024, height: 768 });
    // VP8 (lossy): frame tag, start code 9d 01 2a, 14-bit width and height (50x40)
    const vp8 = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 50, 0, 40, 0]);
    expect(dimensionsOf('webp', vp8)).toEqual({ width: 50, height: 40 });
  });

  it('know nothing else: text, a ZIP, an ELF, a BMP', () => {
    for (const b of ['hello', 'PK\u0003\u0004', '\u007fELF', 'BM6\u0000'])
      expect(sniffImage(Buffer.from(b))).toBeNull();
  });
});

describe('checkUpload', () => {
  it('describes a valid PNG and JPEG', () => {
    expect(checkUpload(png(40, 30), LIMITS)).toEqual({
      type: 'png',
      ext: 'png',
      contentType: 'image/png',
      width: 40,
      height: 30,
    });
    expect(checkUpload(jpeg(800, 600), LIMITS)).toEqual({
      type: 'jpeg',
      ext: 'jpg',
      contentType: 'image/jpeg',
      width: 800,
      height: 600,
    });
  });

  it('refuses each problem with its own code', () => {
    expect(refusal(() => checkUpload(Buffer.alloc(0), LIMITS))).toEqual({ status: 422, code: 'media_empty' });
    expect(refusal(() => checkUpload(Buffer.alloc(100_001, 1), LIMITS))).toEqual({
      status: 413,
      code: 'media_too_large',
    });
    expect(refusal(() => checkUpload(Buffer.from('GIF87b not really'), LIMITS))).toEqual({
      status: 415,
      code: 'media_type_unsupported',
    });
    const svg = '\uFEFF <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    expect(refusal(() => checkUpload(Buffer.from(svg), LIMITS))).toEqual({ status: 415, code: 'media_svg_refused' });
    expect(refusal(() => checkUpload(png(40, 30).subarray(0, 20), LIMITS))).toEqual({
      status: 422,
      code: 'media_unreadable',
    });
    expect(refusal(() => checkUpload(png(801, 10), LIMITS))).toEqual({
      status: 422,
      code: 'media_dimensions_too_large',
    });
    expect(refusal(() => checkUpload(gif(10, 601), LIMITS))).toEqual({
      status: 422,
      code: 'media_dimensions_too_large',
    });
    expect(refusal(() => checkUpload(gif(0, 10), LIMITS))).toEqual({ status: 422, code: 'media_unreadable' });
  });
});

describe('names and paths', () => {
  it('names an upload by the sha256 of its bytes', () => {
    // sha256("abc")
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(uploadPath(Buffer.from('abc'), 'png')).toBe(`uploads/${abc}.png`);
    expect(contentHashOf(`uploads/${abc}.png`)).toBe(abc);
    expect(contentHashOf('regions/asia.jpg')).toBeNull();
    expect(cacheControlOf(`uploads/${abc}.png`)).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('regions/asia.jpg')).toBe('public, max-age=3600');
    expect(contentTypeOf('a/b.JPG')).toBe('image/jpeg');
    expect(contentTypeOf('videos/about-us.mp4')).toBe('video/mp4');
    expect(contentTypeOf('notes.txt')).toBe('application/octet-stream');
  });

  it('accepts plain paths and refuses traversal, NUL, backslashes and empty segments', () => {
    expect(checkStoragePath('regions/asia/intro.jpg')).toBe('regions/asia/intro.jpg');
    for (const bad of [
      '',
      '../etc/passwd',
      'a/../../b.jpg',
      './a.jpg',
      'a//b.jpg',
      '/a.jpg',
      'a\u0000.png',
      'a\\b.png',
      '.env',
      'a/.git/config',
      'a b.png',
      'x'.repeat(513),
    ]) {
      expect(refusal(() => checkStoragePath(bad))).toEqual({ status: 400, code: 'media_path_invalid' });
    }
  });
});
