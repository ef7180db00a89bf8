// The one way a console editor writes (the catalog editor, the content editor, Supply texts): an
// import document through runImport, as `npm run import` runs it inside the server (today from the
// clock, every cache dropped through the app's events), then one audit row of what changed. A
// refused document writes nothing and no audit row.
import type { AppContext } from '../../context.js';
import { type AdminActor, type AuditEntry, audit } from '../admin/service.js';
import { type ImportResult, type RecordChange, runImport } from './import.js';

type Ctx = Pick<AppContext, 'database' | 'clock' | 'events'>;

/** The import day of a console save (the app's clock, UTC). */
export const importDay = (ctx: Pick<AppContext, 'clock'>) => ctx.clock.now().toISOString().slice(0, 10);

/**
 * What every editor's audit row keeps of a save: each changed field with its old and new value
 * (JSON, shortened to 200 characters).
 */
export function auditChanges(changes: RecordChange[]) {
  const short = (x: unknown) => {
    const s = JSON.stringify(x) ?? 'null';
    return s.length > 200 ? `${s.slice(0, 197)}...` : s;
  };
  return changes.flatMap((c) =>
    c.changes.map((f) => ({ entity: c.entity, key: c.key, field: f.field, from: short(f.from), to: short(f.to) })),
  );
}

/** Imports `doc` as `actor`; once it is written, `entry` says what the audit row records. */
export async function importAndAudit(
  ctx: Ctx,
  actor: AdminActor,
  doc: Record<string, unknown>,
  entry: (changes: RecordChange[]) => AuditEntry | Promise<AuditEntry>,
): Promise<ImportResult> {
  const result = await runImport(ctx.database, doc, { today: importDay(ctx), events: ctx.events });
  if (result.ok) await audit(ctx, actor, await entry(result.changes));
  return result;
}
