// A fresh, migrated database for one test file: PGlite by default, PostgreSQL when DATABASE_URL is set.
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { connectPostgres, type Database, PGLITE_CONF, type PostgresLimits, wrapPglite } from '../../src/db/database.js';
import { withDatabase } from '../global-setup.js';
import { testDatabaseName } from './postgres.js';

/** A new PostgreSQL database copied from the migrated template: its URL, and how to drop it. */
export async function copyTemplateDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = testDatabaseName('file');
  const admin = connectPostgres(url, 1);
  await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  await admin.close();
  return {
    url: withDatabase(url, name),
    async drop() {
      const a = connectPostgres(url, 1);
      await a.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await a.close();
    },
  };
}

/**
 * opts (PostgreSQL only): `via` rewrites the database URL the app connects with (a fault proxy in
 * front of the server), `limits` sets the pool's deadlines as openDatabase does from the config.
 */
export async function createTestDatabase(
  opts: { via?: (url: string) => string; limits?: PostgresLimits } = {},
): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const copy = await copyTemplateDatabase(url);
    const database = connectPostgres(opts.via ? opts.via(copy.url) : copy.url, 5, opts.limits);
    const close = database.close;
    database.close = async () => {
      await close();
      await copy.drop();
    };
    return database;
  }
  const dump = readFileSync(inject('pgliteDump'));
  const pglite = await PGlite.create({ loadDataDir: new Blob([dump]), postgresqlconf: PGLITE_CONF });
  return await wrapPglite(pglite);
}
