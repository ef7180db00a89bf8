// SQL of the admins' in-app notifications (admin_notifications) and their per-user read state
// (admin_notification_reads).
import { and, asc, count, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { adminNotificationReads, adminNotifications, bookings } from '../../db/schema/index.js';

export interface NewNotification {
  type: string;
  bookingId: number | null;
  title: string;
  message: string;
  data?: Record<string, unknown>;
}

export async function insertNotification(db: DbOrTx, n: NewNotification): Promise<void> {
  await db.insert(adminNotifications).values({ ...n, data: n.data ?? {} });
}

/** A booking's notifications, oldest first (the booking view). */
export async function notificationsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(adminNotifications)
    .where(eq(adminNotifications.bookingId, bookingId))
    .orderBy(asc(adminNotifications.id));
}

const unreadBy = (userId: number) =>
  notExists(
    sql`(select 1 from ${adminNotificationReads} where ${adminNotificationReads.notificationId} = ${adminNotifications.id} and ${adminNotificationReads.userId} = ${userId})`,
  );

export async function unreadCount(db: DbOrTx, userId: number): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(adminNotifications).where(unreadBy(userId));
  return Number(n);
}

export async function notificationsFor(db: DbOrTx, userId: number, limit: number) {
  return db
    .select({
      id: adminNotifications.id,
      type: adminNotifications.type,
      bookingId: adminNotifications.bookingId,
      // the console links each notification to its booking by reference
      bookingReference: bookings.reference,
      title: adminNotifications.title,
      message: adminNotifications.message,
      createdAt: adminNotifications.createdAt,
      readAt: adminNotificationReads.readAt,
    })
    .from(adminNotifications)
    .leftJoin(bookings, eq(bookings.id, adminNotifications.bookingId))
    .leftJoin(
      adminNotificationReads,
      and(eq(adminNotificationReads.notificationId, adminNotifications.id), eq(adminNotificationReads.userId, userId)),
    )
    .orderBy(desc(adminNotifications.createdAt), desc(adminNotifications.id))
    .limit(limit);
}

export async function markRead(db: DbOrTx, userId: number, ids: number[] | 'all', at: Date): Promise<number> {
  const unread = await db
    .select({ id: adminNotifications.id })
    .from(adminNotifications)
    .where(and(unreadBy(userId), ids === 'all' ? undefined : inArray(adminNotifications.id, ids)));
  if (unread.length === 0) return 0;
  await db
    .insert(adminNotificationReads)
    .values(unread.map((n) => ({ notificationId: n.id, userId, readAt: at })))
    .onConflictDoNothing();
  return unread.length;
}
