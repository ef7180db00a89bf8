// The orchestration probes. /livez: the process answers (no I/O, so a slow database never gets a
// healthy process restarted). /readyz: this process can serve: the database answers and its
// migrations are current. Redis is reported but never counted: the only thing using it, the rate
// limiter, lets requests through when it is away. Disk, log level and NODE_ENV are /health's
// business, not a reason to take a node out of rotation.
import type { AppContext } from '../../context.js';
import { migrationFiles } from '../../db/migrate.js';
import { withDeadline } from './deadline.js';
import type { HealthMonitor } from './health.js';

export interface ReadinessCheck {
  ok: boolean;
  required: boolean;
  message?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, ReadinessCheck>;
}

const DEADLINE_MS = 2_000;

export class ReadinessProbe {
  /** migrations never go back: once current, this process need not ask again */
  private migrationsCurrent = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly monitor: HealthMonitor,
  ) {}

  async check(): Promise<Readiness> {
    const [database, migrations, redis] = await Promise.all([
      this.guard(true, async () => {
        await this.monitor.probes.database();
        return undefined;
      }),
      this.guard(true, () => this.pendingMigrations()),
      this.ctx.config.redisUrl
        ? this.guard(false, async () => {
            await this.monitor.probes.cache();
            return undefined;
          })
        : Promise.resolve({ ok: true, required: false, message: 'not configured (rate limits per process)' }),
    ]);
    const checks = { database, migrations, redis };
    return { ready: Object.values(checks).every((c) => c.ok || !c.required), checks };
  }

  private async pendingMigrations(): Promise<string | undefined> {
    if (this.migrationsCurrent) return undefined;
    const { rows } = await this.ctx.database.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.name));
    const pending = migrationFiles().filter((f) => !applied.has(f));
    if (pending.length) throw new Error(`${pending.length} migration(s) pending (run migrate): ${pending.join(', ')}`);
    this.migrationsCurrent = true;
    return undefined;
  }

  private async guard(required: boolean, check: () => Promise<string | undefined>): Promise<ReadinessCheck> {
    try {
      const message = await withDeadline(check(), DEADLINE_MS, 'check');
      return message ? { ok: true, required, message } : { ok: true, required };
    } catch (err) {
      this.ctx.log.warn({ err }, 'readiness check failed');
      return { ok: false, required, message: publicReason(err) };
    }
  }
}

/** pending migrations are named; other failures say only their error code (details in the log) */
function publicReason(err: unknown): string {
  const message = (err as Error).message ?? '';
  if (message.includes('migration(s) pending') || message.includes('timed out')) return message;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^[\w.-]{1,40}$/.test(code) ? `failed (${code})` : 'failed (see the log)';
}
