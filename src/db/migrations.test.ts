// Guards against drift between src/db/schema and the committed SQL: every statement drizzle-kit
// would write to create the schema from nothing must be in a migration, and no migration may hold
// DDL the schema does not describe (data statements such as seed INSERTs are fine). When the first
// ALTER-style migration lands, compare against the schema as of each release instead.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import * as schema from './schema/index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const normalize = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/;$/, '');

describe('migrations', () => {
  it('create exactly the tables, columns, indexes and keys of src/db/schema', async () => {
    const wanted = (await generateMigration(generateDrizzleJson({}), generateDrizzleJson(schema))).map(normalize);
    const committed = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split(/;\s*\n/))
      .map(normalize)
      .filter((s) => s && !/^(INSERT|UPDATE|DELETE) /i.test(s));
    expect(wanted.filter((s) => !committed.includes(s))).toEqual([]);
    expect(committed.filter((s) => !wanted.includes(s))).toEqual([]);
  });
});
