/**
 * `shipper transit` as a user runs it: the CLI in process, a temporary store, a fixed clock
 * (Mon 2026-10-05 10:00 in Chicago).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transitTableSchema } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';

const env = { SHIPPER_NOW: '2026-10-05T15:00:00Z' };
let dir: string;
let cleanup: () => Promise<void>;
let cli: ReturnType<typeof storeInProcess>;
let store: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-transit-cli-'));
  store = join(dir, 'store');
  cli = storeInProcess(store);
});
afterAll(async () => cleanup());

const run = (args: string[], input?: string) => cli(['transit', ...args], { env, ...(input === undefined ? {} : { input }) });

/** Table body lines (those between the borders), cells trimmed. */
function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('shipper transit', () => {
  it('prints one row per lane: cities, miles, transit days, ETA in the destination time zone, no coverage', async () => {
    const result = await run(['--from', '60601', '--to', '10001', '--to', '94105,99501']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('Pickup Tue 2026-10-06 (tomorrow)');
    const [head, ...rows] = tableRows(result.stdout);
    expect(head).toEqual(['From', 'To', 'Miles', 'Transit days', 'ETA at destination']);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual(['60601 Chicago, IL', '10001 New York, NY', '838', '3', expect.stringMatching(/^Fri 2026-10-09 \d\d:00 EDT$/)]);
    expect(rows[1]!.slice(1, 4)).toEqual(['94105 San Francisco, CA', '2,187', '6']);
    expect(rows[1]![4]).toMatch(/^Wed 2026-10-14 \d\d:00 PDT$/);
    expect(rows[2]!.slice(1)).toEqual(['99501 Anchorage, AK', '3,362', 'no coverage', '-']);
    expect(await readdir(store).catch(() => [])).toEqual([]); // a transit table writes nothing
  });

  it('--days N shows the next N pickup days, with weekend rows and how the ETA moves across them', async () => {
    const result = await run(['--from', '60601', '--to', '10001', '--pickup-date', '2026-10-08', '--days', '3']);
    expect(result.code).toBe(0);
    const [head, ...rows] = tableRows(result.stdout);
    expect(head!.at(-1)).toBe('Crosses');
    expect(rows.map((row) => [row[3], row[4], row[5]!.slice(0, 14), row[6]])).toEqual([
      ['Thu 2026-10-08', '3', 'Tue 2026-10-13', 'weekend'],
      ['Fri 2026-10-09', '3', 'Wed 2026-10-14', 'weekend'],
      ['Sat 2026-10-10', 'no pickup', 'Saturday', ''],
      ['Sun 2026-10-11', 'no pickup', 'Sunday', ''],
      ['Mon 2026-10-12', '3', 'Thu 2026-10-15', ''],
    ]);
    expect(rows[1]!.slice(0, 3)).toEqual(['', '', '']); // the lane is named once
  });

  it('--days shows Thanksgiving as a closed day and moves the ETA past it', async () => {
    const result = await run(['--from', '60601', '--to', '10001', '--pickup-date', '2026-11-24', '--days', '3']);
    expect(result.code).toBe(0);
    const rows = tableRows(result.stdout).slice(1);
    expect(rows.map((row) => [row[3], row[4], row[5]!.slice(0, 14)])).toEqual([
      ['Tue 2026-11-24', '3', 'Mon 2026-11-30'],
      ['Wed 2026-11-25', '3', 'Tue 2026-12-01'],
      ['Thu 2026-11-26', 'no pickup', 'Thanksgiving'],
      ['Fri 2026-11-27', '3', 'Wed 2026-12-02'],
    ]);
    expect(rows[0]![6]).toBe('Thanksgiving, weekend');
  });

  it('a closed pickup date without --days shows the next pickup and says why', async () => {
    const result = await run(['--from', '60601', '--to', '10001', '--pickup-date', 'saturday']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Sat 2026-10-10 is .+: no pickup; showing pickup on Mon 2026-10-12\n$/);
    expect(result.stdout.split('\n')[0]).toBe('Pickup Mon 2026-10-12');
    expect(
      tableRows(result.stdout)
        .slice(1)
        .map((row) => row[3]),
    ).toEqual(['3']);
  });

  it('--json prints the transit table on stdout and nothing else', async () => {
    const result = await run(['--from', '60601', '--to', '10001,99501', '--days', '2', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const table = transitTableSchema.parse(JSON.parse(result.stdout));
    expect(table.lanes.map((lane) => [lane.destination.zipCode, lane.covered, lane.rows.length])).toEqual([
      ['10001', true, 2],
      ['99501', false, 2],
    ]);
    expect(table.lanes[0]!.rows[0]).toMatchObject({ pickupDate: '2026-10-06', pickupAvailable: true, transitDays: 3, deliveryDate: '2026-10-09' });
    expect(table.lanes[1]!.rows[0]).toMatchObject({ transitDays: null, estimatedDeliveryDate: null });
  });

  it('--csv prints RFC 4180 CSV with every calendar day, the local ETA and no-coverage rows', async () => {
    const result = await run(['--from', '60601', '--to', '10001', '--to', '99501', '--pickup-date', '2026-10-09', '--days', '2', '--csv']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'originPostalCode,originCity,originState,destinationPostalCode,destinationCity,destinationState,destinationTimeZone,miles,covered,pickupDate,pickupAvailable,closedReason,transitDays,deliveryDate,estimatedDeliveryDate,estimatedDeliveryLocal,skippedDays,error',
    );
    const records = lines.slice(1, -1).map((line) => line.split(','));
    expect(records).toHaveLength(8); // Fri, Sat, Sun, Mon for each of the two lanes
    const friday = records[0]!;
    expect(friday.slice(0, 11)).toEqual(['60601', 'Chicago', 'IL', '10001', 'New York', 'NY', 'America/New_York', '838', 'true', '2026-10-09', 'true']);
    expect(friday.slice(12, 14)).toEqual(['3', '2026-10-14']);
    expect(friday[15]).toMatch(/^2026-10-14T\d\d:00:00-04:00$/);
    expect(friday[16]).toBe('2026-10-10|2026-10-11');
    expect(records[1]!.slice(9, 13)).toEqual(['2026-10-10', 'false', expect.stringMatching(/Saturday|weekend/), '']);
    const alaska = records[4]!;
    expect(alaska.slice(3, 9)).toEqual(['99501', 'Anchorage', 'AK', 'America/Anchorage', '3362', 'false']);
    expect(alaska.slice(12)).toEqual(['', '', '', '', '', '']);
  });

  it('--to reads a file of ZIPs (header, comments, commas) and - reads stdin', async () => {
    const file = join(dir, 'zips.txt');
    await writeFile(file, 'zip\r\n10001 # New York\r\n30301, 94105\r\n\r\n');
    const fromFile = await run(['--from', '60601', '--to', file, '--json']);
    expect(fromFile.code).toBe(0);
    expect((JSON.parse(fromFile.stdout) as { lanes: Array<{ destination: { zipCode: string } }> }).lanes.map((lane) => lane.destination.zipCode)).toEqual([
      '10001',
      '30301',
      '94105',
    ]);
    const fromStdin = await run(['--from', '60601', '--to', '-', '--to', '02108', '--json'], '75201\n');
    expect(fromStdin.code).toBe(0);
    expect((JSON.parse(fromStdin.stdout) as { lanes: unknown[] }).lanes).toHaveLength(2);
  });

  it('names the file line of an unknown ZIP, on one line, exit 1', async () => {
    const file = join(dir, 'bad-zips.txt');
    await writeFile(file, '10001\n00000\n');
    const result = await run(['--from', '60601', '--to', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/10001 New York, NY .*\n.*00000 \(line 2\) .*unknown ZIP/);
    expect(result.stderr).toBe('shipper: 1 of 2 destinations got no lane (00000): their rows say why\n');
  });

  it('bad input: one clear line and exit 2 for usage, 1 for rejected values', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['--to', '10001'], 2, /^shipper: missing --from ZIP \(example: shipper transit/],
      [['--from', '60601'], 2, /^shipper: missing --to ZIP/],
      [['--from', '60601', '--to', '10001', '--days', '0'], 2, /^shipper: option '--days <n>' argument '0' is invalid\. must be a whole number from 1 to 60/],
      [['--from', '60601', '--to', 'nowhere.txt'], 2, /^shipper: --to nowhere\.txt: not a ZIP code and no such file/],
      [['--from', '60601', '--to', '1234'], 2, /^shipper: --to 1234 is not a ZIP code/],
      [['--from', '60601', '--to', '10001', '--pickup-date', 'someday'], 2, /^shipper: --pickup-date: cannot read "someday" as a date/],
      [['--from', '60601', '--to', '10001', '--csv', '--json'], 2, /^shipper: --csv and --json cannot be combined/],
      [['--from', '00000', '--to', '10001'], 1, /^shipper: unknown ZIP 00000 \(origin\.zipCode\)$/],
      [['--from', '60601', '--to', '10001', '--pickup-date', '2026-10-01'], 1, /^shipper: 2026-10-01 is in the past \(today is 2026-10-05 at the origin\) \(pickupDate\)$/],
    ];
    for (const [args, code, message] of cases) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(message);
      expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
    }
  });

  it('--json errors are a ProblemDetail on stdout', async () => {
    const result = await run(['--from', '60601', '--to', '00000', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 400, violations: [{ field: 'destinations[0].zipCode', reason: 'unknown ZIP 00000' }] });
  });

  it('--help lists examples', async () => {
    const result = await cli(['transit', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Examples:\n\s+\$ shipper transit --from 60601 --to 10001/);
  });
});
