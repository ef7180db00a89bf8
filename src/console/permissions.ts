import { AppError } from '../platform/errors.js';

// The admin permission model: each admin resource lists the abilities it offers, and a
// permission is named `{ability}_{resource}` (view_lead, delete_lead). Admin screens ask
// `actionsFor(grant, resource)` what to show; an ability the resource does not offer is never
// granted, whatever a role holds (leads are read-only: no create or edit).

export type Ability =
  | 'view'
  | 'create'
  | 'update'
  | 'delete'
  | 'book_flights'
  | 'resend_confirmation'
  | 'cancel'
  | 'refund'
  | 'retry'
  | 'edit'
  | 'publish'
  | 'manage'
  | 'export';

export interface AdminResource {
  label: string;
  abilities: readonly Ability[];
  /** delete several selected rows at once (needs the delete ability) */
  bulkDelete: boolean;
}

// Adding a resource here adds its permissions everywhere (role editor, super_admin, docs/console.md).
export const adminResources = {
  // update: internal notes, supplier answers and amendments after the sale
  // export: CSV files of personal data (bookings list, departure manifest and rooming list)
  booking: {
    label: 'Bookings and departures',
    abilities: ['view', 'book_flights', 'resend_confirmation', 'cancel', 'refund', 'export', 'update'],
    bulkDelete: false,
  },
  lead: { label: 'Leads', abilities: ['view', 'delete', 'export'], bulkDelete: true },
  subscriber: { label: 'Subscribers', abilities: ['view', 'export'], bulkDelete: false },
  sync_record: { label: 'CRM sync records', abilities: ['view', 'retry'], bulkDelete: false },
  job: { label: 'Jobs', abilities: ['view', 'retry', 'delete'], bulkDelete: false },
  mail: { label: 'Customer e-mail outbox', abilities: ['view'], bulkDelete: false },
  // edit saves drafts (and archives); publish makes a draft live or changes a live record
  catalog: {
    label: 'Catalog: markets, products, offers, media',
    abilities: ['view', 'edit', 'publish'],
    bulkDelete: false,
  },
  content: {
    label: 'Content: regions, countries, labels, About Us, home',
    abilities: ['view', 'edit', 'publish'],
    bulkDelete: false,
  },
  report: { label: 'Reports: revenue and checkout funnel', abilities: ['view'], bulkDelete: false },
  dashboard: { label: 'Monitoring dashboards', abilities: ['view'], bulkDelete: false },
  audit_log: { label: 'Audit log', abilities: ['view'], bulkDelete: false },
  admin: { label: 'Admin users, roles and API tokens', abilities: ['manage'], bulkDelete: false },
} as const satisfies Record<string, AdminResource>;

/** The role that holds every permission, present or future. */
export const SUPER_ADMIN_ROLE = 'super_admin';

export type ResourceName = keyof typeof adminResources;
type AbilityOf<R extends ResourceName> = (typeof adminResources)[R]['abilities'][number];
export type Permission = { [R in ResourceName]: `${AbilityOf<R>}_${R}` }[ResourceName];

export function permissionName<R extends ResourceName>(ability: AbilityOf<R>, resource: R): Permission {
  return `${ability}_${resource}` as Permission;
}

/** Every permission that exists, for seeding roles and for the role editor. */
export function allPermissions(): Permission[] {
  return (Object.keys(adminResources) as ResourceName[]).flatMap((r) =>
    adminResources[r].abilities.map((a) => `${a}_${r}` as Permission),
  );
}

export function isPermission(name: string): name is Permission {
  return (allPermissions() as string[]).includes(name);
}

/** What a signed-in admin holds: permission names from their roles, or every one as super admin. */
export interface Grant {
  superAdmin?: boolean;
  permissions: Iterable<string>;
}

/** The signed-in admin a request acts as (the admin module's users, roles and sessions). */
export interface AdminActor {
  userId: number;
  email: string;
  name: string;
  roles: string[];
  grant: Grant;
  ip?: string;
  /** sha256 of the acting browser's session id (kept when the admin changes their own password) */
  sessionHash?: string;
}

/** A live console session: who, and the CSRF token its forms carry. */
export interface ResolvedSession {
  actor: AdminActor;
  csrfToken: string;
}

export function allows(grant: Grant, permission: Permission): boolean {
  if (!isPermission(permission)) return false;
  if (grant.superAdmin) return true;
  for (const p of grant.permissions) if (p === permission) return true;
  return false;
}

export interface ResourceActions {
  view: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
  bulkDelete: boolean;
}

export function actionsFor(grant: Grant, resource: ResourceName): ResourceActions {
  const offered = adminResources[resource].abilities as readonly Ability[];
  const may = (a: Ability) => offered.includes(a) && allows(grant, `${a}_${resource}` as Permission);
  const del = may('delete');
  return {
    view: may('view'),
    create: may('create'),
    update: may('update'),
    delete: del,
    bulkDelete: del && adminResources[resource].bulkDelete,
  };
}

/** The refusal the console's preHandler and the services raise alike. */
export function assertAllowed(grant: Grant, permission: Permission): void {
  if (!allows(grant, permission)) {
    throw new AppError(403, 'forbidden', `This needs the ${permission} permission.`);
  }
}
