// Pages of the admin module: admin users, roles, API tokens, audit log.

import { adminResources, allPermissions, type ResourceName } from '../../console/permissions.js';
import { badge, csrfField, layout, notice, type PageContext, pager, when } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import type { AuditRow } from './repository.js';

// ------------------------------------------------------------------------------------ users

export interface UserRow {
  id: number;
  email: string;
  name: string;
  roles: string[];
  disabledAt: Date | null;
  lastLoginAt: Date | null;
}

export function usersPage(p: PageContext, users: UserRow[], done?: string): string {
  return layout(
    p,
    'Admin users',
    html`<h1>Admin users</h1>${notice(done)}<p><a class="button" href="/admin/users/new">New admin user</a></p>
<div class="card table-wrap"><table><thead><tr><th>Name</th><th>Email</th><th>Roles</th><th>State</th><th>Last sign-in</th></tr></thead><tbody>
${users.map(
  (
    u,
  ) => html`<tr><td><a href="/admin/users/${u.id}">${u.name}</a></td><td>${u.email}</td><td>${u.roles.join(', ') || html`<span class="muted">none</span>`}</td>
<td>${badge(u.disabledAt ? 'disabled' : 'active')}</td><td>${when(u.lastLoginAt)}</td></tr>`,
)}</tbody></table></div>`,
  );
}

export function userForm(
  p: PageContext,
  opts: {
    user?: UserRow;
    roles: { name: string; label: string }[];
    values?: { email: string; name: string; roles: string[]; disabled?: boolean };
    error?: string;
  },
): string {
  const v = opts.values ?? {
    email: opts.user?.email ?? '',
    name: opts.user?.name ?? '',
    roles: opts.user?.roles ?? [],
    disabled: Boolean(opts.user?.disabledAt),
  };
  const editing = Boolean(opts.user);
  const own = opts.user?.id === p.actor.userId;
  const title = editing ? `Edit ${opts.user!.name}` : 'New admin user';
  return layout(
    p,
    title,
    html`<h1>${title}</h1>${opts.error ? html`<div class="alert error" role="alert">${opts.error}</div>` : ''}
<form method="post" action="${editing ? `/admin/users/${opts.user!.id}` : '/admin/users'}" class="card">${csrfField(p.csrfToken)}
<div class="field"><label for="name">Name</label><input id="name" name="name" type="text" required value="${v.name}"></div>
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" required value="${v.email}"></div>
<div class="field"><label for="password">${editing ? 'New password (leave empty to keep)' : 'Password'}</label>
<input id="password" name="password" type="password" autocomplete="new-password" ${editing ? '' : html`required`} minlength="12"></div>
${
  own
    ? html`<div class="field"><label for="current_password">Your current password (to change your password or e-mail)</label>
<input id="current_password" name="current_password" type="password" autocomplete="current-password"></div>`
    : ''
}
<fieldset><legend>Roles</legend>${opts.roles.map(
      (r) =>
        html`<label><input type="checkbox" name="roles" value="${r.name}"${v.roles.includes(r.name) ? html` checked` : ''}> ${r.label} <code>${r.name}</code></label>`,
    )}</fieldset>
${editing ? html`<fieldset><legend>Access</legend><label><input type="checkbox" name="disabled" value="1"${v.disabled ? html` checked` : ''}> Disabled (signs the user out everywhere)</label></fieldset>` : ''}
<div class="actions"><button type="submit">${editing ? 'Save' : 'Create admin user'}</button><a class="button secondary" href="/admin/users">Cancel</a></div></form>`,
  );
}

// ------------------------------------------------------------------------------------ own sessions

export function sessionsPage(
  p: PageContext,
  sessions: {
    idHash: string;
    ip: string | null;
    userAgent: string | null;
    createdAt: Date;
    lastSeenAt: Date;
    current: boolean;
  }[],
  done?: string,
): string {
  const others = sessions.filter((s) => !s.current).length;
  return layout(
    p,
    'Your sessions',
    html`<h1>Your sessions</h1>${notice(done)}
<p>Every browser signed in to your account. End the ones you do not recognise, then change your password.</p>
${others ? html`<form method="post" action="/admin/sessions/end" class="actions">${csrfField(p.csrfToken)}<button type="submit">Sign out all other sessions</button></form>` : ''}
<div class="card table-wrap"><table><thead><tr><th>Signed in</th><th>Last used</th><th>Address</th><th>Browser</th><th>Action</th></tr></thead><tbody>
${sessions.map(
  (
    s,
  ) => html`<tr><td>${when(s.createdAt)}</td><td>${when(s.lastSeenAt)}</td><td>${s.ip ?? ''}</td><td>${s.userAgent ?? ''}</td>
<td>${s.current ? html`<span class="muted">this browser</span>` : html`<form method="post" action="/admin/sessions/end">${csrfField(p.csrfToken)}<input type="hidden" name="session" value="${s.idHash}"><button type="submit" class="secondary" aria-label="Sign out the session from ${s.ip ?? 'an unknown address'} signed in ${s.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC">Sign out</button></form>`}</td></tr>`,
)}</tbody></table></div>`,
  );
}

// ------------------------------------------------------------------------------------ roles

