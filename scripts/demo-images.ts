// Writes data/demo/media: an image of our own making for every image path the demo catalog and
// content reference (heroes, galleries, hotels, activities, regions, countries, trailer posters),
// and a placeholder for the About Us video, so every URL of the demo answers with a file.
// Run after editing the demo data: `npx tsx scripts/demo-images.ts`. Deterministic: the same
// paths give the same bytes (a two-colour gradient and a pattern chosen from the path's hash).
//
// The demo names its images *.jpg, so they are real baseline JPEGs: each 8x8 block is one flat
// colour, which needs no DCT (only the DC coefficient), and the files stay around 2 KB.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

// ------------------------------------------------------------------------------------ JPEG

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      if (++this.n === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.n = 0;
  }
  finish(): number[] {
    while (this.n !== 0) this.write(1, 1); // pad with ones
    return this.bytes;
  }
}

/** canonical Huffman codes from the counts per length (JPEG Annex C) */
function huffman(counts: number[], symbols: number[]): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < counts[len - 1]!; i++) out.set(symbols[k++]!, [code++, len]);
    code <<= 1;
  }
  return out;
}

// the standard luminance DC table (categories 0..11) for every component; AC: a single code, EOB
const DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_COUNTS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_SYMBOLS = [0x00];

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 0xff,
  ...body,
];

/**
 * A baseline JPEG (YCbCr 4:4:4) whose 8x8 blocks each take the colour `block(bx, by)` returns.
 * Width and height are multiples of 8.
 */
export function encodeJpeg(width: number, height: number, block: (bx: number, by: number) => Rgb): Buffer {
  const dc = huffman(DC_COUNTS, DC_SYMBOLS);
  const eob = huffman(AC_COUNTS, AC_SYMBOLS).get(0)!;
  const bits = new BitWriter();
  const prev = [0, 0, 0];
  for (let by = 0; by < height / 8; by++) {
    for (let bx = 0; bx < width / 8; bx++) {
      const [r, g, b] = block(bx, by);
      const ycc = [
        0.299 * r + 0.587 * g + 0.114 * b,
        128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      ];
      for (let c = 0; c < 3; c++) {
        // a flat block's DC coefficient is 8 * (value - 128); the quantizer is 8
        const value = Math.max(0, Math.min(255, Math.round(ycc[c]!))) - 128;
        const diff = value - prev[c]!;
        prev[c] = value;
        const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
        const [code, length] = dc.get(category)!;
        bits.write(code, length);
        if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
        bits.write(eob[0], eob[1]);
      }
    }
  }
  const components = [1, 2, 3].flatMap((id) => [id, 0x11, 0]);
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...new Array(64).fill(8)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, ...components]),
    ...segment(0xc4, [0x00, ...DC_COUNTS, ...DC_SYMBOLS, 0x10, ...AC_COUNTS, ...AC_SYMBOLS]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...bits.finish(),
    0xff,
    0xd9,
  ]);
}

// ------------------------------------------------------------------------------------ PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG with the colour `pixel(x, y)` returns at each pixel. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ------------------------------------------------------------------------------------ MP4

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, body]);
};

/** An ISO BMFF (MP4) file with no track: a placeholder that answers as video/mp4, zero seconds long. */
export function placeholderMp4(): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale; creation and modification times 0, duration 0
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  const matrix = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000];
  for (const [i, v] of matrix.entries()) mvhd.writeUInt32BE(v, 36 + i * 4);
  mvhd.writeUInt32BE(1, 96); // next track id
  return Buffer.concat([ftyp, box('moov', box('mvhd', mvhd))]);
}

// ------------------------------------------------------------------------------------ the demo

const IMAGE = /^[a-z0-9][a-z0-9/._-]*\.(jpg|jpeg)$/;
const VIDEO = /^[a-z0-9][a-z0-9/._-]*\.mp4$/;

/** Every relative image and video path in the demo documents (absolute URLs are left alone). */
export function demoMediaPaths(root: string): { images: string[]; videos: string[] } {
  const images = new Set<string>();
  const videos = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (IMAGE.test(v)) images.add(v);
      else if (VIDEO.test(v)) videos.add(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const file of ['catalog.json', 'content.json'])
    walk(JSON.parse(readFileSync(join(root, 'data', 'demo', file), 'utf8')));
  return { images: [...images].sort(), videos: [...videos].sort() };
}

function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** The picture of a path: a diagonal gradient between two hues from its hash, with light stripes or checks. */
export function demoImage(path: string): Buffer {
  const h = createHash('sha256').update(path).digest();
  const wide = /hero|wide|full/.test(path);
  const [width, height] = wide ? [320, 136] : [240, 160];
  const from = hsl((h[0]! / 255) * 360, 0.55, 0.45);
  const to = hsl((h[1]! / 255) * 360, 0.6, 0.6);
  const pattern = h[2]! % 3;
  const cols = width / 8;
  const rows = height / 8;
  return encodeJpeg(width, height, (bx, by) => {
    const t = (bx / cols + by / rows) / 2;
    const lift = pattern === 0 ? (bx + by) % 6 === 0 : pattern === 1 ? (bx >> 2) % 2 === (by >> 2) % 2 : by % 5 === 0;
    return [0, 1, 2].map((c) => Math.round(from[c]! + (to[c]! - from[c]!) * t + (lift ? 18 : 0))) as Rgb;
  });
}

function main(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const out = join(root, 'data', 'demo', 'media');
  rmSync(out, { recursive: true, force: true });
  const { images, videos } = demoMediaPaths(root);
  let bytes = 0;
  const write = (path: string, data: Buffer) => {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), data);
    bytes += data.length;
  };
  for (const p of images) write(p, demoImage(p));
  for (const p of videos) write(p, placeholderMp4());
  console.log(`data/demo/media: ${images.length} images, ${videos.length} videos, ${bytes} bytes`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
