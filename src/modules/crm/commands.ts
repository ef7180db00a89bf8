// Operator commands of the CRM mirror. Exit codes: 0 done, 1 could not do it (CRM unconfigured or
// unreachable), 2 bad usage. An Ignored record is never re-dispatched or changed by any of them.
import type { CliContext, Command, OptionSpec, ParsedArgs } from '../../platform/cli.js';
import { AppError } from '../../platform/errors.js';
import type { Queue } from '../../platform/queue.js';
import { PgBossQueue } from '../../platform/queue-pgboss.js';
import { leadIdsAfter } from '../leads/api.js';
import { type Subscriber, setCrmPersonId, subscriberIdsAfter, subscribersAfter } from '../newsletter/api.js';
import { dispatcher, dispatchRecords } from './monitor.js';
import { CrmError, type CrmPerson } from './pipedrive.js';
import {
  countByStatus,
  ensureRecord,
  findRecord,
  latestRecords,
  type SyncRecord,
  unsyncedAmong,
} from './repository.js';
import { CRM_SYNC_STATUSES, type RetryScope, statusesFor } from './rules.js';
import {
  applyEvent,
  type CrmDeps,
  crmConfigured,
  pipedriveFor,
  reactivateSyncRecord,
  retrySyncRecord,
} from './service.js';

type SyncModel = 'newsletter_subscriber' | 'lead';
const MODELS: SyncModel[] = ['newsletter_subscriber', 'lead'];
const BATCH = 500;

export interface QueueHandle {
  queue: Queue;
  close(): Promise<void>;
}

/** A queue for dispatching only (no workers in the command's process). */
async function openDispatchQueue(cli: CliContext): Promise<QueueHandle> {
  const queue = new PgBossQueue({ database: cli.database, log: cli.log });
  await queue.start({ workers: false });
  return { queue, close: () => queue.stop() };
}

const MODEL_OPTION: OptionSpec = { type: 'string', describe: 'newsletter_subscriber or lead' };

function usageError(cli: CliContext, command: Command, problem: string): number {
  cli.err(`${problem}\nusage: ${command.usage}`);
  return 2;
}

function modelOf(args: ParsedArgs): SyncModel | null {
  const m = args.options.model;
  return typeof m === 'string' && (MODELS as string[]).includes(m) ? (m as SyncModel) : null;
}

function depsOf(cli: CliContext, extra: Partial<CrmDeps>): CrmDeps {
  return { config: cli.config, database: cli.database, log: cli.log, ...extra };
}

function requireToken(cli: CliContext): boolean {
  if (crmConfigured(cli.config)) return true;
  cli.err('CRM_API_TOKEN is not set: the CRM mirror is off, nothing dispatched.');
  return false;
}

export interface CrmCommandOptions {
  openQueue?: (cli: CliContext) => Promise<QueueHandle>;
  /** CRM dependencies beyond the CLI's (tests: clock, time-out, field cache) */
  deps?: Partial<CrmDeps>;
  /** longest wait after a 429 during reconcile, in seconds */
  maxRateLimitWait?: number;
}

/** Spec 3: `--force` is refused (downgraded) for subscribers and leads; say so rather than ignore it. */
function refuseForce(args: { options: Record<string, unknown> }, cli: { out(line: string): void }, model: string) {
  if (args.options.force === undefined) return;
  cli.out(
    `--force is refused for ${model}: synced rows are not sent again (the CRM's data and the original ` +
      'consent are kept). Continuing without --force.',
  );
}

