// SQL of the uploads table: one row per content-addressed file.
import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { adminUsers, mediaUploads } from '../../db/schema/index.js';

export type UploadRow = typeof mediaUploads.$inferSelect;

/** Records an upload unless its name is known; the row as stored (the first upload's) and whether it is new. */
export async function recordUpload(
  db: DbOrTx,
  row: typeof mediaUploads.$inferInsert,
): Promise<{ row: UploadRow; created: boolean }> {
  const inserted = await db.insert(mediaUploads).values(row).onConflictDoNothing().returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const [existing] = await db.select().from(mediaUploads).where(eq(mediaUploads.name, row.name));
  return { row: existing!, created: false };
}

export interface UploadListRow extends UploadRow {
  uploadedByEmail: string | null;
}

export async function recentUploads(db: DbOrTx, limit: number): Promise<UploadListRow[]> {
  return db
    .select({
      id: mediaUploads.id,
      name: mediaUploads.name,
      contentType: mediaUploads.contentType,
      bytes: mediaUploads.bytes,
      width: mediaUploads.width,
      height: mediaUploads.height,
      originalName: mediaUploads.originalName,
      uploadedBy: mediaUploads.uploadedBy,
      createdAt: mediaUploads.createdAt,
      uploadedByEmail: adminUsers.email,
    })
    .from(mediaUploads)
    .leftJoin(adminUsers, eq(adminUsers.id, mediaUploads.uploadedBy))
    .orderBy(desc(mediaUploads.createdAt), desc(mediaUploads.id))
    .limit(limit);
}
