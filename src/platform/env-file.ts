// `.env` in the working directory, when there is one, fills in the settings the environment does
// not give (Node's own reader: variables already set keep their value).
import { existsSync } from 'node:fs';

/** Loads `path` into process.env when it exists; returns whether it did. */
export function loadEnvFileIfPresent(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}
