// `npm run task -- NAME [--as-of=YYYY-MM-DD]` runs a scheduled task now; `--list` lists them.
// On an embedded database the command runs inside the server that owns it (operator channel) and
// uses its context; otherwise it builds an app of its own without workers.
import { buildApp } from './app.js';
import type { AppContext } from './context.js';
import type { CliContext, Command } from './platform/cli.js';
import { allTasks, runTask } from './tasks.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const taskCommand: Command = {
  describe: 'run a scheduled task now (--list lists them; --as-of=YYYY-MM-DD sets its "today")',
  usage: 'task NAME [--as-of=YYYY-MM-DD] [task options] | task --list',
  options: {
    'as-of': { type: 'string', describe: 'the date the task takes as today (YYYY-MM-DD)' },
    list: { type: 'boolean', describe: 'list the tasks and their schedules' },
    email: { type: 'string', describe: 'privacy:erase: the e-mail address of the person to erase' },
  },
  extraOptions: true,
  async run(args, cli) {
    const [name, ...extra] = args.positional;
    const asOfOption = args.options['as-of'];
    if (extra.length || (!name && !args.options.list) || (asOfOption !== undefined && !DATE.test(String(asOfOption)))) {
      cli.err(`usage: npm run task -- ${this.usage}`);
      return 2;
    }
    return withContext(cli, async (ctx) => {
      const tasks = allTasks(ctx);
      if (args.options.list) {
        for (const t of tasks) cli.out(`${t.name.padEnd(28)} ${(t.cron ?? 'on demand').padEnd(14)} ${t.describe}`);
        return 0;
      }
      const task = tasks.find((t) => t.name === name);
      if (!task) {
        cli.err(`unknown task: ${name} (npm run task -- --list)`);
        return 2;
      }
      const { 'as-of': _asOf, list: _list, ...options } = args.options;
      const result = await runTask(ctx, task, {
        asOf: typeof asOfOption === 'string' ? new Date(`${asOfOption}T00:00:00Z`) : ctx.clock.now(),
        trigger: 'command',
        // undeclared options are read one value each, never as lists
        options: options as Record<string, string | true>,
        out: cli.out,
      });
      (result.ok ? cli.out : cli.err)(`${task.name}: ${result.ok ? 'ok' : 'failed'}: ${result.message}`);
      return result.ok ? 0 : 1;
    });
  },
};

async function withContext(cli: CliContext, work: (ctx: AppContext) => Promise<number>): Promise<number> {
  if (cli.app) return work(cli.app);
  const app = await buildApp({ config: { ...cli.config, inProcessWorkers: false }, database: cli.database });
  await app.ready();
  try {
    return await work(app.ctx);
  } finally {
    await app.close();
  }
}
