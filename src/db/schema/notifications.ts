// Tables of the notifications module: the admins' in-app notifications (created in the flights
// range 0350-0399) and their per-user read state (admin range 0700); moved here without a change
// (issue 24).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { adminUsers } from './admin.js';
import { bookings } from './checkout.js';

/** In-app notifications for admin users (flight legs booked, failed, all booked). */
export const adminNotifications = pgTable(
  'admin_notifications',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 50 }).notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_notifications_unread').on(t.createdAt).where(sql`read_at IS NULL`)],
);

/** Which admin user has read which in-app notification (read state is per user). */
export const adminNotificationReads = pgTable(
  'admin_notification_reads',
  {
    notificationId: integer('notification_id')
      .notNull()
      .references(() => adminNotifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.notificationId] })],
);
