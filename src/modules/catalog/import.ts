// The catalog import: validate the whole document (JSON Schema, and the cross-references of every
// record the schema accepted), then apply
// every section in one transaction and bump the catalog revision so every process drops its cache.
import type { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { Settings } from 'typebox/system';
import type { Database } from '../../db/database.js';
import { catalogRevision } from '../../db/schema/index.js';
import { formatSentence, schemaSentence } from '../../import/format-messages.js';
import type { FieldChange } from '../../import/rows.js';
import type { ImportContext, ImportProblem, ImportSection } from '../../import/section.js';
import { contentSection } from '../content/import.js';
import { offerRulesSection } from '../offer-generation/import-section.js';
import { catalogSection } from './import-section.js';

/**
 * The sections the importer knows, in apply order: content links to catalog templates; departure
 * rules to market products.
 */
export const defaultSections: ImportSection[] = [catalogSection, contentSection, offerRulesSection];

export interface ImportOptions {
  sections?: ImportSection[];
  /** YYYY-MM-DD; defaults to today (UTC) */
  today?: string;
  /** receives 'catalog:changed' after a successful import */
  events?: EventEmitter;
  /** apply everything, report what would change, then roll back: nothing is written */
  dryRun?: boolean;
}

export type ImportSummary = Record<string, { total: number; inserted: number; updated: number }>;

/** One updated record: its entity, readable natural key and the fields that changed. */
export interface RecordChange {
  entity: string;
  key: string;
  changes: FieldChange[];
}

export type ImportResult =
  | { ok: true; summary: ImportSummary; changes: RecordChange[]; dryRun: boolean }
  | { ok: false; problems: ImportProblem[] };

/** Thrown inside a dry run's transaction to roll it back once every section was applied. */
class DryRun extends Error {}

/** The whole document's JSON Schema: the union of the sections' top-level keys, nothing else. */
export function importDocumentSchema(sections: ImportSection[] = defaultSections) {
  const properties: Record<string, object> = {};
  for (const s of sections) Object.assign(properties, s.properties);
  return Type.Object(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v as never)])), {
    additionalProperties: false,
    title: 'itinera catalog import document',
    description:
      'One JSON object; each top-level key is optional. A record is matched on its natural key and ' +
      'changes only the fields it names (an explicit null clears a nullable field; a field left out keeps ' +
      'its stored value). A new record must name its required fields, status included: nothing becomes ' +
      'public by default. A list an editor manages as a whole (images, highlights, airports, itinerary ' +
      'days, accommodations, day transfers, a country tours, trailers, experiences) is replaced when ' +
      'named and kept when left out. Records are never deleted but archived through their status (a supply ' +
      'translation given as null is removed). ' +
      'Image fields hold a storage path (served at /storage, e.g. uploads/<sha256>.jpg from the console ' +
      'Media page) or an absolute URL.',
  });
}

const validators = new WeakMap<ImportSection[], ReturnType<typeof Compile>>();

function validatorFor(sections: ImportSection[]) {
  let v = validators.get(sections);
  if (!v) {
    v = Compile(importDocumentSchema(sections));
    validators.set(sections, v);
  }
  return v;
}

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

function valueAt(doc: unknown, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/** Every schema error of the document: TypeBox stops at 8 unless told otherwise (a global setting). */
function allErrors(validator: ReturnType<typeof Compile>, doc: unknown): unknown[] {
  const previous = Settings.Get().maxErrors;
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER });
  try {
    return [...validator.Errors(doc)];
  } finally {
    Settings.Set({ maxErrors: previous });
  }
}

