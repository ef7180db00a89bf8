// Operator commands of the console: the first admin user (and any other) from the shell.
import type { Command } from '../../platform/cli.js';
import { systemClock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { checkPasswordRules, hashPassword, isPasswordHash } from './passwords.js';
import { createAdminUser } from './service.js';

/** Reads all of stdin (the password piped in or typed), without its final line break. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (input is shown; prefer a pipe or ADMIN_PASSWORD): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (process.stdin.isTTY && String(chunk).includes('\n')) break;
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export const commands: Record<string, Command> = {
  'admin:create': {
    describe: 'create a console admin user; the password comes from ADMIN_PASSWORD or stdin (never a default)',
    usage: 'admin:create --email E --name N --role super_admin   (password: ADMIN_PASSWORD=... or on stdin)',
    options: {
      email: { type: 'string', describe: 'the e-mail the user signs in with' },
      name: { type: 'string', describe: 'the name shown in the console' },
      role: { type: 'string', describe: 'role(s), comma-separated, e.g. super_admin' },
      'password-hash': { type: 'string', describe: 'an argon2id hash instead of ADMIN_PASSWORD or stdin' },
    },
    // the password is read and hashed here, in the operator's process: a running embedded server
    // gets only the argon2id hash
    async prepare(argv) {
      if (argv.some((a) => a.startsWith('--password-hash'))) return argv;
      const password = process.env.ADMIN_PASSWORD ?? (await readStdin());
      try {
        checkPasswordRules(password);
      } catch (e) {
        throw new Error(e instanceof AppError ? e.message : String(e));
      }
      return [...argv, `--password-hash=${await hashPassword(password)}`];
    },
    async run(args, cli) {
      const { email, name, role } = args.options;
      const hash = args.options['password-hash'];
      if (typeof email !== 'string' || typeof name !== 'string' || typeof role !== 'string') {
        cli.err('usage: admin:create --email E --name N --role super_admin   (password: ADMIN_PASSWORD or stdin)');
        return 2;
      }
      if (typeof hash !== 'string' || !isPasswordHash(hash)) {
        cli.err('no password given: set ADMIN_PASSWORD or pipe it on stdin');
        return 2;
      }
      const ctx = cli.app ?? { database: cli.database, clock: systemClock };
      try {
        const user = await createAdminUser(ctx, { email, name, passwordHash: hash, roles: role.split(',') });
        cli.out(`admin user ${user.id} <${user.email}> created with role ${role}`);
        return 0;
      } catch (e) {
        if (e instanceof AppError) {
          cli.err(e.message);
          return 1;
        }
        throw e;
      }
    },
  },
};
