// One place to start anything: serve | worker | migrate | <operator commands>.
import { existsSync, unlinkSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { pino } from 'pino';
import { type App, buildApp } from './app.js';
import { loadConfig, placeholderSettings } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { commands as adminCommands } from './modules/admin/commands.js';
import { createDemoAdminOnFirstStart } from './modules/admin/demo.js';
import { commands as catalogCommands } from './modules/catalog/commands.js';
import { loadDemoOnFirstStart } from './modules/catalog/demo.js';
import { commands as checkoutCommands } from './modules/checkout/commands.js';
import { commands as contentCommands } from './modules/content/commands.js';
import { commands as crmCommands } from './modules/crm/commands.js';
import { commands as marketingCommands } from './modules/marketing/commands.js';
import { alertChannelWarning } from './modules/ops/rules.js';
import {
  type CliContext,
  type Command,
  commandHelp,
  commandList,
  parseArgs,
  UsageError,
  wantsHelp,
} from './platform/cli.js';
import { loadEnvFileIfPresent } from './platform/env-file.js';
import {
  assertPortFree,
  describeBootFailure,
  lockDataDir,
  stopOnSignals,
  waitForPostgres,
  waitForRedis,
} from './platform/lifecycle.js';
import { prettyLogStream } from './platform/log-format.js';
import { forward, operatorSocketPath, serveOperatorChannel } from './platform/operator-channel.js';
import { errSerializer } from './platform/privacy.js';
import { taskCommand } from './tasks-command.js';

function warnWithoutAlertChannel(app: App): void {
  const warning = alertChannelWarning(app.ctx.config);
  if (warning) app.log.warn(warning);
}

const builtins: Record<string, Command> = {
  serve: {
    describe: 'start the HTTP API (and the queue workers when IN_PROCESS_WORKERS is on: the embedded default)',
    usage: 'serve',
    async run(_args, cli) {
      await loadDemoOnFirstStart(cli);
      await createDemoAdminOnFirstStart(cli);
      const app = await buildApp({ config: cli.config, database: cli.database });
      warnWithoutAlertChannel(app);
      // operator commands from other shells run here, on this process's embedded database
      const socket = cli.database.kind === 'pglite' ? operatorSocketPath(cli.config.pgliteDir) : undefined;
      // SIGTERM: no new connections, in-flight requests answered, running jobs finished, within the grace period
      stopOnSignals(
        cli.config.limits.shutdownGraceSeconds,
        async () => {
          if (socket && existsSync(socket)) unlinkSync(socket);
          await app.close();
          await cli.database.close();
        },
        app.log,
      );
      await app.listen({ port: cli.config.port, host: cli.config.host });
      if (socket) {
        await serveOperatorChannel(socket, (command, argv, io) => {
          const c = all[command];
          if (!c || !FORWARDABLE(command)) {
            io.err(`the running server does not take '${command}'`);
            return Promise.resolve(2);
          }
          let args: ReturnType<typeof parseArgs>;
          try {
            args = parseArgs(c, argv);
          } catch (e) {
            io.err(`${command}: ${(e as Error).message}`);
            return Promise.resolve(2);
          }
          return c.run(args, { ...cli, ...io, app: app.ctx });
        });
      }
      return -1; // keep running
    },
  },
  worker: {
    describe: 'run the queue workers only (no HTTP); start as many as the load needs',
    usage: 'worker',
    async run(_args, cli) {
      const app = await buildApp({ config: { ...cli.config, inProcessWorkers: true }, database: cli.database });
      // before the workers start: a SIGTERM while they start still stops them cleanly
      stopOnSignals(
        cli.config.limits.shutdownGraceSeconds,
        async () => {
          await app.close();
          await cli.database.close();
        },
        app.log,
      );
      await app.ready();
      warnWithoutAlertChannel(app);
      app.log.info('queue workers started');
      return -1; // keep running
    },
  },
  migrate: {
    describe: 'apply pending database migrations',
    usage: 'migrate',
    async run(_args, cli) {
      // migrations already ran when the database was opened; report what that did
      const applied = cli.migrationsApplied ?? [];
      if (!applied.length) cli.out('migrations are up to date (nothing to apply)');
      else cli.out(`applied ${applied.length} migration(s):\n${applied.map((f) => `  ${f}`).join('\n')}`);
      return 0;
    },
  },
};

/** Commands a running embedded server runs for another shell (not the long-running ones). */
const FORWARDABLE = (name: string) => name !== 'serve' && name !== 'worker';

const all: Record<string, Command> = {
  ...builtins,
  task: taskCommand,
  ...catalogCommands,
  ...contentCommands,
  ...checkoutCommands,
  ...marketingCommands,
  ...crmCommands,
  ...adminCommands,
};

/**
 * Long-running processes let V8's old generation grow 50 % between full collections (its default
 * is up to 300 %): the live heap is ~36 MB, and under load the default let garbage take RSS from
 * ~170 to ~230 MB. Set here rather than on node's command line, so `node dist/main.js serve` gets
 * it too, and a V8 without the flag only prints a warning instead of refusing to start.
 */
function tuneHeapForServing(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...given] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(commandList(all));
    return 0;
  }
  const command = name ? all[name] : undefined;
  if (!command) {
    console.error(name ? `unknown command: ${name}\n\n${commandList(all)}` : commandList(all));
    return 2;
  }
  // --help and bad options are answered before anything is read, opened or changed
  if (wantsHelp(given)) {
    console.log(commandHelp(name, command));
    return 0;
  }
  try {
    parseArgs(command, given);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${name}: ${err.message}\n\n${commandHelp(name, command)}`);
    return 2;
  }
  loadEnvFileIfPresent();
  const longRunning = name === 'serve' || name === 'worker';
  if (longRunning) tuneHeapForServing();
  const config = loadConfig();
  listening = { port: config.port, host: config.host };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  let rest = given;
  if (command.prepare) {
    try {
      rest = await command.prepare(given, { err });
    } catch (e) {
      err(e instanceof Error ? e.message : String(e));
      return 2;
    }
  }
  if (!config.databaseUrl) {
    // an embedded database belongs to the server process when one runs: go through it
    const socket = operatorSocketPath(config.pgliteDir);
    if (!longRunning) {
      const code = await forward(socket, name, rest, out, err);
      if (code !== null) return code;
    }
  }
  if (name === 'serve') await assertPortFree(config.port, config.host);
  const log = pino(
    { level: longRunning ? config.logLevel : 'warn', serializers: { err: errSerializer, error: errSerializer } },
    config.logFormat === 'pretty' ? prettyLogStream() : undefined,
  );
  if (!config.databaseUrl && config.pgliteDir !== 'memory') {
    // one process owns the embedded database; a second one stops here, naming the owner
    const release = await lockDataDir(config.pgliteDir);
    process.once('exit', release);
  }
  for (const name of placeholderSettings(process.env)) {
    log.warn(`${name} still holds the replace-me placeholder of deploy/.env.production.example: set a real value`);
  }
  if (config.databaseUrl) {
    await waitForPostgres(config.databaseUrl, longRunning ? config.limits.dbBootRetrySeconds : 0, (reason) =>
      log.warn({ reason }, 'PostgreSQL (DATABASE_URL) not reachable yet; trying again'),
    );
  }
  if (config.redisUrl && longRunning) {
    await waitForRedis(
      config.redisUrl,
      config.limits.dbBootRetrySeconds,
      config.limits.redisConnectTimeoutMs,
      (reason) => log.warn({ reason }, 'Redis (REDIS_URL) not reachable yet; trying again'),
    );
  }
  // the API process answers requests: their short statement deadline; everything else runs jobs
  const database = await openDatabase(config, name === 'serve' ? 'requests' : 'jobs', (err) =>
    log.warn({ err }, 'database connection failed; the pool drops it and connects again'),
  );
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const cli: CliContext = { config, database, log, out, err, migrationsApplied: applied };
  const code = await command.run(parseArgs(command, rest), cli);
  if (code >= 0) await database.close();
  return code;
}

/** where serve listens, for the port-in-use message */
let listening: { port?: number; host?: string } = {};

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    // one line naming the cause and the fix (exit 78 configuration, 69 a service unreachable,
    // 75 the embedded database in use); the stack only with LOG_LEVEL=debug or trace
    const failure = describeBootFailure(err, listening);
    if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && err instanceof Error) console.error(err.stack);
    console.error(`itinera: ${failure.message}`);
    process.exit(failure.exitCode);
  },
);
