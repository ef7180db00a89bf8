// Reads a console form out of a rendered page the way a browser would submit it: text inputs,
// textareas, the selected option of each select, ticked checkboxes. HTTP tests change the one
// field they are about and post the rest as the page holds it.

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The fields of the form posting to `action` (its first occurrence), repeated names as arrays. */
export function formValues(page: string, action: string): Record<string, string | string[]> {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posts to ${action}`);
  const body = page.slice(start, page.indexOf('</form>', start));
  const out: Record<string, string | string[]> = {};
  const add = (name: string, value: string) => {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  };
  for (const m of body.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = m[1]!;
    const name = /\bname="([^"]*)"/.exec(attrs)?.[1];
    if (!name || /\bdisabled\b/.test(attrs)) continue;
    const type = /\btype="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    const value = decode(/\bvalue="([^"]*)"/.exec(attrs)?.[1] ?? '');
    if (type === 'checkbox' || type === 'radio') {
      if (/\bchecked\b/.test(attrs)) add(name, value || 'on');
    } else add(decode(name), value);
  }
  for (const m of body.matchAll(/<textarea\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    add(decode(m[1]!), decode(m[2]!));
  }
  for (const m of body.matchAll(/<select\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const options = [...m[2]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)];
    const chosen = options.find((o) => /\bselected\b/.test(o[1]!)) ?? options[0];
    if (!chosen) continue;
    const value = /\bvalue="([^"]*)"/.exec(chosen[1]!)?.[1] ?? chosen[2]!;
    add(decode(m[1]!), decode(value));
  }
  return out;
}

/** application/x-www-form-urlencoded of a form's values. */
export function encodeForm(values: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, x);
  return q.toString();
}

/** The problems listed beside a field (by its form name, and the form's scope if it has one), as the page shows them. */
export function fieldErrors(page: string, name: string, scope?: string): string[] {
  const id = `f-${scope ? `${scope}-` : ''}${name.replace(/[^a-zA-Z0-9]+/g, '-')}`;
  const list = new RegExp(`<ul class="field-error" id="${id}-error">([\\s\\S]*?)</ul>`).exec(page);
  if (!list) return [];
  if (!new RegExp(`id="${id}"[^>]*aria-invalid="true" aria-describedby="${id}-error[ "]`).test(page)) {
    throw new Error(`the field ${name} does not point at its problems`);
  }
  return [...list[1]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => decode(m[1]!));
}
