// Console forms that save through the importer (the catalog and content editors): a form's fields
// map to the keys of one import-document record, so a save is validated by the import's own rules
// and every ImportProblem is shown next to the field it names. Shared by both editors.

import type { ImportProblem } from '../../import/section.js';
import { type Html, html } from '../../platform/html.js';

/** Messages per form field; '' holds the ones that name no field of the form. */
export type FieldErrors = Record<string, string[]>;

export interface FieldSpec {
  /** the import key of the record (and the form field's name) */
  name: string;
  label: string;
  /**
   * text, textarea, number and select are plain; `lines` is a list, one entry a line; `json` is a
   * JSON value in the import format
   */
  type?: 'text' | 'textarea' | 'number' | 'select' | 'lines' | 'json';
  /** a blank required field is sent as '' (the import names the rule); others are sent as null */
  required?: boolean;
  /** what a blank `json` field is sent as (null or []) */
  blank?: null | [];
  hint?: string;
  options?: { value: string; label: string }[];
}

const problemText = (path: string, reason: string) => (path ? `${path}: ${reason}` : reason);

/**
 * Problems of the record at `prefix` (a JSON path such as `/regions/0`), keyed by field: the first
 * path segment after the prefix; a deeper path keeps its rest in the message (`/phases/0/id: ...`).
 */
export function problemsToFields(problems: ImportProblem[], prefix: string): FieldErrors {
  const out: FieldErrors = {};
  const add = (k: string, m: string) => {
    out[k] = [...(out[k] ?? []), m];
  };
  for (const p of problems) {
    if (p.path === prefix || !p.path.startsWith(`${prefix}/`)) {
      add('', problemText(p.path === prefix || p.path === '/' ? '' : p.path, p.reason));
      continue;
    }
    const [name, ...rest] = p.path.slice(prefix.length + 1).split('/');
    add(name!, problemText(rest.length ? `/${rest.join('/')}` : '', p.reason));
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

/** One labelled field with its messages beside it (aria-invalid, aria-describedby). */
export function formField(spec: FieldSpec, value: string, errors: string[] = [], disabled = false): Html {
  const id = `f-${spec.name}`;
  const described = [errors.length ? `${id}-error` : '', spec.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const attrs = html`id="${id}" name="${spec.name}"${described ? html` aria-describedby="${described}"` : ''}${
    errors.length ? html` aria-invalid="true"` : ''
  }${disabled ? html` disabled` : ''}`;
  const type = spec.type ?? 'text';
  const control =
    type === 'textarea' || type === 'lines' || type === 'json'
      ? html`<textarea ${attrs} rows="${type === 'json' ? 12 : 4}"${type === 'json' ? html` class="code" spellcheck="false"` : ''}>${value}</textarea>`
      : type === 'select'
        ? html`<select ${attrs}>${(spec.options ?? []).map(
            (o) => html`<option value="${o.value}"${o.value === value ? html` selected` : ''}>${o.label}</option>`,
          )}</select>`
        : html`<input ${attrs} type="${type === 'number' ? 'number' : 'text'}" value="${value}">`;
  return html`<div class="field${errors.length ? ' has-error' : ''}"><label for="${id}">${spec.label}</label>${control}
${spec.hint ? html`<p class="hint" id="${id}-hint">${spec.hint}</p>` : ''}${
  errors.length ? html`<p class="field-error" id="${id}-error">${errors.join('; ')}</p>` : ''
}</div>`;
}

/** The alert above a refused form: how many problems, and those that name no field. */
export function formProblems(errors: FieldErrors): Html {
  const count = Object.values(errors).reduce((n, list) => n + list.length, 0);
  if (count === 0) return html``;
  const general = errors[''] ?? [];
  return html`<div class="alert error" role="alert">Not saved: ${count} problem(s), shown next to their fields.${
    general.length ? html`<ul>${general.map((m) => html`<li>${m}</li>`)}</ul>` : ''
  }</div>`;
}
