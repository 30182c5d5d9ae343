/**
 * Zones' offsets and short names from the build's tables (scripts/zoneTransitions.mjs,
 * src/geo/zoneTransitions.ts) instead of Intl: the same dates, instants and texts as Intl gives,
 * across daylight saving changes, in both hemispheres, in half-hour zones and zones without DST;
 * Intl for what the tables do not cover; no Intl.DateTimeFormat at all in a local quote.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { zoneTransitionTable } from '../../scripts/zoneTransitions.mjs';
import { addDays, localDateInZone, tabulatedWallClock, useZoneTransitions, zonedTimeToUtc, type ZoneTransitions } from '../../src/domain/dates.js';
import { formatInstant, localIsoInstant } from '../../src/cli/output.js';
import { readZoneTransitions } from '../../src/geo/zoneTransitions.js';
import { geodataDir } from '../../src/paths.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix', // no DST
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu', // no DST
  'America/Toronto',
  'America/Halifax',
  'America/St_Johns', // half-hour offset, with DST
  'America/Santiago', // southern hemisphere
  'America/Sao_Paulo', // DST abolished in 2019
  'Australia/Adelaide', // half-hour offset, southern DST
  'Australia/Sydney',
  'Pacific/Auckland',
  'Asia/Tokyo', // no DST, named GMT+9
  'Asia/Kolkata', // half-hour offset, no DST
  'Africa/Casablanca', // a pause of a month each Ramadan
  'Europe/London',
  'UTC',
];
const FIRST_YEAR = 2024;
const LAST_YEAR = 2030;

const tables = new Map(ZONES.map((zone) => [zone, zoneTransitionTable(zone, FIRST_YEAR, LAST_YEAR)!]));
const fromTables = (zone: string): ZoneTransitions | undefined => tables.get(zone);
const noTables = (): undefined => undefined;

afterEach(() => useZoneTransitions(noTables));

/** Each period's first instant, the second and the half hour before it, the half hour after, and noon of the 1st and 15th of every month. */
function instantsOf(zone: string): Date[] {
  const table = tables.get(zone)!;
  const instants = table.periods.flatMap(([start]) => [start - 1800_000, start - 1000, start, start + 1800_000]).filter((ms) => ms >= table.from && ms < table.until);
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) for (let month = 0; month < 12; month++) instants.push(Date.UTC(year, month, 1, 12), Date.UTC(year, month, 15, 0, 30));
  return instants.map((ms) => new Date(ms));
}

/** What the dates module and the CLI write for the zone's instants, with the given source. */
function readings(zone: string, source: (zone: string) => ZoneTransitions | undefined) {
  useZoneTransitions(source);
  return instantsOf(zone).map((instant) => {
    const iso = instant.toISOString();
    return `${iso} ${localDateInZone(instant, zone)} ${formatInstant(iso, zone)} ${localIsoInstant(iso, zone)}`;
  });
}

/** zonedTimeToUtc of every half hour of the local days around each change (the gaps and overlaps among them). */
function wallTimes(zone: string, source: (zone: string) => ZoneTransitions | undefined) {
  useZoneTransitions(noTables);
  const days = tables
    .get(zone)!
    .periods.slice(1)
    .flatMap(([start]) => {
      const day = localDateInZone(new Date(start), zone);
      return [addDays(day, -1), day, addDays(day, 1)];
    });
  useZoneTransitions(source);
  const halfHours = Array.from({ length: 48 }, (_, index) => `${String(Math.floor(index / 2)).padStart(2, '0')}:${index % 2 ? '30' : '00'}`);
  return days.flatMap((day) => halfHours.map((time) => `${day} ${time} ${zonedTimeToUtc(day, time, zone).toISOString()}`));
}

