// Supply texts for the console: the base (English) texts of activities, hotels, transfers and
// airports with their translations, and saving translations through the importer, so an edit is
// validated by the import's rules, merges the same way, drops every cache and is audit-logged.

import { assertAllowed } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import type { ImportProblem } from '../../import/section.js';
import type { AdminActor } from '../admin/service.js';
import type { RecordChange } from './import.js';
import { auditChanges, importAndAudit } from './import-save.js';

interface SupplyKind {
  /** the import document's key and the base table */
  table: 'activities' | 'hotels' | 'transfers' | 'airports';
  one: string;
  label: string;
  /** the natural key column (the import's record key) */
  key: 'code' | 'iata_code';
  translations: string;
  /** the translation table's column pointing at the base row, and the base column it holds */
  parent: string;
  parentKey: 'id' | 'iata_code';
  fields: readonly SupplyField[];
}

export type SupplyField = 'name' | 'description' | 'city' | 'country' | 'reasons' | 'amenities';

const PLACE_TEXTS = ['name', 'description', 'city', 'country'] as const;

export const SUPPLY_KINDS = {
  activities: {
    table: 'activities',
    one: 'activity',
    label: 'Activities',
    key: 'code',
    translations: 'activity_translations',
    parent: 'activity_id',
    parentKey: 'id',
    fields: [...PLACE_TEXTS, 'reasons', 'amenities'],
  },
  hotels: {
    table: 'hotels',
    one: 'hotel',
    label: 'Hotels',
    key: 'code',
    translations: 'hotel_translations',
    parent: 'hotel_id',
    parentKey: 'id',
    fields: PLACE_TEXTS,
  },
  transfers: {
    table: 'transfers',
    one: 'transfer',
    label: 'Transfers',
    key: 'code',
    translations: 'transfer_translations',
    parent: 'transfer_id',
    parentKey: 'id',
    fields: PLACE_TEXTS,
  },
  airports: {
    table: 'airports',
    one: 'airport',
    label: 'Airports',
    key: 'iata_code',
    translations: 'airport_translations',
    parent: 'iata_code',
    parentKey: 'iata_code',
    fields: ['name', 'city', 'country'],
  },
} as const satisfies Record<string, SupplyKind>;

export type SupplyKindName = keyof typeof SUPPLY_KINDS;

export function isSupplyKind(name: string): name is SupplyKindName {
  return Object.hasOwn(SUPPLY_KINDS, name);
}

export type Texts = Partial<Record<SupplyField, unknown>>;

export interface SupplyListRow {
  key: string;
  name: string;
  city: string | null;
  /** languages with a translation, comma-separated ('' when none) */
  languages: string;
}

/** One page of a kind's records, by natural key, matching `q` in the key or the base name. */
export async function supplyPage(
  ctx: AppContext,
  kind: SupplyKindName,
  q: string,
  page: number,
  perPage: number,
): Promise<{ rows: SupplyListRow[]; total: number }> {
  const k: SupplyKind = SUPPLY_KINDS[kind];
  // identifiers come from SUPPLY_KINDS, never from the request
  const { rows } = await ctx.database.query<SupplyListRow & { total: number }>(
    `SELECT b."${k.key}" AS key, b.name, b.city,
            coalesce((SELECT string_agg(t.language, ', ' ORDER BY t.language) FROM "${k.translations}" t
                       WHERE t."${k.parent}" = b."${k.parentKey}"), '') AS languages,
            count(*) OVER ()::int AS total
       FROM "${k.table}" b
      WHERE $1 = '' OR b."${k.key}" ILIKE $2 OR b.name ILIKE $2
      ORDER BY b."${k.key}" LIMIT $3 OFFSET $4`,
    [q, `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, perPage, (page - 1) * perPage],
  );
  return { rows: rows.map(({ total: _, ...r }) => r), total: rows[0]?.total ?? 0 };
}

export interface SupplyRecord {
  key: string;
  base: Texts;
  /** language -> stored translation (null fields included) */
  translations: Record<string, Texts>;
}

export async function supplyRecord(ctx: AppContext, kind: SupplyKindName, key: string): Promise<SupplyRecord | null> {
  const k: SupplyKind = SUPPLY_KINDS[kind];
  const cols = k.fields.map((f) => `"${f}"`).join(', ');
  const base = await ctx.database.query<Record<string, unknown>>(
    `SELECT "${k.parentKey}" AS ref, ${cols} FROM "${k.table}" WHERE "${k.key}" = $1`,
    [key],
  );
  const row = base.rows[0];
  if (!row) return null;
  const tr = await ctx.database.query<Record<string, unknown>>(
    `SELECT language, ${cols} FROM "${k.translations}" WHERE "${k.parent}" = $1 ORDER BY language`,
    [row.ref],
  );
  const pick = (r: Record<string, unknown>) => Object.fromEntries(k.fields.map((f) => [f, r[f] ?? null])) as Texts;
  return {
    key,
    base: pick(row),
    translations: Object.fromEntries(tr.rows.map((r) => [String(r.language), pick(r)])),
  };
}

export type SaveResult = { ok: true; changes: RecordChange[] } | { ok: false; problems: ImportProblem[] };

/**
 * Saves translations of one record as an import document (`{<kind>: [{<key>, translations}]}`):
 * a language entry sets the fields it names, null for a field clears it, a null entry removes the
 * language. Needs edit_catalog (supply has no draft state); audit-logged with the changed fields.
 */
export async function saveSupplyTexts(
  ctx: AppContext,
  actor: AdminActor,
  kind: SupplyKindName,
  key: string,
  translations: Record<string, Texts | null>,
): Promise<SaveResult> {
  assertAllowed(actor.grant, 'edit_catalog');
  const k: SupplyKind = SUPPLY_KINDS[kind];
  const doc = { [k.table]: [{ [k.key]: key, translations }] };
  const result = await importAndAudit(ctx, actor, doc, (changes) => ({
    action: 'catalog.supply_texts.update',
    resourceType: k.one,
    resourceId: key,
    details: {
      languages: Object.keys(translations),
      changes: auditChanges(changes),
    },
  }));
  if (!result.ok) return result;
  return { ok: true, changes: result.changes };
}
