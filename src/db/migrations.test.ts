// Guards against drift between src/db/schema and the committed SQL. Two empty databases are built:
// one from the statements drizzle-kit would write to create the schema from nothing, one by
// running the committed migrations in order (CREATE and ALTER alike). Their catalogs (tables,
// columns with types, nullability and defaults, indexes, constraints) must be the same.
import { PGlite } from '@electric-sql/pglite';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { wrapPglite } from './database.js';
import { migrate } from './migrate.js';
import * as schema from './schema/index.js';

const CATALOG = `
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type
         || coalesce('(' || character_maximum_length || ')', '')
         || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END
         || coalesce(' default ' || column_default, '') AS item
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes
   WHERE schemaname = 'public' AND tablename <> 'schema_migrations'
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
   WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'schema_migrations'
  ORDER BY 1`;

async function catalogOf(build: (db: Awaited<ReturnType<typeof wrapPglite>>) => Promise<unknown>): Promise<string[]> {
  const db = await wrapPglite(await PGlite.create());
  try {
    await build(db);
    return (await db.query<{ item: string }>(CATALOG)).rows.map((r) => r.item);
  } finally {
    await db.close();
  }
}

describe('migrations', () => {
  it('build exactly the tables, columns, indexes and keys of src/db/schema', async () => {
    const statements = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(schema));
    const wanted = await catalogOf(async (db) => {
      for (const s of statements) await db.exec(s);
    });
    const migrated = await catalogOf((db) => migrate(db));
    expect(migrated.filter((s) => !wanted.includes(s))).toEqual([]);
    expect(wanted.filter((s) => !migrated.includes(s))).toEqual([]);
  }, 120_000);
});
