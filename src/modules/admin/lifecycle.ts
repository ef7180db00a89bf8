// The publishing rule and the status actions shared by the catalog editor (market products) and the
// content editor (regions, countries, About Us): edit_* creates drafts and changes drafts; a record
// that is not a draft, and every change of status, needs publish_* as well.
import type { Permission } from '../../console/permissions.js';

/** The permission a change of a record in `status` needs, in the catalog or the content area. */
export function permissionToChange(status: string, area: 'catalog' | 'content'): Permission {
  return status === 'draft' ? `edit_${area}` : `publish_${area}`;
}

export const STATUS_ACTIONS = {
  publish: { from: ['draft', 'inactive'], to: 'active', label: 'Publish' },
  unpublish: { from: ['active'], to: 'inactive', label: 'Unpublish' },
  archive: { from: ['draft', 'active', 'inactive'], to: 'archived', label: 'Archive' },
  restore: { from: ['archived'], to: 'draft', label: 'Restore as draft' },
} as const;
export type StatusAction = keyof typeof STATUS_ACTIONS;

export function isStatusAction(a: string): a is StatusAction {
  return Object.hasOwn(STATUS_ACTIONS, a);
}

/** The actions a record in `status` offers. */
export function actionsFrom(status: string): StatusAction[] {
  return (Object.keys(STATUS_ACTIONS) as StatusAction[]).filter((a) =>
    (STATUS_ACTIONS[a].from as readonly string[]).includes(status),
  );
}
