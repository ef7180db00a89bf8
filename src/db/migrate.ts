// Applies src/db/migrations/*.sql in name order, each once, each in its own transaction.
// An advisory lock keeps two booting processes from applying the same file twice.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../platform/paths.js';
import type { Database } from './database.js';

const dir = projectPath('src', 'db', 'migrations');
const LOCK_KEY = 727_001;

export function migrationFiles(): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

export async function migrate(database: Database): Promise<string[]> {
  // session-level advisory locks need one connection throughout
  const client = database.pool ? await database.pool.connect() : undefined;
  const exec = async (sql: string) => {
    if (client) await client.query(sql);
    else await database.exec(sql);
  };
  const query = async <T>(sql: string, params: unknown[] = []) =>
    client ? ((await client.query(sql, params)).rows as T[]) : (await database.query<T>(sql, params)).rows;
  try {
    return await applyPending(exec, query);
  } finally {
    client?.release();
  }
}

async function applyPending(
  exec: (sql: string) => Promise<void>,
  query: <T>(sql: string, params?: unknown[]) => Promise<T[]>,
): Promise<string[]> {
  const applied: string[] = [];
  await query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of migrationFiles()) {
      if (done.has(file)) continue;
      const sql = readFileSync(join(dir, file), 'utf8');
      const name = file.replace(/'/g, "''");
      await exec(`BEGIN;\n${sql}\n;INSERT INTO schema_migrations (name) VALUES ('${name}');\nCOMMIT;`);
      applied.push(file);
    }
  } catch (err) {
    await exec('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  }
  return applied;
}
