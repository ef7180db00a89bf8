// Console forms that save through the importer (the catalog editor, the content editor, Supply
// texts): a form's fields map to the keys of one import-document record, so a save is validated by
// the import's own rules and every ImportProblem is shown next to the field it names and listed
// once more above the form with a link to it. The one field renderer and the one problem mapping
// of the console.

import type { ImportProblem } from '../import/section.js';
import { type Html, html } from '../platform/html.js';

/** Messages per form field; '' holds the ones that name no field of the form. */
export type FieldErrors = Record<string, string[]>;

export interface FieldSpec {
  /** the import key of the record (and the form field's name) */
  name: string;
  label: string;
  /**
   * text, date, url, textarea and select are plain; `number` is a text box for digits (what was
   * typed reaches the importer, which names the rule); `checkbox` is one tick box (value '1');
   * `checkboxes` a group of them, one per option (value: the ticked ones joined by ','); `lines` is
   * a list, one entry a line; `json` is a JSON value in the import format
   */
  type?: 'text' | 'date' | 'url' | 'textarea' | 'number' | 'select' | 'checkbox' | 'checkboxes' | 'lines' | 'json';
  /** a blank required field is sent as '' (the import names the rule); others are sent as null */
  required?: boolean;
  /** what a blank `json` field is sent as (null or []) */
  blank?: null | [];
  hint?: Html | string;
  options?: readonly (string | { value: string; label: string })[];
  /** a select's first, empty choice (e.g. 'Choose a market') */
  empty?: string;
  /** the height of a textarea */
  rows?: number;
  /** the label is for screen readers only (a field in a table cell whose column header names it) */
  hiddenLabel?: boolean;
}

/** How a form is drawn: read-only (every field disabled), and a prefix of its ids when a page has two forms. */
export interface FieldOptions {
  disabled?: boolean;
  scope?: string;
}

