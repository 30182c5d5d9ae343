/**
 * `shipper fuel import` on files it must refuse (issue 39): weeks outside the DOE/EIA series
 * (before 1994-03-21, more than a week after today), more than 5,000 weeks, a file of megabytes.
 * Each is one message per line with its number, exit 1, and nothing in the store.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/dates.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

let dir: string;
let cleanup: () => Promise<void>;
const env = { SHIPPER_NOW: '2026-12-02T10:00:00Z' };
const fuel = (store: string, file: string) => runInProcess(['--store', join(dir, store), '--json', 'fuel', 'import', join(dir, file)], { env });

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-fuel-import-'));
});
afterAll(() => cleanup());

/** How many weeks the store holds: what a good import of one known week reports as its total, minus that week. */
async function weeksIn(store: string): Promise<number> {
  await writeFile(join(dir, 'one.csv'), 'week,usdPerGallon\n2026-11-30,3.712\n');
  const result = await fuel(store, 'one.csv');
  expect(result.code, result.stderr).toBe(0);
  const { total, added } = JSON.parse(result.stdout) as { total: number; added: number };
  return total - added;
}

describe('fuel import refuses what is no weekly diesel price', () => {
  it('200,000 weeks from 1900 to 5733: refused at line 5,002 (the 5,001st week) and at each week before 1994-03-21; nothing stored', async () => {
    const lines = ['week,usdPerGallon'];
    for (let index = 0; index < 200_000; index++) lines.push(`${addDays('1900-01-01', 7 * index)},3.712`);
    expect(lines.at(-1)).toMatch(/^5733-/);
    await writeFile(join(dir, 'huge.csv'), lines.join('\n'));
    const result = await fuel('store-huge', 'huge.csv');
    expect(result.code).toBe(1);
    const messages = result.stderr.split('\n');
    expect(messages[0]).toBe(
      `shipper: ${join(dir, 'huge.csv')}:5002: more than 5,000 weekly prices in one file (the whole series since 1994 is about 1,700 weeks): split the file`,
    );
    expect(messages[1]).toBe(`shipper: ${join(dir, 'huge.csv')}:2: 1900-01-01 is before 1994-03-21, the first week of the DOE/EIA weekly diesel series`);
    expect(result.stderr).toMatch(/bad lines in .*huge\.csv: nothing imported/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await weeksIn('store-huge')).toBe(0);
  });

  it('a week after today is taken, the Monday after it refused with its line; nothing stored', async () => {
    // Today 2026-12-02 (a Wednesday): up to 2026-12-09, so 2026-12-07 is in and 2026-12-14 out.
    await writeFile(join(dir, 'ahead.csv'), 'week,usdPerGallon\n2026-12-07,3.720\n2026-12-14,3.730\n');
    const refused = await fuel('store-ahead', 'ahead.csv');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ahead.csv:3: 2026-12-14 is more than a week after today (2026-12-02): no price is published for it yet');
    expect(refused.stderr).not.toContain('ahead.csv:2:');
    expect(await weeksIn('store-ahead')).toBe(0);
    await writeFile(join(dir, 'next.csv'), 'week,usdPerGallon\n2026-12-07,3.720\n');
    const taken = await fuel('store-ahead', 'next.csv');
    expect(taken.code, taken.stderr).toBe(0);
    expect(JSON.parse(taken.stdout)).toMatchObject({ added: 1, from: '2026-12-07' });
  });

  it('the first week of the series is taken, the week before it refused', async () => {
    await writeFile(join(dir, 'old.csv'), 'Date,Weekly U.S. No 2 Diesel Retail Prices  (Dollars per Gallon)\n03/14/1994,1.100\n03/21/1994,1.106\n');
    const refused = await fuel('store-old', 'old.csv');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('old.csv:2: 1994-03-14 is before 1994-03-21');
    await writeFile(join(dir, 'first.csv'), 'week,usdPerGallon\n1994-03-21,1.106\n');
    const taken = await fuel('store-old', 'first.csv');
    expect(taken.code, taken.stderr).toBe(0);
    expect(JSON.parse(taken.stdout)).toEqual({ added: 1, changed: 0, total: 1, from: '1994-03-21', to: '1994-03-21' });
  });

  it('a file over 4 MiB is refused unread: one line, exit 1, nothing stored', async () => {
    await writeFile(join(dir, 'big.csv'), `week,usdPerGallon\n${'2026-11-30,3.712\n'.repeat(260_000)}`);
    const result = await fuel('store-big', 'big.csv');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`shipper: ${join(dir, 'big.csv')} is larger than 4 MiB: a weekly price file holds at most 5,000 weeks; nothing imported\n`);
    expect(await weeksIn('store-big')).toBe(0);
  });
});
