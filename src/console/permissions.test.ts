import { describe, expect, it } from 'vitest';
import { actionsFor, allows, allPermissions, isPermission, permissionName } from './permissions.js';

describe('admin permission model', () => {
  it('has view_lead and delete_lead, and no create or edit for leads', () => {
    expect(allPermissions()).toEqual(expect.arrayContaining(['view_lead', 'delete_lead']));
    expect(isPermission('create_lead')).toBe(false);
    expect(isPermission('update_lead')).toBe(false);
    expect(permissionName('view', 'lead')).toBe('view_lead');
  });

  it('grants what a role holds; a super admin holds every permission', () => {
    expect(allows({ permissions: ['view_lead'] }, 'view_lead')).toBe(true);
    expect(allows({ permissions: ['view_lead'] }, 'delete_lead')).toBe(false);
    expect(allows({ superAdmin: true, permissions: [] }, 'delete_lead')).toBe(true);
  });

  it('tells the lead screen what to show: read-only with bulk delete', () => {
    expect(actionsFor({ permissions: ['view_lead', 'delete_lead', 'create_lead'] }, 'lead')).toEqual({
      view: true,
      create: false,
      update: false,
      delete: true,
      bulkDelete: true,
    });
    expect(actionsFor({ permissions: ['view_lead'] }, 'lead')).toEqual({
      view: true,
      create: false,
      update: false,
      delete: false,
      bulkDelete: false,
    });
    expect(actionsFor({ superAdmin: true, permissions: [] }, 'lead').create).toBe(false);
  });
});

describe('the console permission list', () => {
  it("names every permission the issue lists, in the spec's {ability}_{resource} style", () => {
    expect(allPermissions().sort()).toEqual(
      [
        'view_booking',
        'book_flights_booking',
        'resend_confirmation_booking',
        'update_booking',
        'cancel_booking',
        'refund_booking',
        'export_booking',
        'view_lead',
        'delete_lead',
        'export_lead',
        'view_subscriber',
        'export_subscriber',
        'view_report',
        'view_sync_record',
        'retry_sync_record',
        'view_job',
        'retry_job',
        'delete_job',
        'view_mail',
        'view_catalog',
        'edit_catalog',
        'publish_catalog',
        'view_content',
        'edit_content',
        'publish_content',
        'view_dashboard',
        'view_audit_log',
        'manage_admin',
      ].sort(),
    );
  });
});
