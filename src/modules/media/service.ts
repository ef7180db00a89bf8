// Use cases of the media store: store a checked upload under its content-addressed name (the one
// entry point other console pages call), list recent uploads, and read a file for /storage (from
// the configured store, then from the demo's own images when the demo is on).
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import type { MediaConfig } from '../../config.js';
import { allows, type Permission } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { projectPath } from '../../platform/paths.js';
import { assetUrl } from '../../platform/urls.js';
import { type AdminActor, audit } from '../admin/service.js';
import { recentUploads as listRecent, recordUpload } from './repository.js';
import { cacheControlOf, checkStoragePath, checkUpload, uploadPath } from './rules.js';
import { createMediaStore, LocalMediaStore, type MediaStore } from './store.js';

/** Either one lets an admin see the Media page; either edit permission lets them upload. */
export const VIEW_MEDIA: readonly Permission[] = ['view_catalog', 'view_content'];
export const UPLOAD_MEDIA: readonly Permission[] = ['edit_catalog', 'edit_content'];

/** The demo's own images (scripts/demo-images.mjs), served read-only when MEDIA_DEMO_IMAGES is on. */
export const DEMO_MEDIA_DIR = projectPath('data', 'demo', 'media');

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock'>;

const stores = new WeakMap<MediaConfig, { store: MediaStore; demo: MediaStore | null }>();

function storesOf(ctx: Pick<AppContext, 'config'>) {
  const media = ctx.config.media;
  let s = stores.get(media);
  if (!s) {
    s = { store: createMediaStore(media), demo: media.demoFallback ? new LocalMediaStore(DEMO_MEDIA_DIR) : null };
    stores.set(media, s);
  }
  return s;
}

export function mediaStore(ctx: Pick<AppContext, 'config'>): MediaStore {
  return storesOf(ctx).store;
}

export function mayAny(actor: AdminActor, permissions: readonly Permission[]): boolean {
  return permissions.some((p) => allows(actor.grant, p));
}

function assertAny(actor: AdminActor, permissions: readonly Permission[]): void {
  if (!mayAny(actor, permissions)) {
    throw new AppError(403, 'forbidden', `This needs one of the permissions ${permissions.join(', ')}.`);
  }
}

export interface StoredUpload {
  /** the path to reference from products and content (the import format's form): uploads/<sha256>.<ext> */
  path: string;
  /** the absolute URL the API hands out for that path */
  url: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  /** false when the same bytes were uploaded before (one file, one row) */
  created: boolean;
}

/**
 * Checks `bytes` (type by content, size, dimensions), stores them under their sha256 name unless
 * already there, records the upload and writes the audit log. Throws an AppError with a specific
 * code for each refusal (media_empty, media_too_large, media_type_unsupported, media_svg_refused,
 * media_unreadable, media_dimensions_too_large) and for storage failures (media_storage_*).
 */
export async function storeUpload(
  ctx: Ctx,
  bytes: Uint8Array,
  originalName: string,
  actor: AdminActor,
): Promise<StoredUpload> {
  assertAny(actor, UPLOAD_MEDIA);
  const { maxBytes, maxWidth, maxHeight } = ctx.config.media;
  const info = checkUpload(bytes, { maxBytes, maxWidth, maxHeight });
  const path = uploadPath(bytes, info.ext);
  const store = mediaStore(ctx);
  if (!(await store.head(path))) await store.put(path, bytes, info.contentType, cacheControlOf(path));
  const { row, created } = await recordUpload(ctx.database.db, {
    name: path,
    contentType: info.contentType,
    bytes: bytes.length,
    width: info.width,
    height: info.height,
    originalName: originalName.slice(0, 255) || null,
    uploadedBy: actor.userId,
    createdAt: ctx.clock.now(),
  });
  await audit(ctx, actor, {
    action: created ? 'media.upload' : 'media.upload_again',
    resourceType: 'media',
    resourceId: row.id,
    details: { path, bytes: bytes.length, width: info.width, height: info.height, originalName },
  });
  return {
    path,
    url: assetUrl(ctx.config.assetBaseUrl, path)!,
    contentType: info.contentType,
    bytes: bytes.length,
    width: info.width,
    height: info.height,
    created,
  };
}

export async function recentUploads(ctx: Ctx, actor: AdminActor, limit = 50) {
  assertAny(actor, VIEW_MEDIA);
  const rows = await listRecent(ctx.database.db, limit);
  return rows.map((r) => ({ ...r, url: assetUrl(ctx.config.assetBaseUrl, r.name)! }));
}

/** The file at a /storage path (checked), from the store, else the demo images; null when neither has it. */
export async function openMedia(ctx: Pick<AppContext, 'config'>, path: string, headOnly: boolean) {
  checkStoragePath(path);
  const { store, demo } = storesOf(ctx);
  const read = (s: MediaStore) => (headOnly ? s.head(path) : s.open(path));
  return (await read(store)) ?? (demo ? await read(demo) : null);
}

/** Production and staging refuse to boot when MEDIA_DIR cannot be written (uploads would fail later). */
export async function checkMediaDir(ctx: Pick<AppContext, 'config'>): Promise<void> {
  const { media, appEnv } = ctx.config;
  if (media.s3 || (appEnv !== 'production' && appEnv !== 'staging')) return;
  try {
    await mkdir(media.dir, { recursive: true });
    await access(media.dir, constants.W_OK);
  } catch (err) {
    throw new Error(`MEDIA_DIR ${media.dir} is not a writable directory (${(err as Error).message})`);
  }
}
