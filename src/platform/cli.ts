// Operator commands: `tsx src/main.ts NAME [args]`. Each returns its exit code.
// A command is one object: what it does, its usage line, the options it takes and run(). The
// command line is read by node:util.parseArgs in strict mode: an undeclared option is refused with
// exit 2, and `--help` prints the usage and exits 0 before anything is opened or changed.
import { parseArgs as parseArgv } from 'node:util';
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
  /** the migration files this process applied when it opened the database (none: it was current) */
  migrationsApplied?: string[];
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** may be given more than once (the value is then a list) */
  multiple?: boolean;
  /** one line for --help */
  describe?: string;
}

export interface Command {
  describe: string;
  /** `name ARG [--option=VALUE]`: the first line of --help */
  usage: string;
  /** the options it takes (without the leading --); any other is refused */
  options?: Record<string, OptionSpec>;
  /** also take undeclared `--name=value` options (the task command hands them to the task) */
  extraOptions?: boolean;
  /**
   * Runs in the operator's own process before the command runs or is forwarded to a running
   * embedded server: what only that process has (its stdin, its environment) goes into the argv.
   */
  prepare?(argv: string[], io: { err: (line: string) => void }): Promise<string[]>;
  run(args: ParsedArgs, cli: CliContext): Promise<number>;
}

export interface ParsedArgs {
  positional: string[];
  options: Record<string, string | true | string[]>;
}

export class UsageError extends Error {}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** true when the arguments ask for help (`--help`/`-h` anywhere before a `--`) */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/** Reads a command's arguments; throws UsageError on an undeclared option or a missing value. */
export function parseArgs(command: Pick<Command, 'options' | 'extraOptions'>, argv: string[]): ParsedArgs {
  const declared = { ...(command.options ?? {}), ...HELP };
  let parsed: ReturnType<typeof parseArgv>;
  try {
    // strict: an undeclared option, or a string option without its value, is an error; with
    // extraOptions the undeclared ones are kept (`--x=v` as 'v', `--x` as true)
    parsed = parseArgv({ args: argv, options: declared, strict: !command.extraOptions, allowPositionals: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const options: ParsedArgs['options'] = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    if (name === 'help' || value === undefined || value === false) continue;
    options[name] = Array.isArray(value) ? value.map(String) : value === true ? true : String(value);
  }
  return { positional: parsed.positionals, options };
}

/** the --help text of one command */
export function commandHelp(name: string, command: Command): string {
  const lines = [`usage: npm run cli -- ${command.usage}`, '', command.describe];
  lines.push('', 'options:');
  for (const [option, spec] of Object.entries(command.options ?? {})) {
    const flag = spec.type === 'string' ? `--${option}=VALUE` : `--${option}`;
    lines.push(`  ${flag.padEnd(30)} ${spec.describe ?? ''}${spec.multiple ? ' (repeatable)' : ''}`.trimEnd());
  }
  lines.push(`  ${'--help'.padEnd(30)} print this help and exit`);
  if (command.extraOptions) lines.push('', `other --name=value options are handed to what ${name} runs`);
  return lines.join('\n');
}

/** the list of commands (`npm run cli -- --help`) */
export function commandList(all: Record<string, Command>): string {
  const lines = Object.entries(all).map(([name, c]) => `  ${name.padEnd(28)} ${c.describe}`);
  return [
    'usage: npm run cli -- COMMAND [options]',
    '',
    'commands:',
    ...lines,
    '',
    'npm run cli -- COMMAND --help prints the options of one command.',
  ].join('\n');
}