describe('the transitions the build writes (scripts/zoneTransitions.mjs)', () => {
  it('find every change of these years: two a year where clocks change, none where they do not', () => {
    const changes = (zone: string) => tables.get(zone)!.periods.length - 1;
    const years = LAST_YEAR - FIRST_YEAR + 1;
    for (const zone of ['America/New_York', 'America/St_Johns', 'America/Santiago', 'Australia/Adelaide', 'Pacific/Auckland', 'Europe/London'])
      expect(changes(zone), zone).toBe(2 * years);
    for (const zone of ['America/Phoenix', 'Pacific/Honolulu', 'America/Sao_Paulo', 'Asia/Tokyo', 'Asia/Kolkata', 'UTC']) expect(changes(zone), zone).toBe(0);
    expect(tables.get('America/Chicago')!.periods.slice(0, 3)).toEqual([
      [Date.UTC(2024, 0, 1), -6 * 3600_000, 'CST'],
      [Date.UTC(2024, 2, 10, 8), -5 * 3600_000, 'CDT'],
      [Date.UTC(2024, 10, 3, 7), -6 * 3600_000, 'CST'],
    ]);
  });

  it.each(ZONES)('give the dates, times, offsets and names Intl gives in %s', (zone) => {
    const intl = readings(zone, noTables);
    const tabulated = readings(zone, fromTables);
    expect(tabulated).toEqual(intl);
    // The table answered, not Intl.
    expect(instantsOf(zone).every((instant) => tabulatedWallClock(instant, zone) !== undefined)).toBe(true);
  });

  it.each(ZONES.filter((zone) => tables.get(zone)!.periods.length > 1))('read wall-clock times around the changes as Intl does in %s (gaps forward, overlaps earlier)', (zone) => {
    expect(wallTimes(zone, fromTables)).toEqual(wallTimes(zone, noTables));
  });
});

describe('Intl, where the tables do not answer', () => {
  it('answers for an instant before or after the years of the table', () => {
    const outside = ['2023-07-01T12:00:00.000Z', '2031-01-01T00:00:00.000Z', '1969-12-31T23:00:00.000Z'];
    const read = () =>
      outside.map((iso) => `${localDateInZone(new Date(iso), 'America/Chicago')} ${formatInstant(iso, 'America/Chicago')} ${localIsoInstant(iso, 'America/Chicago')}`);
    const intl = read();
    useZoneTransitions(fromTables);
    expect(outside.map((iso) => tabulatedWallClock(new Date(iso), 'America/Chicago'))).toEqual([undefined, undefined, undefined]);
    expect(read()).toEqual(intl);
    expect(intl[0]).toBe('2023-07-01 Sat 2023-07-01 07:00 CDT 2023-07-01T07:00:00-05:00');
  });

  it('answers for a zone without a table, and still refuses a zone that does not exist', () => {
    useZoneTransitions((zone) => (zone === 'Asia/Kolkata' ? undefined : fromTables(zone)));
    expect(tabulatedWallClock(new Date('2026-07-01T12:00:00Z'), 'Asia/Kolkata')).toBeUndefined();
    expect(formatInstant('2026-07-01T12:00:00Z', 'Asia/Kolkata')).toBe('Wed 2026-07-01 17:30 GMT+5:30');
    expect(zonedTimeToUtc('2026-07-15', '17:00', 'Asia/Kolkata').toISOString()).toBe('2026-07-15T11:30:00.000Z');
    expect(() => localDateInZone(new Date('2026-07-01T12:00:00Z'), 'Mars/Olympus_Mons')).toThrow(/unknown time zone "Mars\/Olympus_Mons"/);
    expect(() => formatInstant('2026-07-01T12:00:00Z', 'Mars/Olympus_Mons')).toThrow(RangeError);
    expect(() => formatInstant('nope', 'America/Chicago')).toThrow(RangeError);
  });
});

