// Scheduled tasks of the console: ended sessions (idle or past their maximum age) are deleted
// once a day; a live session is never touched.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { pruneSessions } from './service.js';

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'admin.prune-sessions',
      describe: 'delete console sessions that ended (idle time-out or maximum age)',
      cron: '40 3 * * *',
      timeoutSeconds: 120,
      async run(ctx) {
        const removed = await pruneSessions(ctx);
        return { ok: true, message: `removed ${removed} ended console session(s)` };
      },
    },
  ];
}