export function rolesPage(
  p: PageContext,
  roles: { id: number; name: string; label: string; permissions: string[] }[],
  done?: string,
): string {
  const groups = (Object.keys(adminResources) as ResourceName[]).map((r) => ({
    label: adminResources[r].label,
    permissions: allPermissions().filter((x) => x.endsWith(`_${r}`)),
  }));
  const editor = (role: { name: string; label: string; permissions: string[] } | null) => {
    const id = role ? `role-${role.name}` : 'role-new';
    return html`<form method="post" action="/admin/roles" class="card" aria-labelledby="${id}">${csrfField(p.csrfToken)}
<h2 id="${id}">${role ? html`${role.label} <code>${role.name}</code>` : 'New role'}</h2>
${role ? html`<input type="hidden" name="name" value="${role.name}">` : html`<div class="field"><label for="new-name">Role name</label><input id="new-name" name="name" type="text" required pattern="[a-z][a-z0-9_]{1,49}"></div>`}
<div class="field"><label for="${id}-label">Label</label><input id="${id}-label" name="label" type="text" value="${role?.label ?? ''}"></div>
${groups.map(
  (g) =>
    html`<fieldset><legend>${g.label}</legend>${g.permissions.map(
      (perm) =>
        html`<label><input type="checkbox" name="permissions" value="${perm}"${role?.permissions.includes(perm) ? html` checked` : ''}> <code>${perm}</code></label>`,
    )}</fieldset>`,
)}<button type="submit">${role ? `Save ${role.label}` : 'Create role'}</button></form>`;
  };
  const superAdmin = roles.find((r) => r.name === 'super_admin');
  return layout(
    p,
    'Roles',
    html`<h1>Roles</h1>${notice(done)}
${superAdmin ? html`<div class="card"><h2>${superAdmin.label} <code>super_admin</code></h2><p>Holds every permission, present and future; not editable.</p></div>` : ''}
${roles.filter((r) => r.name !== 'super_admin').map((r) => editor(r))}${editor(null)}`,
  );
}

// ------------------------------------------------------------------------------------ API tokens

export function tokensPage(
  p: PageContext,
  tokens: {
    id: number;
    name: string;
    abilities: string[];
    lastUsedAt: Date | null;
    revokedAt: Date | null;
    createdAt: Date;
  }[],
  created?: { token: string; name: string },
  done?: string,
): string {
  const shown = created
    ? html`<div class="alert ok" role="status"><p>Token <strong>${created.name}</strong> created. Copy it now: it is shown only once.</p>
<label for="new-token">New token</label><input id="new-token" type="text" readonly value="${created.token}" size="60"></div>`
    : html``;
  return layout(
    p,
    'API tokens',
    html`<h1>API tokens</h1>${shown}${notice(done)}
<form method="post" action="/admin/api-tokens" class="card">${csrfField(p.csrfToken)}<h2>New API token</h2>
<div class="filters" role="group" aria-label="New token">
<div class="field"><label for="token-name">Token name</label><input id="token-name" name="name" type="text" required maxlength="100"></div>
<div class="field"><label for="token-abilities">Abilities (comma-separated)</label><input id="token-abilities" name="abilities" type="text" required placeholder="admin:bookings"></div>
</div><button type="submit">Create token</button></form>
<div class="card table-wrap"><table><thead><tr><th>Name</th><th>Abilities</th><th>Created</th><th>Last used</th><th>State</th><th>Action</th></tr></thead><tbody>
${tokens.map(
  (
    t,
  ) => html`<tr><td>${t.name}</td><td><code>${t.abilities.join(', ')}</code></td><td>${when(t.createdAt)}</td><td>${when(t.lastUsedAt)}</td>
<td>${badge(t.revokedAt ? 'revoked' : 'active')}</td>
<td>${t.revokedAt ? '' : html`<a href="/admin/api-tokens/${t.id}/revoke" aria-label="Revoke ${t.name}">Revoke</a>`}</td></tr>`,
)}</tbody></table></div>`,
  );
}

// ------------------------------------------------------------------------------------ audit log

export function auditPage(
  p: PageContext,
  data: { rows: AuditRow[]; total: number; page: number; pages: number },
  link: (page: number) => string,
): string {
  const target = (r: AuditRow): Html | string => {
    if (!r.resourceType) return '';
    if (r.resourceType === 'booking' && r.resourceId) {
      return html`booking <a href="/admin/bookings/${r.resourceId}">${r.resourceId}</a>`;
    }
    if (r.resourceType === 'admin_user' && r.resourceId) {
      return html`admin user <a href="/admin/users/${r.resourceId}">${r.resourceId}</a>`;
    }
    return `${r.resourceType.replaceAll('_', ' ')} ${r.resourceId ?? ''}`;
  };
  return layout(
    p,
    'Audit log',
    html`<h1>Audit log</h1><div class="card table-wrap"><table><thead><tr><th>Time</th><th>Who</th><th>Action</th><th>Record</th><th>Details</th><th>IP</th></tr></thead><tbody>
${
  data.rows.length
    ? data.rows.map(
        (
          r,
        ) => html`<tr><td>${when(r.createdAt)}</td><td>${r.actor}</td><td><code>${r.action}</code></td><td>${target(r)}</td>
<td>${Object.keys(r.details).length ? html`<code>${JSON.stringify(r.details)}</code>` : ''}</td><td>${r.ip ?? ''}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">Nothing recorded yet.</td></tr>`
}</tbody></table>
${pager({ page: data.page, pages: data.pages, total: data.total, href: link })}</div>`,
  );
}
