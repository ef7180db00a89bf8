// Pure rules of the media store: what an upload is (by its bytes, never its name), how big it is
// (read from the image header), what it is called (sha256 of the bytes), which paths /storage
// serves, and which headers go with a file.
import { createHash } from 'node:crypto';
import { AppError } from '../../platform/errors.js';

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageInfo {
  type: ImageType;
  /** the extension of the stored name */
  ext: 'png' | 'jpg' | 'webp' | 'gif';
  contentType: string;
  width: number;
  height: number;
}

export interface UploadLimits {
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
}

const EXT: Record<ImageType, ImageInfo['ext']> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/** Content types /storage answers with, by extension; anything else is application/octet-stream. */
export const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[path.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** The image type by its magic bytes, or null. */
export function sniffImage(b: Uint8Array): ImageType | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'gif';
  return null;
}

/** An SVG (or any XML/HTML text starting with a tag): refused, it can carry scripts. */
export function looksLikeMarkup(b: Uint8Array): boolean {
  const head = Buffer.from(b.subarray(0, 1024))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<') && (head.includes('<svg') || head.startsWith('<?xml') || head.startsWith('<!doctype'));
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);

/** Width and height from the image header, or null when the header is cut short or malformed. */
export function dimensionsOf(type: ImageType, b: Uint8Array): { width: number; height: number } | null {
  switch (type) {
    case 'png': {
      // signature, then the IHDR chunk: length(4) 'IHDR' width(4) height(4)
      if (b.length < 24 || !(b[12] === 0x49 && b[13] === 0x48 && b[14] === 0x44 && b[15] === 0x52)) return null;
      return { width: u32be(b, 16), height: u32be(b, 20) };
    }
    case 'gif':
      return b.length < 10 ? null : { width: u16le(b, 6), height: u16le(b, 8) };
    case 'webp': {
      if (b.length < 30) return null;
      const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
      if (chunk === 'VP8 ') {
        // key frame start code 9d 01 2a, then 14-bit width and height
        if (!(b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)) return null;
        return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
      }
      if (chunk === 'VP8L') {
        if (b[20] !== 0x2f) return null;
        const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
        return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8X') return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
      return null;
    }
    case 'jpeg': {
      // walk the marker segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG, DAC)
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return null;
        const marker = b[i + 1]!;
        if (marker === 0xff) {
          i++;
          continue;
        }
        if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
          i += 2;
          continue;
        }
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
        }
        if (marker === 0xda || marker === 0xd9) return null;
        i += 2 + u16be(b, i + 2);
      }
      return null;
    }
  }
}

/**
 * Checks an upload and describes it: refused when empty, over the size limit, not a PNG, JPEG,
 * WebP or GIF by its bytes (an SVG with its own code), unreadable, or over the dimension limits.
 */
export function checkUpload(bytes: Uint8Array, limits: UploadLimits): ImageInfo {
  if (bytes.length === 0) throw new AppError(422, 'media_empty', 'The file is empty.');
  if (bytes.length > limits.maxBytes) {
    throw new AppError(
      413,
      'media_too_large',
      `The file is larger than the limit of ${limits.maxBytes} bytes (MEDIA_MAX_BYTES).`,
    );
  }
  const type = sniffImage(bytes);
  if (!type) {
    if (looksLikeMarkup(bytes)) {
      throw new AppError(
        415,
        'media_svg_refused',
        'SVG and other markup files are refused: upload a PNG, JPEG, WebP or GIF.',
      );
    }
    throw new AppError(
      415,
      'media_type_unsupported',
      'The file is not a PNG, JPEG, WebP or GIF image (checked by its content, not its name).',
    );
  }
  const size = dimensionsOf(type, bytes);
  if (!size || size.width < 1 || size.height < 1) {
    throw new AppError(
      422,
      'media_unreadable',
      `The ${type.toUpperCase()} header could not be read: the file is damaged.`,
    );
  }
  if (size.width > limits.maxWidth || size.height > limits.maxHeight) {
    throw new AppError(
      422,
      'media_dimensions_too_large',
      `The image is ${size.width}x${size.height} pixels; the limit is ${limits.maxWidth}x${limits.maxHeight}.`,
    );
  }
  return { type, ext: EXT[type], contentType: CONTENT_TYPES[EXT[type]]!, ...size };
}

/** The folder of uploads under /storage. */
export const UPLOAD_FOLDER = 'uploads';

/** The content-addressed path of an upload: uploads/<sha256 of the bytes>.<ext>. */
export function uploadPath(bytes: Uint8Array, ext: string): string {
  return `${UPLOAD_FOLDER}/${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
}

const CONTENT_ADDRESSED = /(^|\/)([0-9a-f]{64})\.[a-z0-9]+$/;

/** The sha256 in a content-addressed name (its ETag, and why it may be cached for a year), or null. */
export function contentHashOf(path: string): string | null {
  return CONTENT_ADDRESSED.exec(path)?.[2] ?? null;
}

/** Cache-Control of a served file: a content-addressed name never changes; other names may. */
export function cacheControlOf(path: string): string {
  return contentHashOf(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * A storage path as requested (after URL decoding): segments of letters, digits, '.', '_' and '-'
 * only, none of them '.' or '..' or starting with a dot, at most 512 characters. Anything else
 * (traversal, NUL, backslashes, empty segments) is refused before any file system or S3 call.
 */
export function checkStoragePath(path: string): string {
  if (path.length === 0 || path.length > 512 || !path.split('/').every((s) => SEGMENT.test(s))) {
    throw new AppError(400, 'media_path_invalid', 'The storage path is not valid.');
  }
  return path;
}
