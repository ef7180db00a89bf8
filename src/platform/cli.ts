// Operator commands: `tsx src/main.ts NAME [args]`. Each returns its exit code.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import type { Database } from '../db/database.js';

export interface CliContext {
  config: Config;
  /** migrated database */
  database: Database;
  log: FastifyBaseLogger;
  out: (line: string) => void;
  err: (line: string) => void;
  /** the running server's context, when the command was forwarded to it (embedded database) */
  app?: AppContext;
}

export interface Command {
  describe: string;
  usage: string;
  /** options written `--name VALUE` (not only `--name=VALUE`) */
  valued?: string[];
  /**
   * Runs in the operator's own process before the command runs or is forwarded to a running
   * embedded server: what only that process has (its stdin, its environment) goes into the argv.
   */
  prepare?(argv: string[], io: { err: (line: string) => void }): Promise<string[]>;
  run(args: ParsedArgs, cli: CliContext): Promise<number>;
}

export interface ParsedArgs {
  positional: string[];
  options: Record<string, string | true>;
}

/** `a --x=1 --y 2 --flag b` -> positional [a, b], options {x:'1', y:'2', flag:true} */
export function parseArgs(argv: string[], valued: string[] = []): ParsedArgs {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) options[a.slice(2, eq)] = a.slice(eq + 1);
      else if (valued.includes(a.slice(2)) && i + 1 < argv.length) options[a.slice(2)] = argv[++i];
      else options[a.slice(2)] = true;
    } else positional.push(a);
  }
  return { positional, options };
}
