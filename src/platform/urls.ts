// Image and asset values are stored either as storage paths or as full URLs.

/** A scheme (https:, data:, ...) or a protocol-relative URL: already a URL, served unchanged. */
const IS_URL = /^([a-z][a-z\d+.-]*:|\/\/)/i;

export function isUrl(value: string): boolean {
  return IS_URL.test(value);
}

/** Storage path -> absolute URL under `base`; URLs pass through; empty -> null. */
export function assetUrl(base: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = value.trim();
  if (IS_URL.test(v)) return v;
  return `${base.replace(/\/+$/, '')}/${v.replace(/^\/+/, '')}`;
}
