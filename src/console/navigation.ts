// The console's navigation: one entry per page, grouped into sections, shown to admins holding
// its permission. A new page adds one line here (see docs/console.md, "Adding a page").
import type { Grant, Permission } from './permissions.js';
import { allows } from './permissions.js';

export const NAV_SECTIONS = ['Sales', 'Catalog', 'Operations', 'System'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

export interface NavItem {
  href: string;
  label: string;
  /** the permission the page needs, or a list of which any one will do */
  permission: Permission | readonly Permission[];
  /** the heading the link is listed under; Operations when not given */
  section?: NavSection;
}

export const navigation: NavItem[] = [
  { href: '/admin/bookings', label: 'Bookings', permission: 'view_booking', section: 'Sales' },
  { href: '/admin/departures', label: 'Departures', permission: 'view_booking', section: 'Sales' },
  { href: '/admin/leads', label: 'Leads', permission: 'view_lead', section: 'Sales' },
  { href: '/admin/subscribers', label: 'Subscribers', permission: 'view_subscriber', section: 'Sales' },
  { href: '/admin/catalog', label: 'Products', permission: 'view_catalog', section: 'Catalog' },
  { href: '/admin/supply-texts', label: 'Supply texts', permission: 'view_catalog', section: 'Catalog' },
  { href: '/admin/content', label: 'Content', permission: 'view_content', section: 'Catalog' },
  { href: '/admin/media', label: 'Media', permission: ['view_catalog', 'view_content'], section: 'Catalog' },
  { href: '/admin/jobs', label: 'Jobs', permission: 'view_job', section: 'Operations' },
  { href: '/admin/sync', label: 'Sync monitor', permission: 'view_sync_record', section: 'Operations' },
  { href: '/admin/outbox', label: 'Outbox', permission: 'view_mail', section: 'Operations' },
  { href: '/admin/reports', label: 'Reports', permission: 'view_report', section: 'Operations' },
  { href: '/health-dashboard', label: 'Health', permission: 'view_dashboard', section: 'System' },
  { href: '/pulse', label: 'Pulse', permission: 'view_dashboard', section: 'System' },
  { href: '/telescope', label: 'Telescope', permission: 'view_dashboard', section: 'System' },
  { href: '/admin/users', label: 'Admin users', permission: 'manage_admin', section: 'System' },
  { href: '/admin/roles', label: 'Roles', permission: 'manage_admin', section: 'System' },
  { href: '/admin/api-tokens', label: 'API tokens', permission: 'manage_admin', section: 'System' },
  { href: '/admin/audit-log', label: 'Audit log', permission: 'view_audit_log', section: 'System' },
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

/** The pages a grant may open, by section in the sections' order; empty sections are left out. */
export function navigationSections(grant: Grant): { section: NavSection; items: NavItem[] }[] {
  const items = navigationFor(grant);
  return NAV_SECTIONS.map((section) => ({
    section,
    items: items.filter((i) => (i.section ?? 'Operations') === section),
  })).filter((s) => s.items.length > 0);
}
