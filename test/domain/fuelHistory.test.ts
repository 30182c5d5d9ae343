/**
 * The bounds of a weekly diesel price file (issue 39): weeks from the first of the DOE/EIA series
 * (1994-03-21) to a week after today, at most 5,000 data lines a file; each refusal names its line.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { FIRST_FUEL_WEEK, MAX_FUEL_WEEKS_PER_FILE, parseFuelHistory } from '../../src/domain/agreements/fuelHistory.js';

/** `count` consecutive Mondays from `from`, as a week,usdPerGallon file. */
function weeksFile(from: string, count: number): string {
  const lines = ['week,usdPerGallon'];
  for (let index = 0; index < count; index++) lines.push(`${addDays(from, 7 * index)},3.712`);
  return lines.join('\n');
}

describe('parseFuelHistory: the weeks a file may carry', () => {
  // A Monday: a week after it is the next Monday.
  const today = '2026-11-30';

  it('takes the first week of the series and refuses the Monday before it, naming the line', () => {
    expect(FIRST_FUEL_WEEK).toBe('1994-03-21');
    const first = parseFuelHistory('week,usdPerGallon\n1994-03-21,1.106\n', { today });
    expect(first).toEqual({ weeks: [{ week: '1994-03-21', mills: 1106 }], faults: [] });
    const before = parseFuelHistory('week,usdPerGallon\n1994-03-21,1.106\n1994-03-14,1.100\n', { today });
    expect(before.faults).toEqual([{ line: 3, message: '1994-03-14 is before 1994-03-21, the first week of the DOE/EIA weekly diesel series' }]);
  });

  it('takes the week a week after today and refuses the one after, naming the line', () => {
    expect(parseFuelHistory('week,usdPerGallon\n2026-12-07,3.712\n', { today }).faults).toEqual([]);
    expect(parseFuelHistory('11/30/2026,3.7\n12/14/2026,3.8\n', { today }).faults).toEqual([
      { line: 2, message: '2026-12-14 is more than a week after today (2026-11-30): no price is published for it yet' },
    ]);
    // Today a Wednesday: the Monday after next is 12 days away.
    expect(parseFuelHistory('2026-12-14,3.8\n', { today: '2026-12-02' }).faults).toHaveLength(1);
  });

  it('refuses the absurd years of the issue, 1900 and 5733, whatever the weekday', () => {
    const { weeks, faults } = parseFuelHistory('week,usdPerGallon\n1900-01-01,0.5\n5733-03-19,9.9\n0001-01-03,1\n', { today });
    expect(weeks).toEqual([]);
    expect(faults.map((fault) => fault.line)).toEqual([2, 3, 4]);
    expect(faults[1]!.message).toContain('5733-03-19 is more than a week after today');
    expect(faults[2]!.message).toBe('"0001-01-03" is not a date (YYYY-MM-DD or MM/DD/YYYY)');
  });

  it('takes 5,000 weeks in a file and refuses the 5,001st, naming its line first among the faults', () => {
    expect(MAX_FUEL_WEEKS_PER_FILE).toBe(5000);
    // A far today, so that 5,000 consecutive weeks from 1994 are all in range.
    const far = { today: '2099-12-31' };
    const full = parseFuelHistory(weeksFile(FIRST_FUEL_WEEK, 5000), far);
    expect(full.faults).toEqual([]);
    expect(full.weeks).toHaveLength(5000);
    const over = parseFuelHistory(weeksFile(FIRST_FUEL_WEEK, 5001), far);
    expect(over.faults).toEqual([{ line: 5002, message: expect.stringMatching(/^more than 5,000 weekly prices in one file/) }]);
  });

  it('stops at the limit on 200,000 weeks from 1900 to 5733: the limit first, then the faults of the lines before it', () => {
    const text = weeksFile('1900-01-01', 200_000);
    expect(text.split('\n').at(-1)).toMatch(/^5733-/);
    const { faults } = parseFuelHistory(text, { today });
    expect(faults[0]).toEqual({ line: 5002, message: expect.stringContaining('more than 5,000 weekly prices') });
    expect(faults[1]).toEqual({ line: 2, message: '1900-01-01 is before 1994-03-21, the first week of the DOE/EIA weekly diesel series' });
    expect(Math.max(...faults.map((fault) => fault.line))).toBe(5002);
  });

  it('quotes at most 40 characters of a bad cell', () => {
    const { faults } = parseFuelHistory(`2026-11-30,${'9'.repeat(10_000)}\n`, { today });
    expect(faults).toHaveLength(1);
    expect(faults[0]!.message.length).toBeLessThan(100);
    expect(faults[0]!.message).toContain('…" is not a price');
  });
});
