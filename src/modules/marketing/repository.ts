// Cached ActiveCampaign ids of tags and custom fields, shared by every process through the database.
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { marketingRemoteIds } from '../../db/schema/index.js';

export type RemoteKind = 'tag' | 'field';

export class RemoteIdCache {
  constructor(
    private readonly db: Db,
    readonly account: string,
  ) {}

  /** The cached id when it was resolved after `freshAfter`. */
  async get(kind: RemoteKind, name: string, freshAfter: Date): Promise<string | null> {
    const rows = await this.db
      .select({ id: marketingRemoteIds.remoteId })
      .from(marketingRemoteIds)
      .where(
        and(
          eq(marketingRemoteIds.account, this.account),
          eq(marketingRemoteIds.kind, kind),
          eq(marketingRemoteIds.name, name),
          gt(marketingRemoteIds.resolvedAt, freshAfter),
        ),
      );
    return rows[0]?.id ?? null;
  }

  async put(kind: RemoteKind, name: string, remoteId: string, at: Date): Promise<void> {
    await this.db
      .insert(marketingRemoteIds)
      .values({ account: this.account, kind, name, remoteId, resolvedAt: at })
      .onConflictDoUpdate({
        target: [marketingRemoteIds.account, marketingRemoteIds.kind, marketingRemoteIds.name],
        set: { remoteId, resolvedAt: at },
      });
  }

  /** Forgets a cached id the account no longer has (a marketer deleted the tag or field). */
  async drop(kind: RemoteKind, name: string, remoteId: string): Promise<void> {
    await this.db
      .delete(marketingRemoteIds)
      .where(
        and(
          eq(marketingRemoteIds.account, this.account),
          eq(marketingRemoteIds.kind, kind),
          eq(marketingRemoteIds.name, name),
          eq(marketingRemoteIds.remoteId, remoteId),
        ),
      );
  }
}
