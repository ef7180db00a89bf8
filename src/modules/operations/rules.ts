// Pure rules of the operations pages: the home's time windows, CSV lines, funnel conversions and
// the chart's geometry.
import { addDays } from '../../platform/clock.js';

/** The home's windows, in UTC calendar days ending today: today, the last 7 and the last 30 days. */
export function dayWindows(today: string): { today: string; week: string; month: string } {
  return { today, week: addDays(today, -6), month: addDays(today, -29) };
}

/** The `days` calendar days ending `today`, oldest first. */
export function daysEnding(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; formulas defused. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = value instanceof Date ? value.toISOString() : String(value);
  // a spreadsheet runs a cell starting with = + - @ as a formula: exported personal data must not
  // (numbers and phone numbers such as +34 600 111 222 stay as they are: no formula can hide in them)
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?[\d\s().-]+$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line with its CRLF ending. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The share of `part` in `whole` as a percentage with one decimal, or null when whole is 0. */
export function percent(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/** A bar chart's y scale: a round maximum at or above `max` (1, 2, 5 times a power of ten). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}
