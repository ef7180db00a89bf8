// The catalog import document is one JSON object; each domain module owns some of its top-level
// keys through an ImportSection. The importer (src/modules/catalog/import.ts) validates the whole
// document against the union of the sections' JSON Schemas, asks each section for cross-reference
// problems, and applies the sections in order inside one transaction.
import type { DbOrTx, Tx } from '../db/database.js';
import type { FieldChange } from './rows.js';

export interface ImportProblem {
  /** JSON path of the offending value, e.g. /offers/3/departure_date */
  path: string;
  reason: string;
}

export interface ImportContext {
  /** today's date (YYYY-MM-DD, UTC) for sections that check dates */
  today: string;
  /** read-only use in check(): records the document refers to may already be in the database */
  db: DbOrTx;
  /** apply() reports, per entity, how many records the document holds and how many rows it wrote */
  count(entity: string, counts: { total: number; inserted: number; updated: number }): void;
  /** apply() reports each updated record (entity, readable natural key) with its changed fields */
  changed(entity: string, key: string, changes: FieldChange[]): void;
}

export interface ImportSection {
  name: string;
  /** JSON Schema `properties` of the top-level keys this section owns (all optional at top level) */
  properties: Record<string, object>;
  /** problems JSON Schema cannot express (unknown references, duplicates); empty when fine */
  check(doc: Record<string, unknown>, ctx: ImportContext): ImportProblem[] | Promise<ImportProblem[]>;
  /**
   * Upserts the section's records on their natural keys. Earlier sections have been applied in
   * the same transaction, so their rows can be looked up by natural key.
   */
  apply(tx: Tx, doc: Record<string, unknown>, ctx: ImportContext): Promise<void>;
}
