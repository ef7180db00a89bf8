// API tokens (the internal checkout API's bearer tokens, managed from the admin console): only
// their sha256 is stored; the token itself is shown once, at creation.
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import * as repo from './repository.js';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** API tokens, newest first (hashes never leave the repository). */
export function listApiTokens(db: AppContext['database']['db']) {
  return repo.listTokens(db);
}

/** Revokes a token: it stops authenticating at once. false when unknown or already revoked. */
export function revokeApiToken(db: AppContext['database']['db'], id: number, at: Date): Promise<boolean> {
  return repo.revokeToken(db, id, at);
}

/** Creates an API token; only its sha256 is stored, the token itself is returned once. */
export async function createApiToken(
  db: AppContext['database']['db'],
  name: string,
  abilities: string[],
): Promise<{ id: number; token: string }> {
  const token = `itn_${randomBytes(30).toString('base64url')}`;
  const id = await repo.insertToken(db, name, sha256(token), abilities);
  return { id, token };
}
