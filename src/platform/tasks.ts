// What a scheduled task is (src/tasks.ts lists them): below the modules, so a module's tasks.ts
// and the list never import each other.
import type { AppContext } from '../context.js';

export interface TaskRun {
  /** "today" for the task: the clock's now, or the operator's --as-of date (00:00 UTC) */
  asOf: Date;
  /** who started it: 'schedule' (the workers) or 'command' (npm run task) */
  trigger: 'schedule' | 'command';
  /** the command's extra options (`--email=E`), empty on a schedule */
  options: Record<string, string | true>;
  /** progress lines: printed by the command, logged by the workers */
  out(line: string): void;
  /** aborted at the scheduled job's time-out: pass it to outside calls, stop between steps */
  signal?: AbortSignal;
}

export interface TaskResult {
  ok: boolean;
  /** one line for the operator: what was done, or why it failed */
  message: string;
}

export interface Task {
  /** dotted name, e.g. 'balance.collect' */
  name: string;
  describe: string;
  /** cron (UTC) for the workers; absent: on demand only */
  cron?: string;
  /** job settings for the scheduled run; defaults: 1 try, 600 s */
  timeoutSeconds?: number;
  run(ctx: AppContext, run: TaskRun): Promise<TaskResult>;
}
