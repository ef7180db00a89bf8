// Operator commands of the catalog: import, preview-url, import:schema.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from '../../platform/cli.js';
import { defaultSections, type ImportSummary, importDocumentSchema, runImport } from './import.js';
import { previewUrlFor } from './preview.js';

export const IMPORT_SCHEMA_FILE = 'docs/import-format.schema.json';

export function importSchemaJson(): string {
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...importDocumentSchema(defaultSections) };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export function formatSummary(summary: ImportSummary): string[] {
  return Object.entries(summary).map(
    ([entity, c]) =>
      `  ${entity.padEnd(26)} ${String(c.total).padStart(6)} in file, ${c.inserted} new, ${c.updated} changed`,
  );
}

export const commands: Record<string, Command> = {
  import: {
    describe: 'import a catalog document (all or nothing); lists every problem when it is invalid',
    usage: 'import FILE.json',
    async run(args, cli) {
      const file = args.positional[0];
      if (!file) {
        cli.err('usage: npm run import -- FILE.json');
        return 2;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        cli.err(`cannot read ${file}: ${(err as Error).message}`);
        return 1;
      }
      const result = await runImport(cli.database, doc, { sections: defaultSections });
      if (!result.ok) {
        cli.err(`${file}: ${result.problems.length} problem(s), nothing was imported:`);
        for (const p of result.problems) cli.err(`  ${p.path}: ${p.reason}`);
        return 1;
      }
      cli.out(`${file}: imported`);
      for (const line of formatSummary(result.summary)) cli.out(line);
      return 0;
    },
  },
  'preview-url': {
    describe: 'print a signed preview URL of a market product (valid PREVIEW_URL_TTL_MINUTES)',
    usage: 'preview-url PRODUCT_ID',
    async run(args, cli) {
      const id = Number(args.positional[0]);
      if (!Number.isInteger(id) || id <= 0) {
        cli.err('usage: npm run preview-url -- PRODUCT_ID');
        return 2;
      }
      const url = await previewUrlFor(cli.database, cli.config, id, new Date());
      if (!url) {
        cli.err(`market product ${id} not found`);
        return 1;
      }
      cli.out(url);
      return 0;
    },
  },
  'import:schema': {
    describe: `write the import document's JSON Schema to ${IMPORT_SCHEMA_FILE}`,
    usage: 'import:schema',
    async run(_args, cli) {
      writeFileSync(IMPORT_SCHEMA_FILE, importSchemaJson());
      cli.out(`wrote ${IMPORT_SCHEMA_FILE}`);
      return 0;
    },
  },
};