/** TypeBox errors -> one problem per offending value, with a plain reason. */
export function schemaProblems(errors: SchemaError[], doc: unknown): ImportProblem[] {
  const out: ImportProblem[] = [];
  const seen = new Set<string>();
  const push = (path: string, reason: string) => {
    const key = `${path}\n${reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path: path || '/', reason });
    }
  };
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    // the branches of a union report once, as the union
    if (e.schemaPath.includes('/anyOf/') && unions.has(e.instancePath)) continue;
    switch (e.keyword) {
      case 'required': {
        const value = valueAt(doc, e.instancePath) as Record<string, unknown> | undefined;
        const names = (e.params.requiredProperties as string[] | undefined) ?? [];
        for (const name of names) if (value && !(name in value)) push(`${e.instancePath}/${name}`, 'is required');
        break;
      }
      case 'boolean':
        push(e.instancePath, 'is not a known property');
        break;
      case 'additionalProperties':
        break; // reported per property by the 'boolean' error
      case 'enum':
        push(e.instancePath, `must be one of ${(e.params.allowedValues as unknown[]).map((v) => `'${v}'`).join(', ')}`);
        break;
      case 'pattern':
        push(e.instancePath, `has an invalid format. ${formatSentence(String(e.params.pattern ?? ''))}`);
        break;
      case 'anyOf':
        push(e.instancePath, 'has an invalid value');
        break;
      default:
        push(e.instancePath, schemaSentence(e.keyword, e.params, e.message));
    }
  }
  return out;
}

export async function validateImport(
  database: Database,
  doc: unknown,
  opts: ImportOptions = {},
): Promise<ImportProblem[]> {
  const sections = opts.sections ?? defaultSections;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return [{ path: '/', reason: 'the document must be a JSON object' }];
  }
  const validator = validatorFor(sections);
  const ctx = importContext(database, opts, {}, []);
  const checks = async (valid: Record<string, unknown>) => {
    const found: ImportProblem[] = [];
    for (const s of sections) found.push(...(await s.check(valid, ctx)));
    return found;
  };
  if (validator.Check(doc)) return checks(doc as Record<string, unknown>);
  const problems = schemaProblems(allErrors(validator, doc) as SchemaError[], doc);
  // the references of the records the schema accepted are checked too, so one round shows every problem
  const valid = schemaValidPart(validator, doc as Record<string, unknown>);
  if (valid) {
    for (const p of await checks(valid.doc)) {
      const path = valid.original(p.path);
      // a check of a value the schema refused (`is required` for a field removed here) says nothing new
      if (!valid.removed.some((r) => path === r || path.startsWith(`${r}/`))) problems.push({ ...p, path });
    }
  }
  return problems;
}

const MAX_PRUNE_ROUNDS = 20;

/**
 * The document without the values the schema refused, and a function taking a path in it back to
 * the path of the same value in the document. A refused value is removed; if that leaves its
 * object invalid (a required key gone) the object goes, and so on upwards. When a whole record of
 * a section (`/markets/0`) or a section would have to go there is no such part: other records may
 * name it (a market's products), and checking them would report references that are not wrong.
 * Items removed from a list are counted, so the checks' paths name the items of the document;
 * `removed` lists the document paths of what was removed.
 */
function schemaValidPart(
  validator: ReturnType<typeof Compile>,
  doc: Record<string, unknown>,
): { doc: Record<string, unknown>; original: (path: string) => string; removed: string[] } | undefined {
  const pruned = structuredClone(doc);
  /** a list's path in the document -> the document index of each item it still holds */
  const kept = new Map<string, number[]>();
  const removed: string[] = [];
  const decode = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
  const original = (path: string) => {
    let out = '';
    for (const part of path.split('/').slice(1)) {
      const list = kept.get(out);
      out += `/${list && /^\d+$/.test(part) ? String(list[Number(part)] ?? part) : part}`;
    }
    return out;
  };
  for (let round = 0; round < MAX_PRUNE_ROUNDS; round++) {
    if (validator.Check(pruned)) return { doc: pruned, original, removed };
    const paths = new Set((allErrors(validator, pruned) as SchemaError[]).map((e) => e.instancePath));
    // later list items first, so removing one does not move the next one to remove
    const order = [...paths].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    for (const path of order) {
      const parts = path.split('/').slice(1).map(decode);
      if (parts.length <= 2) return undefined;
      removed.push(original(path));
      const parent = valueAt(pruned, path.slice(0, path.lastIndexOf('/')));
      const last = parts[parts.length - 1]!;
      if (Array.isArray(parent) && /^\d+$/.test(last)) {
        const at = original(path.slice(0, path.lastIndexOf('/')));
        const list = kept.get(at) ?? parent.map((_, i) => i);
        list.splice(Number(last), 1);
        kept.set(at, list);
        parent.splice(Number(last), 1);
      } else if (parent !== null && typeof parent === 'object') {
        delete (parent as Record<string, unknown>)[last];
      }
    }
  }
  return undefined;
}

function importContext(
  database: Database,
  opts: ImportOptions,
  summary: ImportSummary,
  changes: RecordChange[],
): ImportContext {
  return {
    changed(entity, key, fields) {
      changes.push({ entity, key, changes: fields });
    },
    today: opts.today ?? new Date().toISOString().slice(0, 10),
    db: database.db,
    count(entity, c) {
      const prev = summary[entity] ?? { total: 0, inserted: 0, updated: 0 };
      summary[entity] = {
        total: prev.total + c.total,
        inserted: prev.inserted + c.inserted,
        updated: prev.updated + c.updated,
      };
    },
  };
}

export async function runImport(database: Database, doc: unknown, opts: ImportOptions = {}): Promise<ImportResult> {
  const sections = opts.sections ?? defaultSections;
  const problems = await validateImport(database, doc, opts);
  if (problems.length) return { ok: false, problems };
  const summary: ImportSummary = {};
  const changes: RecordChange[] = [];
  const ctx = importContext(database, opts, summary, changes);
  try {
    await database.db.transaction(async (tx) => {
      for (const s of sections) await s.apply(tx, doc as Record<string, unknown>, { ...ctx, db: tx });
      if (opts.dryRun) throw new DryRun();
      await bumpRevision(tx);
    });
  } catch (err) {
    if (err instanceof DryRun) return { ok: true, summary, changes, dryRun: true };
    // a constraint the checks could not foresee (e.g. a slug taken by a product not in the file)
    const e = err as { message?: string; cause?: { message?: string; detail?: string } };
    const reason = e.cause?.detail ?? e.cause?.message ?? e.message ?? String(err);
    return { ok: false, problems: [{ path: '/', reason: `the database refused the import: ${reason}` }] };
  }
  opts.events?.emit('catalog:changed');
  return { ok: true, summary, changes, dryRun: false };
}

type Executor = Pick<Database['db'], 'execute'>;

export async function bumpRevision(tx: Executor): Promise<void> {
  await tx.execute(
    sql`INSERT INTO catalog_revision (id, revision, updated_at) VALUES (1, 1, now())
        ON CONFLICT (id) DO UPDATE SET revision = catalog_revision.revision + 1, updated_at = now()`,
  );
}

/** The current catalog revision (0 before any import). */
export async function catalogRevisionOf(database: Database): Promise<number> {
  const rows = await database.db.select({ revision: catalogRevision.revision }).from(catalogRevision).limit(1);
  return rows[0]?.revision ?? 0;
}
