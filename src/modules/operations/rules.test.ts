import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../console/filters.js';
import { csvField, csvLine, dayWindows, niceMax, percent } from './rules.js';

describe('operations rules', () => {
  it('writes CSV fields per RFC 4180 and defuses spreadsheet formulas, keeping numbers and phone numbers', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 3])).toBe('a,"b,c","say ""hi""","two\nlines",,3\r\n');
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('+34 600 111 222')).toBe('+34 600 111 222');
    expect(csvField('+cmd|calc')).toBe("'+cmd|calc");
    expect(csvField(new Date('2026-06-15T10:00:00Z'))).toBe('2026-06-15T10:00:00.000Z');
  });

  it('knows real calendar dates, the windows ending today, percentages and round chart scales', () => {
    expect(isCalendarDate('2027-02-30')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-2-3')).toBe(false);
    expect(dayWindows('2026-03-01')).toEqual({ today: '2026-03-01', week: '2026-02-23', month: '2026-01-31' });
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(1, 0)).toBeNull();
    expect([0, 3, 7, 12, 48, 101].map(niceMax)).toEqual([1, 5, 10, 20, 50, 200]);
  });
});
