// Health checks and their side work must never hang a request: every await gets a deadline.

export class DeadlineExceeded extends Error {}

/** `work`, or a DeadlineExceeded rejection after `ms` (the work itself keeps running unobserved) */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(`${what} timed out after ${ms} ms`)), ms);
  });
  work.catch(() => {}); // a late rejection after the deadline is not an unhandled one
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
