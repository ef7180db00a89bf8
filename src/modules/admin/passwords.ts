// Admin passwords: argon2id (OWASP's minimum parameters, @node-rs/argon2's defaults: m=19 MiB,
// t=2, p=1), stored as the PHC string that carries its own parameters and salt.
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../platform/errors.js';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new AppError(422, 'invalid_password', `A password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`, {
      password: [`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`],
    });
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password); // the library's default algorithm is argon2id
}

export function isPasswordHash(value: string): boolean {
  return value.startsWith('$argon2id$');
}

// a hash of a random password: verified against when the e-mail is unknown, so a wrong e-mail
// takes as long as a wrong password
let dummy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummy ??= hashPassword(`dummy-${Math.random()}`);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