describe('the tables of the build (dist/geo/tz)', () => {
  const zones = [...(JSON.parse(readFileSync(join(geodataDir(), 'zones.json'), 'utf8')) as string[]), 'UTC'];

  it('cover every zone of the ZIP geodata and UTC, from the year before the build through 15 after, and agree with Intl', () => {
    const now = Date.now();
    for (const zone of zones) {
      const table = readZoneTransitions(zone);
      expect(table, zone).toBeDefined();
      const { from, until, periods } = table!;
      expect(new Date(from).toISOString(), zone).toMatch(/-01-01T00:00:00.000Z$/);
      expect(new Date(until).getUTCFullYear() - new Date(from).getUTCFullYear(), zone).toBe(17);
      expect(from < now && now < until, zone).toBe(true);
      const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
      const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
      // Older ICUs write a zero offset 'GMT', newer ones 'GMT+00:00'.
      const intlAt = (ms: number) => `${offset.format(ms).split(', ')[1]!.replace(/^GMT$/, 'GMT+00:00')} ${name.format(ms).split(', ')[1]}`;
      const tableAt = ([, offsetMs, shortName]: readonly [number, number, string]) => {
        const minutes = Math.abs(offsetMs) / 60_000;
        const text = `GMT${offsetMs < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        return `${text} ${shortName}`;
      };
      periods.forEach((period, index) => {
        expect(intlAt(period[0]), `${zone} ${new Date(period[0]).toISOString()}`).toBe(tableAt(period));
        const end = periods[index + 1]?.[0] ?? until;
        // Its last second, and a day a fortnight apart within it.
        for (let ms = end - 1000; ms > period[0]; ms -= 14 * 86_400_000) expect(intlAt(ms), `${zone} ${new Date(ms).toISOString()}`).toBe(tableAt(period));
      });
    }
  });
});

describe('reading a table (src/geo/zoneTransitions.ts)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-tz-'));
    const table = zoneTransitionTable('America/Chicago', 2026, 2027)!;
    await mkdir(join(dir, 'tz', 'America'), { recursive: true });
    await writeFile(join(dir, 'tz', 'America', 'Chicago.json'), JSON.stringify(table));
    await writeFile(join(dir, 'tz', 'America', 'Denver.json'), JSON.stringify({ ...table, timeZone: 'America/Denver', tz: '1999z' }));
    await writeFile(join(dir, 'tz', 'America', 'Boise.json'), JSON.stringify({ ...table, timeZone: 'America/Boise', cldr: '1.0' }));
    await writeFile(join(dir, 'tz', 'America', 'Detroit.json'), JSON.stringify(table));
    await writeFile(join(dir, 'tz', 'broken.json'), '{');
  });
  afterAll(() => cleanup());

  it("reads a zone's table written from this Node's data", () => {
    expect(readZoneTransitions('America/Chicago', dir)?.periods).toEqual(zoneTransitionTable('America/Chicago', 2026, 2027)!.periods);
  });

  it('leaves to Intl a zone without a table, a table of other time zone data or CLDR names, and a file of another zone', () => {
    expect(readZoneTransitions('America/New_York', dir)).toBeUndefined();
    expect(readZoneTransitions('America/Chicago/Extra', dir)).toBeUndefined();
    expect(readZoneTransitions('America/Denver', dir)).toBeUndefined();
    expect(readZoneTransitions('America/Boise', dir)).toBeUndefined();
    expect(readZoneTransitions('America/Detroit', dir)).toBeUndefined();
    expect(readZoneTransitions('America/Chicago', dir, { ...process.versions, tz: '2099a' })).toBeUndefined();
  });

  it('reads no path that is not a zone name', () => {
    for (const name of ['../tz/America/Chicago', 'America/../America/Chicago', '/etc/passwd', 'America/Chicago.json', '', ' America/Chicago'])
      expect(readZoneTransitions(name, dir), name).toBeUndefined();
  });

  it('fails on a damaged table rather than read it', () => {
    expect(() => readZoneTransitions('broken', dir)).toThrow(SyntaxError);
  });
});

describe('a local quote', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-tz-quote-'));
  });
  afterAll(() => cleanup());

  it('builds no Intl.DateTimeFormat: its zones come from the tables (the first costs ICU data, about 15 ms)', async () => {
    const IntlDateTimeFormat = Intl.DateTimeFormat;
    const built: unknown[] = [];
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      built.push(options);
      return new IntlDateTimeFormat(locales, options);
    } as typeof Intl.DateTimeFormat);
    const result = await runInProcess(['--store', dir, 'quote', '--from', '60607', '--to', '98101', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=books'], {
      env: { SHIPPER_NOW: '2026-11-23T15:00:00Z' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ETA \w{3} 2026-\d\d-\d\d 17:00 PST/);
    expect(result.stdout).toMatch(/valid until Tue 2026-11-24 23:59 CST/);
    expect(built).toEqual([]);
  });
});
