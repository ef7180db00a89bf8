// The console's navigation: one entry per page, shown to admins holding its permission. A new
// page adds one line here (see docs/console.md, "Adding a page").
import type { Grant, Permission } from '../modules/admin/permissions.js';
import { allows } from '../modules/admin/permissions.js';

export interface NavItem {
  href: string;
  label: string;
  /** the permission the page needs, or a list of which any one will do */
  permission: Permission | readonly Permission[];
}

export const navigation: NavItem[] = [
  { href: '/admin/bookings', label: 'Bookings', permission: 'view_booking' },
  { href: '/admin/leads', label: 'Leads', permission: 'view_lead' },
  { href: '/admin/subscribers', label: 'Subscribers', permission: 'view_subscriber' },
  { href: '/admin/sync', label: 'Sync monitor', permission: 'view_sync_record' },
  { href: '/admin/jobs', label: 'Jobs', permission: 'view_job' },
  { href: '/admin/outbox', label: 'Outbox', permission: 'view_mail' },
  { href: '/admin/catalog', label: 'Catalog', permission: 'view_catalog' },
  { href: '/admin/supply-texts', label: 'Supply texts', permission: 'view_catalog' },
  { href: '/admin/content', label: 'Content', permission: 'view_content' },
  { href: '/admin/media', label: 'Media', permission: ['view_catalog', 'view_content'] },
  { href: '/health-dashboard', label: 'Health', permission: 'view_dashboard' },
  { href: '/pulse', label: 'Pulse', permission: 'view_dashboard' },
  { href: '/telescope', label: 'Telescope', permission: 'view_dashboard' },
  { href: '/admin/users', label: 'Admin users', permission: 'manage_admin' },
  { href: '/admin/roles', label: 'Roles', permission: 'manage_admin' },
  { href: '/admin/api-tokens', label: 'API tokens', permission: 'manage_admin' },
  { href: '/admin/audit-log', label: 'Audit log', permission: 'view_audit_log' },
];

/** Adds a page to the navigation, before `before` (a href) or at the end. */
export function addNavItem(item: NavItem, before?: string): void {
  if (navigation.some((n) => n.href === item.href)) return;
  const at = before ? navigation.findIndex((n) => n.href === before) : -1;
  if (at < 0) navigation.push(item);
  else navigation.splice(at, 0, item);
}

export function navigationFor(grant: Grant): NavItem[] {
  return navigation.filter((n) =>
    typeof n.permission === 'string' ? allows(grant, n.permission) : n.permission.some((p) => allows(grant, p)),
  );
}
