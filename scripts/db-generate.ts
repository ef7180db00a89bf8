// Writes the first migration of a schema module with drizzle-kit: the difference between the
// schema without that module and the schema with it. Later changes to a module's tables get a
// new, reviewed migration file of their own (see docs/decisions.md, migrations).
// Usage: npm run db:generate -- MODULE NUMBER   e.g. npm run db:generate -- content 0200
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import * as schema from '../src/db/schema/index.js';

const [module, number] = process.argv.slice(2);
if (!module || !/^\d{4}$/.test(number ?? '')) {
  console.error('usage: npm run db:generate -- MODULE NUMBER   (MODULE: a file of src/db/schema; NUMBER: 4 digits)');
  process.exit(2);
}
const own = await import(`../src/db/schema/${module}.js`);
const others = Object.fromEntries(Object.entries(schema).filter(([key]) => !(key in own)));
const statements = await generateMigration(generateDrizzleJson(others), generateDrizzleJson(schema));
const file = join('src/db/migrations', `${number}_${module}.sql`);
writeFileSync(file, `${statements.map((s) => s.trim().replace(/;?$/, ';')).join('\n\n')}\n`);
console.log(`wrote ${file} (${statements.length} statements)`);
