// Time is injected so tests can move it; "today" depends on the market's timezone.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock fixed at `at` that tests can move. */
export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    set: (next) => {
      current = new Date(next);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
// Every zone's current UTC offset is a whole number of minutes, so a zone's date can only change on a UTC
// minute boundary: the answer is kept for the minute (Intl formatting is the costly part of a hot read).
const lastDay = new Map<string, { minute: number; day: string }>();

/** The calendar date (YYYY-MM-DD) at `at` in the IANA time zone `timeZone`. */
export function dateIn(timeZone: string, at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  const last = lastDay.get(timeZone);
  if (last?.minute === minute) return last.day;
  let f = dayFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, f);
  }
  const day = f.format(at);
  lastDay.set(timeZone, { minute, day });
  return day;
}

/** YYYY-MM-DD plus n days (calendar arithmetic in UTC, no DST effects). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
