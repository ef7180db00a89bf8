// Operator commands of the catalog: import, preview-url, import:schema.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from '../../platform/cli.js';
import { resolveRelativeDates } from './demo.js';
import { defaultSections, type ImportSummary, importDocumentSchema, type RecordChange, runImport } from './import.js';
import { previewUrlFor } from './preview.js';

export const IMPORT_SCHEMA_FILE = 'docs/import-format.schema.json';

export function importSchemaJson(): string {
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...importDocumentSchema(defaultSections) };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export function formatSummary(summary: ImportSummary): string[] {
  return Object.entries(summary).map(
    ([entity, c]) =>
      `  ${entity.padEnd(26)} ${String(c.total).padStart(6)} in file: ${c.inserted} new, ${c.updated} changed, ${c.total - c.inserted - c.updated} unchanged`,
  );
}

/** One line per changed field of an updated record: `entity key: field: old -> new`. */
export function formatChanges(changes: RecordChange[]): string[] {
  const show = (v: unknown) => {
    const text = JSON.stringify(v) ?? 'null';
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  return changes.flatMap((r) =>
    r.changes.map((c) => `  ${r.entity} ${r.key}: ${c.field}: ${show(c.from)} -> ${show(c.to)}`),
  );
}

export const commands: Record<string, Command> = {
  import: {
    describe:
      'import a catalog document (all or nothing; a record updates only the fields it names); --dry-run shows what would change',
    usage: 'import FILE.json [--dry-run]',
    options: { 'dry-run': { type: 'boolean', describe: 'check the file and show what would change; write nothing' } },
    async run(args, cli) {
      const file = args.positional[0];
      const dryRun = args.options['dry-run'] === true;
      if (!file || args.positional.length > 1) {
        cli.err('usage: npm run import -- FILE.json [--dry-run]');
        return 2;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        cli.err(`cannot read ${file}: ${(err as Error).message}`);
        return 1;
      }
      // dates may be written relative to the day of import, as the demo files are ("today+30")
      const today = new Date().toISOString().slice(0, 10);
      const result = await runImport(cli.database, resolveRelativeDates(doc, today), {
        sections: defaultSections,
        today,
        dryRun,
        // run inside the server (embedded database): its caches drop at once; other processes
        // notice the catalog revision on their next read
        events: cli.app?.events,
      });
      if (!result.ok) {
        cli.err(`${file}: ${result.problems.length} problem(s), nothing was imported:`);
        for (const p of result.problems) cli.err(`  ${p.path}: ${p.reason}`);
        return 1;
      }
      cli.out(dryRun ? `${file}: dry run, nothing was written` : `${file}: imported`);
      for (const line of formatSummary(result.summary)) cli.out(line);
      if (dryRun && result.changes.length) {
        cli.out('changes:');
        for (const line of formatChanges(result.changes)) cli.out(line);
      }
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
