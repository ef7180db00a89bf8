// The one list of modules whose jobs the queue knows. A module exports `jobs(ctx)`: its job
// definitions, built on the process's context (handlers need the database, config and log).
import type { AppContext } from './context.js';
import { jobs as flightJobs } from './modules/flights/jobs.js';
import type { JobDefinition } from './platform/queue.js';

const modules: Array<(ctx: AppContext) => JobDefinition<any>[]> = [flightJobs];

export function allJobs(ctx: AppContext): JobDefinition<any>[] {
  return modules.flatMap((m) => m(ctx));
}

export function registerJobs(ctx: AppContext): void {
  for (const def of allJobs(ctx)) ctx.queue.register(def);
}