/** The element id of a field: `f-`, the form's scope, and its name with every run of other characters as '-'. */
export function fieldId(name: string, scope?: string): string {
  return `f-${scope ? `${scope}-` : ''}${name.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

/**
 * Puts each import problem beside the form field it is about. `prefix` is the record's path in the
 * document (`/market_products/0`). `fields`: the names the form shows, a field's name being its
 * path below the prefix with dots (`title`, `itinerary.2.title`, `de.name`); without it a
 * problem belongs to the first segment of its path. A problem deeper than any field
 * (`/highlights/2`, `/itinerary/0/activities/1/tier`) goes to the nearest field above it, its
 * message naming the line (`line 2 (tier): ...`) or, inside a JSON value, the path (`/phases/0/id: ...`). `rows` maps the items of a list of the document
 * back to the form rows they came from (rows removed or left blank are not sent). A problem that
 * belongs to no field goes under ''.
 */
export function problemsToFields(
  problems: ImportProblem[],
  prefix: string,
  opts: { fields?: Iterable<string>; rows?: Record<string, number[]> } = {},
): FieldErrors {
  const known = opts.fields ? new Set(opts.fields) : undefined;
  const rows = opts.rows ?? {};
  const out: FieldErrors = {};
  const put = (key: string, message: string) => {
    out[key] = [...(out[key] ?? []), message];
  };
  for (const p of problems) {
    const inside = p.path.startsWith(`${prefix}/`);
    const parts = inside
      ? p.path
          .slice(prefix.length)
          .split('/')
          .filter(Boolean)
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      : [];
    // list items of the document -> the form rows they came from
    const list = parts[0] !== undefined ? rows[parts[0]] : undefined;
    if (list && parts[1] !== undefined && /^\d+$/.test(parts[1])) parts[1] = String(list[Number(parts[1])] ?? parts[1]);
    let placed = false;
    for (let n = known ? parts.length : Math.min(1, parts.length); n > 0 && !placed; n--) {
      const key = parts.slice(0, n).join('.');
      if (known && !known.has(key)) continue;
      const rest = parts.slice(n);
      const where = rest.length
        ? /^\d+$/.test(rest[0]!)
          ? `line ${Number(rest[0]) + 1}${rest.length > 1 ? ` (${rest.slice(1).join(' ')})` : ''}: `
          : `/${rest.join('/')}: `
        : '';
      put(key, `${where}${p.reason}`);
      placed = true;
    }
    if (!placed) {
      const where = inside ? parts.join(' ') : p.path === '/' || p.path === prefix ? '' : p.path;
      put('', where ? `${where}: ${p.reason}` : p.reason);
    }
  }
  return out;
}

/** The form's fields as the record's import keys: blank texts become null, lists and JSON parsed. */
export function formRecord(
  specs: FieldSpec[],
  value: (name: string) => string,
): { record: Record<string, unknown>; errors: FieldErrors } {
  const record: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const s of specs) {
    const raw = value(s.name);
    const blank = raw.trim() === '';
    switch (s.type ?? 'text') {
      case 'number':
        if (!blank) record[s.name] = /^-?\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
        break;
      case 'lines':
        record[s.name] = raw
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean);
        break;
      case 'json':
        if (blank) record[s.name] = s.blank ?? null;
        else {
          try {
            record[s.name] = JSON.parse(raw);
          } catch (err) {
            errors[s.name] = [`is not valid JSON (${(err as Error).message})`];
          }
        }
        break;
      case 'select':
        if (!blank) record[s.name] = raw;
        break;
      default:
        record[s.name] = blank ? (s.required ? '' : null) : raw;
    }
  }
  return { record, errors };
}

/** A stored import value as the text of its form field. */
export function fieldText(spec: FieldSpec, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (spec.type === 'lines') return (v as string[]).join('\n');
  if (spec.type === 'json') return (Array.isArray(v) && v.length === 0) || v === null ? '' : JSON.stringify(v, null, 2);
  return String(v);
}

const optionsOf = (spec: FieldSpec) =>
  (spec.options ?? []).map((o) => (typeof o === 'string' ? { value: o, label: o } : o));

/** The messages beside a field, one an item. */
const errorList = (id: string, errors: string[]) =>
  errors.length ? html`<ul class="field-error" id="${id}-error">${errors.map((m) => html`<li>${m}</li>`)}</ul>` : '';

/**
 * One labelled field with its messages beside it: the label names the control (`for`), the
 * control says it is invalid (aria-invalid) and points at its messages and its hint
 * (aria-describedby). A read-only form's fields are disabled.
 */
export function formField(spec: FieldSpec, value: string, errors: string[] = [], opts: FieldOptions = {}): Html {
  const id = fieldId(spec.name, opts.scope);
  const type = spec.type ?? 'text';
  const described = [errors.length ? `${id}-error` : '', spec.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const aria = html`${errors.length ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  const off = opts.disabled ? html` disabled` : '';
  const hint = spec.hint ? html`<p class="hint" id="${id}-hint">${spec.hint}</p>` : '';
  const box = (name: string, boxId: string, v: string, on: boolean, extra: Html | string) =>
    html`<input id="${boxId}" name="${name}" type="checkbox" value="${v}"${on ? html` checked` : ''}${extra}${off}>`;
  if (type === 'checkbox') {
    return html`<div class="field check${errors.length ? ' has-error' : ''}"><label for="${id}">${box(spec.name, id, '1', value === '1' || value === 'on', aria)} ${spec.label}</label>${hint}${errorList(id, errors)}</div>`;
  }
  if (type === 'checkboxes') {
    const ticked = new Set(value.split(','));
    return html`<fieldset id="${id}" class="field${errors.length ? ' has-error' : ''}"${aria}><legend>${spec.label}</legend>${hint}${optionsOf(
      spec,
    ).map(
      (o, i) =>
        html`<label for="${id}-${i}">${box(spec.name, `${id}-${i}`, o.value, ticked.has(o.value), '')} ${o.label}</label>`,
    )}${errorList(id, errors)}</fieldset>`;
  }
  const attrs = html`id="${id}" name="${spec.name}"${aria}${off}`;
  let control: Html;
  if (type === 'textarea' || type === 'lines' || type === 'json') {
    const rows = spec.rows ?? (type === 'json' ? 12 : 4);
    control = html`<textarea ${attrs} rows="${rows}"${type === 'json' ? html` class="code" spellcheck="false"` : ''}>${value}</textarea>`;
  } else if (type === 'select') {
    const list = optionsOf(spec);
    // a value the choices do not hold (typed in an import) is kept, so saving does not change it
    if (value && !list.some((o) => o.value === value)) list.unshift({ value, label: value });
    control = html`<select ${attrs}>${spec.empty !== undefined ? html`<option value="">${spec.empty}</option>` : ''}${list.map(
      (o) => html`<option value="${o.value}"${o.value === value ? html` selected` : ''}>${o.label}</option>`,
    )}</select>`;
  } else {
    control =
      type === 'number'
        ? html`<input ${attrs} type="text" inputmode="numeric" value="${value}">`
        : html`<input ${attrs} type="${type}" value="${value}">`;
  }
  return html`<div class="field${errors.length ? ' has-error' : ''}"><label for="${id}"${spec.hiddenLabel ? html` class="sr-only"` : ''}>${spec.label}</label>${hint}
${control}${errorList(id, errors)}</div>`;
}

/** A field's name as a reader would say it: `itinerary.2.title` -> `itinerary, row 3, title`. */
export const nameLabel = (name: string) =>
  name
    .split('.')
    .map((p) => (/^\d+$/.test(p) ? `row ${Number(p) + 1}` : p.replaceAll('_', ' ')))
    .join(', ');

/**
 * The alert above a refused form: how many problems, then every one of them, each linking to its
 * field (named by `label`, the field's name by default); those that name no field only here.
 */
export function formProblems(
  errors: FieldErrors,
  opts: { label?: (name: string) => string | undefined; scope?: string } = {},
): Html {
  const items = Object.entries(errors).flatMap(([name, list]) =>
    list.map((m) =>
      name
        ? html`<li><a href="#${fieldId(name, opts.scope)}">${opts.label?.(name) ?? nameLabel(name)}</a>: ${m}</li>`
        : html`<li>${m}</li>`,
    ),
  );
  if (items.length === 0) return html``;
  return html`<div class="alert error" role="alert"><p>Not saved: ${items.length} problem(s), shown next to their fields.</p><ul>${items}</ul></div>`;
}
