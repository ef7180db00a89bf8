import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPORT_SCHEMA_FILE, importSchemaJson } from './commands.js';

describe('docs/import-format.schema.json', () => {
  it('is the schema the importer validates with (regenerate: npm run cli -- import:schema)', () => {
    expect(readFileSync(IMPORT_SCHEMA_FILE, 'utf8')).toBe(importSchemaJson());
  });
});
