// Server-rendered HTML of the monitoring pages, inside the console's layout (its stylesheet, htmx).
// Every interpolated value is escaped by the `html` tag unless it is already rendered HTML.

import { layout as consoleLayout, type PageContext } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import { SLOW_REQUEST_MS } from './rules.js';
import type { DeploymentView, HealthRunView, PulseOverview, TelescopeEntry } from './service.js';
import { PULSE_PERIODS } from './service.js';

export type { PageContext };

function layout(p: PageContext, title: string, body: Html): string {
  return consoleLayout(p, title, body);
}

const STATUS_BADGE = { ok: 'green', warning: 'yellow', failed: 'red' } as const;

function checkRows(run: HealthRunView): Html {
  return html`${run.checkResults.map(
    (c) => html`<tr><td>${c.name}</td><td><span class="badge ${STATUS_BADGE[c.status]}">${c.status}</span></td>
<td>${c.message ?? ''}</td><td><code>${c.meta ? JSON.stringify(c.meta) : ''}</code></td></tr>`,
  )}`;
}

export function healthPage(p: PageContext, data: { latest: HealthRunView | null; history: HealthRunView[] }): string {
  const latest = data.latest
    ? html`<p class="muted">Finished at ${data.latest.finishedAt}</p>
<table><tr><th>Check</th><th>Status</th><th>Message</th><th>Meta</th></tr>${checkRows(data.latest)}</table>`
    : html`<p class="muted">No health run stored in the last day. <a href="/health-dashboard?fresh=1">Run the checks now</a>.</p>`;
  const history = data.history.map((run) => {
    const worst = run.checkResults.some((c) => c.status === 'failed')
      ? 'failed'
      : run.checkResults.some((c) => c.status === 'warning')
        ? 'warning'
        : 'ok';
    const notOk = run.checkResults.filter((c) => c.status !== 'ok');
    return html`<tr><td>${run.finishedAt}</td><td><span class="badge ${STATUS_BADGE[worst]}">${worst}</span></td>
<td>${notOk.map((c) => `${c.name}: ${c.status}${c.message ? ` (${c.message})` : ''}`).join('; ')}</td></tr>`;
  });
  return layout(
    p,
    'Health',
    html`<h1>Health</h1><div class="card table-wrap"><h2>Latest results <a href="/health-dashboard?fresh=1" class="muted">(run now)</a></h2>${latest}</div>
<div class="card table-wrap"><h2>History (last 24 hours, ${data.history.length} runs)</h2>
<table><tr><th>Finished at</th><th>Result</th><th>Checks not ok</th></tr>${history}</table></div>`,
  );
}

function deploymentRows(deployments: DeploymentView[]): Html {
  if (deployments.length === 0) return html`<tr><td colspan="5" class="muted">No deployments recorded.</td></tr>`;
  return html`${deployments.map(
    (d) => html`<tr><td><span class="badge ${d.badge}">${d.environment}</span></td><td>${d.version}</td>
<td><code>${d.commit}</code></td><td>${d.build_date}${d.build_id ? ` · ${d.build_id}` : ''}</td><td>${d.recorded_at}</td></tr>`,
  )}`;
}

/** The deployments card's body; htmx asks for it again every 5 s (no inline script). */
export function deploymentsBody(feed: { version: string; deployments: DeploymentView[] }): Html {
  return html`<tbody id="deployments" data-version="${feed.version}" hx-get="/pulse/deployments" hx-trigger="every 5s" hx-swap="outerHTML">${deploymentRows(feed.deployments)}</tbody>`;
}

function ms(value: number | null): string {
  return value === null ? '–' : `${value} ms`;
}

