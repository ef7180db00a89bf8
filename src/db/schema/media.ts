// Uploaded media (migration range 0960): one row per stored file, named by the sha256 of its
// bytes, so the same upload twice is one row and one file.
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { adminUsers } from './admin.js';

export const mediaUploads = pgTable(
  'media_uploads',
  {
    id: serial('id').primaryKey(),
    /** the path under /storage, e.g. uploads/<sha256>.png (what products and content reference) */
    name: text('name').notNull(),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** the file name the uploader's computer gave it (shown in the console only) */
    originalName: varchar('original_name', { length: 255 }),
    uploadedBy: integer('uploaded_by').references(() => adminUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('media_uploads_name').on(t.name), index('media_uploads_created').on(t.createdAt)],
);