export function crmCommands(opts: CrmCommandOptions = {}): Record<string, Command> {
  const openQueue = opts.openQueue ?? openDispatchQueue;

  const retryFailed: Command = {
    describe: 'dispatch the CRM job again for Failed (default), Pending or all rows of a model; never Ignored',
    usage: 'crm:retry-failed --model=newsletter_subscriber|lead [--status=failed|pending|all]',
    options: {
      model: MODEL_OPTION,
      status: { type: 'string', describe: 'failed (default), pending or all' },
      force: { type: 'boolean', describe: 'refused with a notice: synced rows are never sent again' },
    },
    async run(args, cli) {
      const model = modelOf(args);
      if (!model) return usageError(cli, retryFailed, '--model must be newsletter_subscriber or lead');
      const status = args.options.status ?? 'failed';
      if (status !== 'failed' && status !== 'pending' && status !== 'all') {
        return usageError(cli, retryFailed, '--status must be failed, pending or all');
      }
      refuseForce(args, cli, model);
      if (!requireToken(cli)) return 1;
      const statuses = statusesFor(status as RetryScope);
      const handle = await openQueue(cli);
      try {
        const { queued, already } = await dispatchRecords(depsOf(cli, opts.deps ?? {}), handle.queue, model, statuses);
        cli.out(`crm:retry-failed ${model} (${statuses.join(', ')}): ${queued} dispatched, ${already} already queued.`);
        return 0;
      } finally {
        await handle.close();
      }
    },
  };

  const syncAll: Command = {
    describe: 'dispatch the CRM job for every row of a model that is neither Synced nor Ignored',
    usage: 'crm:sync-all --model=newsletter_subscriber|lead',
    options: {
      model: MODEL_OPTION,
      force: { type: 'boolean', describe: 'refused with a notice: synced rows are never sent again' },
    },
    async run(args, cli) {
      const model = modelOf(args);
      if (!model) return usageError(cli, syncAll, '--model must be newsletter_subscriber or lead');
      refuseForce(args, cli, model);
      if (!requireToken(cli)) return 1;
      const handle = await openQueue(cli);
      try {
        const dispatch = dispatcher(model, depsOf(cli, opts.deps ?? {}), handle.queue);
        let queued = 0;
        let already = 0;
        let after = 0;
        // the model's ids page by page from its module; the sync records say which still need a push
        const idsAfter = model === 'lead' ? leadIdsAfter : subscriberIdsAfter;
        for (;;) {
          const page = await idsAfter(cli.database.db, after, BATCH);
          if (!page.length) break;
          for (const id of await unsyncedAmong(cli.database.db, model, page)) {
            if ((await dispatch(id)) === null) already++;
            else queued++;
          }
          after = page[page.length - 1];
        }
        const counts = await countByStatus(cli.database.db, model);
        cli.out(
          `crm:sync-all ${model}: ${queued} dispatched, ${already} already queued; ` +
            `skipped ${counts.Synced ?? 0} Synced and ${counts.Ignored ?? 0} Ignored.`,
        );
        return 0;
      } finally {
        await handle.close();
      }
    },
  };

  const reconcile: Command = {
    describe: 'compare newsletter subscribers with the CRM: link persons found by email, mark missing ones Pending',
    usage: 'crm:reconcile [--model=newsletter_subscriber]',
    options: { model: MODEL_OPTION },
    async run(args, cli) {
      const m = args.options.model ?? 'newsletter_subscriber';
      if (m !== 'newsletter_subscriber') {
        return usageError(cli, reconcile, 'reconcile compares newsletter subscribers only (leads are create-only)');
      }
      if (!requireToken(cli)) return 1;
      const deps = depsOf(cli, opts.deps ?? {});
      const client = pipedriveFor(deps);
      const maxWait = opts.maxRateLimitWait ?? 60;
      const tally = { ok: 0, linked: 0, missing: 0, deleted: 0, ignored: 0 };

      // a 429 waits for Retry-After (bounded) and tries the same row again
      const withRetry = async <T>(call: () => Promise<T>): Promise<T> => {
        for (let waits = 0; ; waits++) {
          try {
            return await call();
          } catch (err) {
            if (!(err instanceof CrmError) || err.kind !== 'rate_limited' || waits >= 5) throw err;
            const seconds = Math.min(err.retryAfter ?? 10, maxWait);
            cli.out(`rate limited by the CRM, waiting ${seconds} s`);
            await new Promise((r) => setTimeout(r, seconds * 1000));
          }
        }
      };

      const check = async (sub: Subscriber) => {
        const existing = await findRecord(cli.database.db, 'newsletter_subscriber', sub.id);
        if (existing?.status === 'Ignored') {
          tally.ignored++;
          return;
        }
        const record = existing ?? (await ensureRecord(cli.database.db, 'newsletter_subscriber', sub.id));
        const linkedId = record.remoteId ? Number(record.remoteId) : sub.crmPersonId;
        if (linkedId) {
          try {
            await withRetry(() => client.getPerson(linkedId));
            tally.ok++;
          } catch (err) {
            if (!(err instanceof CrmError) || err.kind !== 'deleted') throw err;
            await applyEvent(deps, record, { type: 'deleted', reason: err.message });
            tally.deleted++;
            cli.out(`subscriber ${sub.id}: CRM person ${linkedId} is deleted -> Ignored`);
          }
          return;
        }
        const person: CrmPerson | null = await withRetry(() => client.findPersonByEmail(sub.email));
        if (person) {
          await setCrmPersonId(cli.database.db, sub.id, person.id, new Date());
          await applyEvent(deps, record, { type: 'linked', remoteId: String(person.id) });
          tally.linked++;
          cli.out(`subscriber ${sub.id}: linked to CRM person ${person.id} found by email (${record.status})`);
        } else {
          tally.missing++;
          cli.out(`subscriber ${sub.id}: not in the CRM (${record.status}${existing ? '' : ', record created'})`);
        }
      };

      try {
        let after = 0;
        for (;;) {
          const subs = await subscribersAfter(cli.database.db, after, BATCH);
          if (!subs.length) break;
          for (const sub of subs) await check(sub);
          after = subs[subs.length - 1].id;
        }
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        cli.err(`crm:reconcile stopped: ${message}`);
        return 1;
      }
      cli.out(
        `crm:reconcile newsletter_subscriber: ${tally.ok} in sync, ${tally.linked} linked by email, ` +
          `${tally.missing} missing from the CRM, ${tally.deleted} deleted in the CRM (now Ignored), ` +
          `${tally.ignored} Ignored left alone.`,
      );
      if (tally.linked + tally.missing > 0) {
        cli.out('Run crm:sync-all --model=newsletter_subscriber to deliver the rows that are not Synced.');
      }
      return 0;
    },
  };

  // The monitor: the sync records of a model, and its two actions on one record (spec: Retry moves
  // Failed to Pending, reset only, and a command re-dispatches; Reactivate moves Ignored to Pending).
  const statusNames = CRM_SYNC_STATUSES.map((x) => x.toLowerCase()).join('|');
  const records: Command = {
    describe: 'list the CRM sync records of a model (id, row, status, attempts, last error), latest change first',
    usage: `crm:records --model=newsletter_subscriber|lead [--status=${statusNames}|all] [--limit=100]`,
    options: {
      model: MODEL_OPTION,
      status: { type: 'string', describe: `${statusNames} or all (default)` },
      limit: { type: 'string', describe: 'at most this many rows (default 100)' },
    },
    async run(args, cli) {
      const model = modelOf(args);
      if (!model) return usageError(cli, records, '--model must be newsletter_subscriber or lead');
      const wanted = String(args.options.status ?? 'all').toLowerCase();
      const statuses =
        wanted === 'all' ? CRM_SYNC_STATUSES : CRM_SYNC_STATUSES.filter((x) => x.toLowerCase() === wanted);
      if (!statuses.length) return usageError(cli, records, `--status must be ${statusNames} or all`);
      const limit = args.options.limit === undefined ? 100 : Number(args.options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        return usageError(cli, records, '--limit must be a whole number from 1 to 10000');
      }
      const rows = await latestRecords(cli.database.db, model, statuses, limit);
      for (const r of rows) cli.out(recordLine(r));
      cli.out(`${rows.length} record(s) of ${model} (${statuses.join(', ')}).`);
      return 0;
    },
  };

  const monitorAction = (
    name: string,
    describe: string,
    action: (deps: CrmDeps, id: number) => Promise<SyncRecord>,
  ): Command => {
    const command: Command = {
      describe,
      usage: `${name} RECORD_ID`,
      async run(args, cli) {
        const id = Number(args.positional[0]);
        if (!Number.isInteger(id) || id <= 0) return usageError(cli, command, 'RECORD_ID must be a sync record id');
        try {
          const saved = await action(depsOf(cli, opts.deps ?? {}), id);
          cli.out(recordLine(saved));
          // both actions only reset: the record waits for a command to dispatch it
          cli.out(`Pending now; crm:retry-failed --model=${saved.modelType} --status=pending dispatches it.`);
          return 0;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          cli.err(err.message);
          return 1;
        }
      },
    };
    return command;
  };

  return {
    'crm:retry-failed': retryFailed,
    'crm:sync-all': syncAll,
    'crm:reconcile': reconcile,
    'crm:records': records,
    'crm:retry-record': monitorAction(
      'crm:retry-record',
      'monitor action Retry: a Failed sync record back to Pending with its attempts reset (nothing dispatched)',
      retrySyncRecord,
    ),
    'crm:reactivate-record': monitorAction(
      'crm:reactivate-record',
      'monitor action Reactivate: an Ignored sync record back to Pending (Ignored again if the CRM still has it deleted)',
      reactivateSyncRecord,
    ),
  };
}

function recordLine(r: SyncRecord): string {
  const error = r.lastError ? ` error: ${r.lastError}` : '';
  return `#${r.id} ${r.modelType} ${r.modelId} ${r.status} attempts=${r.attempts} updated=${r.updatedAt.toISOString()}${error}`;
}

export const commands: Record<string, Command> = crmCommands();