export function pulsePage(
  p: PageContext,
  data: PulseOverview,
  feed: { version: string; deployments: DeploymentView[] },
): string {
  const max = Math.max(1, ...data.throughput.map((m) => m.count));
  const periods = Object.keys(PULSE_PERIODS).map(
    (p) => html`<a href="/pulse?period=${p}" class="${p === data.period ? 'badge blue' : ''}">${p}</a>`,
  );
  const routes = data.routes.length
    ? data.routes.map(
        (r) => html`<tr><td>${r.method}</td><td><code>${r.route}</code></td><td class="n">${r.count}</td>
<td class="n">${r.perMinute}</td><td class="n">${r.errors}</td><td class="n">${ms(r.avgMs)}</td><td class="n">${ms(r.p50Ms)}</td>
<td class="n">${ms(r.p95Ms)}</td><td class="n">${ms(r.p99Ms)}</td><td class="n">${ms(r.maxMs)}</td></tr>`,
      )
    : html`<tr><td colspan="10" class="muted">No requests in this window.</td></tr>`;
  const slow = data.slow.length
    ? data.slow.map(
        (s) => html`<tr><td>${s.at}</td><td>${s.method}</td><td><code>${s.path}</code></td><td>${s.status}</td>
<td class="n">${s.durationMs} ms</td><td><a href="/telescope/requests/${encodeURIComponent(s.requestId)}">${s.requestId}</a></td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No request took ${SLOW_REQUEST_MS} ms or more.</td></tr>`;
  const queues =
    data.queues === null
      ? html`<p class="muted">Queue counts unavailable.</p>`
      : html`<table><tr><th>Queue</th><th class="n">Waiting</th><th class="n">Active</th><th class="n">Completed</th><th class="n">Failed</th></tr>
${data.queues.map(
  (q) =>
    html`<tr><td>${q.queue}</td><td class="n">${q.waiting}</td><td class="n">${q.active}</td><td class="n">${q.completed}</td><td class="n">${q.failed}</td></tr>`,
)}</table>`;
  return layout(
    p,
    'Pulse',
    html`<h1>Pulse</h1><nav class="periods card" aria-label="Window">Window: ${periods} <span class="muted">since ${data.since}</span></nav>
<div class="card grid"><div class="stat">Requests<b>${data.totals.count}</b></div><div class="stat">Per minute<b>${data.totals.perMinute}</b></div>
<div class="stat">Server errors<b>${data.totals.errors}</b></div></div>
<div class="card"><h2>Throughput (requests per minute)</h2><div class="bars">${data.throughput.map(
      (m) => html`<span title="${m.minute}: ${m.count}" class="h${Math.round((m.count / max) * 20)}"></span>`,
    )}</div></div>
<div class="card table-wrap"><h2>Deployments</h2><table><thead><tr><th>Environment</th><th>Version</th><th>Commit</th><th>Build</th><th>Recorded at</th></tr></thead>
${deploymentsBody(feed)}</table></div>
<div class="card table-wrap"><h2>Routes</h2><table><tr><th>Method</th><th>Route</th><th class="n">Requests</th><th class="n">Per min</th><th class="n">5xx</th>
<th class="n">Avg</th><th class="n">p50</th><th class="n">p95</th><th class="n">p99</th><th class="n">Max</th></tr>${routes}</table></div>
<div class="card table-wrap"><h2>Slow requests (${SLOW_REQUEST_MS} ms or more)</h2><table><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th class="n">Duration</th><th>Request id</th></tr>${slow}</table></div>
<div class="card table-wrap"><h2>Queues</h2>${queues}</div>`,
  );
}

function statusBadge(status: number): Html {
  const colour = status >= 500 ? 'red' : status >= 400 ? 'yellow' : 'green';
  return html`<span class="badge ${colour}">${status}</span>`;
}

function requestLink(id: string): Html {
  return html`<a href="/telescope/requests/${encodeURIComponent(id)}"><code>${id}</code></a>`;
}

export function telescopePage(
  p: PageContext,
  data: { requests: TelescopeEntry[]; exceptions: TelescopeEntry[] },
): string {
  const requests = data.requests.length
    ? data.requests.map(
        (r) => html`<tr><td>${r.recordedAt.toISOString()}</td><td>${r.method}</td><td><code>${r.path}</code></td>
<td>${statusBadge(r.status)}</td><td class="n">${r.durationMs} ms</td><td>${requestLink(r.requestId)}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No requests recorded yet.</td></tr>`;
  const exceptions = data.exceptions.length
    ? data.exceptions.map(
        (
          r,
        ) => html`<tr><td>${r.recordedAt.toISOString()}</td><td>${r.method} <code>${r.path}</code></td><td>${statusBadge(r.status)}</td>
<td>${r.errorName ?? ''}</td><td>${r.errorMessage ?? ''}</td><td>${requestLink(r.requestId)}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No server errors recorded.</td></tr>`;
  return layout(
    p,
    'Telescope',
    html`<h1>Telescope</h1><div class="card table-wrap"><h2>Exceptions (5xx)</h2><table><tr><th>Time</th><th>Request</th><th>Status</th><th>Error</th><th>Message</th><th>Request id</th></tr>${exceptions}</table></div>
<div class="card table-wrap"><h2>Requests</h2><table><tr><th>Time</th><th>Method</th><th>Path</th><th>Status</th><th class="n">Duration</th><th>Request id</th></tr>${requests}</table></div>`,
  );
}

export function telescopeDetailPage(p: PageContext, requestId: string, entries: TelescopeEntry[]): string {
  const cards = entries.map(
    (e) => html`<div class="card table-wrap"><h2>${e.method} <code>${e.path}</code> ${statusBadge(e.status)}</h2>
<table><tr><th>Request id</th><td><code>${e.requestId}</code></td></tr><tr><th>Time</th><td>${e.recordedAt.toISOString()}</td></tr>
<tr><th>Route</th><td><code>${e.route ?? '(no route matched)'}</code></td></tr><tr><th>Duration</th><td>${e.durationMs} ms</td></tr>
${e.errorName || e.errorMessage ? html`<tr><th>Error</th><td>${e.errorName ?? ''}: ${e.errorMessage ?? ''}</td></tr>` : ''}
<tr><th>Headers</th><td><table>${Object.entries(e.headers).map(
      ([k, v]) => html`<tr><td><code>${k}</code></td><td><code>${v}</code></td></tr>`,
    )}</table><p class="muted">Bodies, cookies and credentials are never recorded.</p></td></tr></table></div>`,
  );
  return layout(
    p,
    `Request ${requestId}`,
    html`<p><a href="/telescope">← all requests</a></p><h1>Request <code>${requestId}</code></h1>${cards}`,
  );
}
