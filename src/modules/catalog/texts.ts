// SQL of the supply's translated texts. Each text is picked inside the query that reads its base
// row (a correlated lookup on the translation table's primary key), so translating adds no query:
// the first of the languages (textLanguages) whose translation names the field, else the base row.
import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  activities,
  activityTranslations,
  airports,
  airportTranslations,
  hotels,
  hotelTranslations,
  transfers,
  transferTranslations,
} from '../../db/schema/index.js';

interface Source {
  /** the translation table */
  table: PgTable;
  /** its column naming the base row */
  parent: PgColumn;
  /** the base row's key the translation points at */
  key: PgColumn;
}

const SOURCES = {
  activity: { table: activityTranslations, parent: activityTranslations.activityId, key: activities.id },
  hotel: { table: hotelTranslations, parent: hotelTranslations.hotelId, key: hotels.id },
  transfer: { table: transferTranslations, parent: transferTranslations.transferId, key: transfers.id },
  airport: { table: airportTranslations, parent: airportTranslations.iataCode, key: airports.iataCode },
} satisfies Record<string, Source>;

/**
 * `base`'s text in the first of `languages` that has it, else `base` itself. `base` must be a
 * column of the row the kind's key belongs to (activities.name, hotels.description, ...).
 */
export function textIn<C extends Column>(
  kind: keyof typeof SOURCES,
  base: C,
  languages: string[],
): SQL<C['_']['data'] | (C['_']['notNull'] extends true ? never : null)> {
  const s: Source = SOURCES[kind];
  const field = sql.identifier(base.name);
  const list = sql`ARRAY[${sql.join(
    languages.map((l) => sql`${l}`),
    sql`, `,
  )}]::text[]`;
  // the base row's key qualified by its table: unqualified, airports' "iata_code" would name the
  // translation row's own column, and every airport would take the first translation's text
  const key = sql`${sql.identifier(getTableName(s.key.table))}.${sql.identifier(s.key.name)}`;
  return sql`COALESCE((SELECT tr.${field} FROM ${sql.identifier(getTableName(s.table))} tr
     WHERE tr.${sql.identifier(s.parent.name)} = ${key} AND tr.language = ANY(${list}) AND tr.${field} IS NOT NULL
     ORDER BY array_position(${list}, tr.language) LIMIT 1), ${base})`.mapWith(base) as SQL<
    C['_']['data'] | (C['_']['notNull'] extends true ? never : null)
  >;
}
