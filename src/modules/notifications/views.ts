// The console's notifications page: the latest notifications with their read state.

import { badge, csrfField, layout, notice, type PageContext, when } from '../../console/views.js';
import { html } from '../../platform/html.js';

export interface NotificationView {
  id: number;
  type: string;
  title: string;
  message: string;
  createdAt: Date;
  readAt: Date | null;
  bookingReference: string | null;
}

export function notificationsPage(p: PageContext, list: NotificationView[], done?: string): string {
  const rows = list.length
    ? list.map(
        (
          n,
        ) => html`<tr class="${n.readAt ? '' : 'unread'}"><td>${when(n.createdAt)}</td><td>${badge(n.readAt ? 'read' : 'unread')}</td>
<td>${n.title}</td><td>${n.message}</td>
<td>${n.bookingReference ? html`<a href="/admin/bookings/${n.bookingReference}">${n.bookingReference}</a>` : ''}</td>
<td>${n.readAt ? '' : html`<form method="post" action="/admin/notifications/${n.id}/read">${csrfField(p.csrfToken)}<button type="submit" class="secondary" aria-label="Mark read: ${n.title}">Mark read</button></form>`}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No notifications.</td></tr>`;
  return layout(
    p,
    'Notifications',
    html`<h1>Notifications</h1>${notice(done)}
<form method="post" action="/admin/notifications/read-all" class="actions">${csrfField(p.csrfToken)}<button type="submit">Mark all read</button></form>
<div class="card table-wrap"><table><caption>Latest 100 notifications</caption><thead><tr><th>Time</th><th>State</th><th>Title</th><th>Message</th><th>Booking</th><th>Action</th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
  );
}
