// The console's list filters, checked as a person typed them: a value the form cannot hold is a
// sentence beside its field (and the list filters nothing), never a database error.
import { type Html, html } from '../platform/html.js';

/** A real calendar date written YYYY-MM-DD (2027-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Problems of a filter form, by field name, each a sentence. */
export type FilterErrors = Record<string, string>;

/**
 * A date field of a filter form: the date, undefined when blank, or a sentence in `errors`.
 * `label` names the field as the form does ("Departure from").
 */
export function dateField(
  raw: string | undefined,
  name: string,
  label: string,
  errors: FilterErrors,
): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (isCalendarDate(v)) return v;
  errors[name] = /^\d{4}-\d{2}-\d{2}$/.test(v)
    ? `${label}: ${v} is not a day of the calendar. Choose a date that exists.`
    : `${label}: write the date as year-month-day, e.g. 2027-03-14.`;
  return undefined;
}

/** A from/to pair where the end comes before the start: one sentence on the end field. */
export function rangeOrder(
  from: string | undefined,
  to: string | undefined,
  toName: string,
  label: string,
  errors: FilterErrors,
): void {
  if (from && to && to < from) errors[toName] = `${label}: the end date is before the start date.`;
}

/** A value that must be one of a list (a select the page offers). */
export function choiceField<T extends string>(
  raw: string | undefined,
  name: string,
  label: string,
  choices: readonly T[],
  errors: FilterErrors,
): T | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if ((choices as readonly string[]).includes(v)) return v as T;
  errors[name] = `${label}: "${v.slice(0, 40)}" is not one of the choices. Pick one from the list.`;
  return undefined;
}

/** The alert above a filter form whose values were refused, each problem linking to its field. */
export function filterProblems(errors: FilterErrors): Html {
  const list = Object.entries(errors);
  if (list.length === 0) return html``;
  return html`<div class="alert error" role="alert"><p>Nothing is listed: ${list.length === 1 ? 'one filter needs' : `${list.length} filters need`} a change.</p>
<ul>${list.map(([name, message]) => html`<li><a href="#${name}">${message}</a></li>`)}</ul></div>`;
}

/** aria attributes of a filter field: invalid, described by its message. */
export function invalidAttrs(errors: FilterErrors, name: string): Html {
  return errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : html``;
}

/** The message under a refused filter field. */
export function filterError(errors: FilterErrors, name: string): Html {
  return errors[name] ? html`<span class="field-error" id="${name}-error">${errors[name]}</span>` : html``;
}
