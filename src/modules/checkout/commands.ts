// Operator commands of the checkout: API tokens for internal endpoints, expired-session cleanup.
import type { Command } from '../../platform/cli.js';
import { createApiToken } from './service.js';
import { DbSessionStore } from './session-store.js';

const ABILITY = /^[a-z*][a-z0-9_*:-]{0,49}$/;

export const commands: Record<string, Command> = {
  'token:create': {
    describe: 'create an API token (printed once; only its hash is stored)',
    usage: 'token:create NAME --ability internal:read [--ability ...]',
    options: { ability: { type: 'string', multiple: true, describe: 'what the token may do (comma-separated too)' } },
    async run(args, cli) {
      const [name, ...rest] = args.positional;
      const given = args.options.ability;
      const abilities = (Array.isArray(given) ? given : [])
        .flatMap((a) => a.split(','))
        .map((a) => a.trim())
        .filter(Boolean);
      if (!name || name.length > 100 || rest.length) {
        cli.err('usage: token:create NAME --ability internal:read');
        return 2;
      }
      if (abilities.length === 0 || abilities.some((a) => !ABILITY.test(a))) {
        cli.err('give at least one --ability, e.g. --ability internal:read');
        return 2;
      }
      const { id, token } = await createApiToken(cli.database.db, name, [...new Set(abilities)]);
      cli.out(token);
      cli.err(`token ${id} "${name}" created with abilities ${abilities.join(', ')}; it is shown only once.`);
      return 0;
    },
  },
  'checkout:prune-sessions': {
    describe: 'delete expired checkout sessions (database store)',
    usage: 'checkout:prune-sessions',
    async run(_args, cli) {
      const removed = await new DbSessionStore(cli.database).prune(new Date());
      cli.out(`removed ${removed} expired checkout session(s)`);
      return 0;
    },
  },
};
