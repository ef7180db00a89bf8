// One transaction on either database, as a statement runner (pg-boss enqueues through the same
// shape): the newsletter's subscribe path and the checkout session's writes commit once per request.
import type { Database } from './database.js';

/** A statement runner bound to one open transaction (also what the queue enqueues through). */
export interface Transaction {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/**
 * Runs `fn` in one transaction on either database. The subscribe path writes the row and its jobs
 * in one commit: one disk flush per request instead of one per statement.
 */
export async function inTransaction<T>(database: Database, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  if (database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn({ executeSql: (text, values) => client.query(text, values) });
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
  if (!database.pglite) throw new Error('database has neither a pool nor PGlite');
  return database.pglite.transaction((tx) => fn({ executeSql: (text, values) => tx.query(text, values) }));
}

/** Runs `fn` under a savepoint: its failure is undone alone and rethrown; the transaction goes on. */
export async function withSavepoint<T>(tx: Transaction, name: string, fn: () => Promise<T>): Promise<T> {
  await tx.executeSql(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    await tx.executeSql(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    await tx.executeSql(`ROLLBACK TO SAVEPOINT ${name}`);
    throw err;
  }
}
