// Every process keeps rendered catalog and content in memory. An import bumps the catalog
// revision row in its transaction; each process compares that row with the revision it last saw
// (at most once a second of the app's clock, on the next read) and announces 'catalog:changed' on its own event bus
// when another process imported, so every cache of the process drops what it holds.
import type { AppContext } from '../../context.js';
import { readRevision } from './repository.js';

const REVISION_CHECK_MS = 1000;

export class CatalogRevision {
  private revision?: number;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking?: Promise<void>;

  constructor(private readonly ctx: Pick<AppContext, 'database' | 'events' | 'clock'>) {
    // caches were just dropped (an import here, or this watcher's own announcement): the next
    // check only takes note of the revision it reads
    ctx.events.on('catalog:changed', () => {
      this.revision = undefined;
      this.checkedAt = Number.NEGATIVE_INFINITY;
    });
  }

  /** Resolves once this process has seen the latest revision (announcing a change it finds). */
  async fresh(): Promise<void> {
    if (this.ctx.clock.now().getTime() - this.checkedAt < REVISION_CHECK_MS) return;
    this.checking ??= readRevision(this.ctx.database.db)
      .then((revision) => {
        const changed = this.revision !== undefined && revision !== this.revision;
        this.revision = revision;
        this.checkedAt = this.ctx.clock.now().getTime();
        if (changed) this.ctx.events.emit('catalog:changed');
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }
}

const watchers = new WeakMap<object, CatalogRevision>();

/** The process's (app's) one revision watcher, shared by the catalog and content caches. */
export function catalogRevision(ctx: Pick<AppContext, 'database' | 'events' | 'clock'>): CatalogRevision {
  let w = watchers.get(ctx.events);
  if (!w) {
    w = new CatalogRevision(ctx);
    watchers.set(ctx.events, w);
  }
  return w;
}
