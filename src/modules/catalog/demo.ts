// The demo catalog: every data/demo/*.json file is one part of a single import document (merged by
// top-level key). Dates are written relative to the day of loading ("today+30", "today-5"), so
// the demo never goes stale.

import type { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.js';
import type { ImportSection } from '../../import/section.js';
import { addDays } from '../../platform/clock.js';
import { projectPath } from '../../platform/paths.js';
import { defaultSections, type ImportResult, runImport } from './import.js';
import { catalogIsEmpty } from './import-section.js';

export const DEMO_DIR = projectPath('data', 'demo');

const RELATIVE = /^today(?:([+-])(\d{1,4}))?$/;

/** Replaces every "today", "today+N" and "today-N" string (whole value) with a YYYY-MM-DD date. */
export function resolveRelativeDates(value: unknown, today: string): unknown {
  if (typeof value === 'string') {
    const m = RELATIVE.exec(value);
    if (!m) return value;
    return addDays(today, m[1] === '-' ? -Number(m[2]) : Number(m[2] ?? 0));
  }
  if (Array.isArray(value)) return value.map((v) => resolveRelativeDates(v, today));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRelativeDates(v, today)]));
  }
  return value;
}

/** Merges documents by top-level key: arrays are concatenated, objects merged, others replaced. */
export function mergeDocuments(docs: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const doc of docs) {
    for (const [key, value] of Object.entries(doc)) {
      const prev = out[key];
      if (Array.isArray(prev) && Array.isArray(value)) out[key] = [...prev, ...value];
      else if (prev && value && typeof prev === 'object' && typeof value === 'object' && !Array.isArray(value)) {
        out[key] = { ...(prev as object), ...(value as object) };
      } else out[key] = value;
    }
  }
  return out;
}

export function readDemoDocument(dir = DEMO_DIR, today: string): Record<string, unknown> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const docs = files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>);
  return resolveRelativeDates(mergeDocuments(docs), today) as Record<string, unknown>;
}

export async function loadDemo(
  database: Database,
  opts: { today: string; dir?: string; sections?: ImportSection[]; events?: EventEmitter },
): Promise<ImportResult> {
  const doc = readDemoDocument(opts.dir, opts.today);
  return runImport(database, doc, {
    today: opts.today,
    sections: opts.sections ?? defaultSections,
    events: opts.events,
  });
}

/** `serve` on an empty database (no market yet) with LOAD_DEMO_DATA on: import the demo catalog. */
export async function loadDemoOnFirstStart(cli: {
  config: { loadDemo: boolean };
  database: Database;
  log: { info(o: object, m: string): void; error(o: object, m: string): void };
}): Promise<void> {
  if (!cli.config.loadDemo || !(await catalogIsEmpty(cli.database.db))) return;
  const started = Date.now();
  const result = await loadDemo(cli.database, { today: new Date().toISOString().slice(0, 10) });
  if (result.ok) cli.log.info({ ms: Date.now() - started }, 'demo catalog loaded');
  else cli.log.error({ problems: result.problems.slice(0, 20) }, 'demo catalog rejected');
}
