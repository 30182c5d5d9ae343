/**
 * Transit tables in the domain and through LocalApi.transitTimes. Dates are fixed; the Thanksgiving
 * cases assert the real transit module's calendar (2026-11-26 is a carrier holiday).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { ProblemError } from '../../src/api/problems.js';
import { transitTableSchema } from '../../src/domain/schemas.js';
import { tariffSchema, type Tariff } from '../../src/domain/tariff.js';
import { closedDaysBetween, nextCalendarDate, pickupDays, transitForLane } from '../../src/domain/transitTable.js';
import { DEFAULT_CARRIER_HOLIDAYS } from '../../src/domain/transit.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { defaultTariffFile } from '../../src/paths.js';
import { readFileSync } from 'node:fs';
import { tempDir } from '../helpers/cli.js';

const tariff: Tariff = tariffSchema.parse(JSON.parse(readFileSync(defaultTariffFile(), 'utf8')));
const zips = new ZipDirectory();
const place = (zip: string) => zips.lookup(zip)!;

describe('pickup days', () => {
  it('lists calendar days up to the N-th business day, closed days with their reason', () => {
    const days = pickupDays('2026-10-08', 3, DEFAULT_CARRIER_HOLIDAYS); // Thu
    expect(days.map((day) => day.date)).toEqual(['2026-10-08', '2026-10-09', '2026-10-10', '2026-10-11', '2026-10-12']);
    expect(days.map((day) => day.reason === null)).toEqual([true, true, false, false, true]);
    expect(days[2]!.reason).toMatch(/Saturday|weekend/);
  });

  it('starts on a closed day when asked to, so the table can say why', () => {
    const days = pickupDays('2026-10-10', 1, DEFAULT_CARRIER_HOLIDAYS); // Sat
    expect(days.map((day) => [day.date, day.reason === null])).toEqual([
      ['2026-10-10', false],
      ['2026-10-11', false],
      ['2026-10-12', true],
    ]);
  });

  it('skips Thanksgiving', () => {
    const days = pickupDays('2026-11-25', 2, DEFAULT_CARRIER_HOLIDAYS);
    expect(days.map((day) => day.date)).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
    expect(days[1]!.reason).toMatch(/Thanksgiving/);
  });

  it('finds the closed days between pickup and delivery', () => {
    expect(closedDaysBetween('2026-10-08', '2026-10-13', DEFAULT_CARRIER_HOLIDAYS).map((day) => day.date)).toEqual(['2026-10-10', '2026-10-11']);
    expect(closedDaysBetween('2026-10-05', '2026-10-08', DEFAULT_CARRIER_HOLIDAYS)).toEqual([]);
    expect(nextCalendarDate('2026-12-31')).toBe('2027-01-01');
    expect(nextCalendarDate('2028-02-28')).toBe('2028-02-29');
  });
});

describe('transit for a lane', () => {
  it('gives the same transit days as a quote on that lane, and the ETA moves across the weekend', () => {
    const lane = transitForLane(place('60601'), place('10001'), pickupDays('2026-10-06', 4, tariff.holidays), tariff);
    expect(lane).toMatchObject({ covered: true, origin: { city: 'Chicago', state: 'IL' }, destination: { city: 'New York', timeZone: 'America/New_York' } });
    expect(lane.rows.map((row) => [row.pickupDate, row.transitDays, row.deliveryDate])).toEqual([
      ['2026-10-06', 3, '2026-10-09'],
      ['2026-10-07', 3, '2026-10-12'],
      ['2026-10-08', 3, '2026-10-13'],
      ['2026-10-09', 3, '2026-10-14'],
    ]);
    expect(lane.rows[1]!.skippedDays.map((day) => day.date)).toEqual(['2026-10-10', '2026-10-11']);
  });

  it('puts the ETA at 17:00 local time at the destination (DST-correct)', () => {
    const [october] = transitForLane(place('60601'), place('10001'), pickupDays('2026-10-06', 1, tariff.holidays), tariff).rows;
    expect(october!.estimatedDeliveryDate).toBe('2026-10-09T21:00:00.000Z'); // 17:00 EDT
    const [december] = transitForLane(place('60601'), place('94105'), pickupDays('2026-12-01', 1, tariff.holidays), tariff).rows;
    expect(december!.estimatedDeliveryDate!.endsWith('T01:00:00.000Z')).toBe(true); // 17:00 PST
  });

  it('counts Thanksgiving as no business day: the ETA moves past it and the row says so', () => {
    const lane = transitForLane(place('60601'), place('10001'), pickupDays('2026-11-24', 3, tariff.holidays), tariff);
    expect(lane.rows.map((row) => [row.pickupDate, row.pickupAvailable, row.deliveryDate])).toEqual([
      ['2026-11-24', true, '2026-11-30'],
      ['2026-11-25', true, '2026-12-01'],
      ['2026-11-26', false, null],
      ['2026-11-27', true, '2026-12-02'],
    ]);
    expect(lane.rows[2]!.closedReason).toMatch(/Thanksgiving/);
    expect(lane.rows[0]!.skippedDays.map((day) => day.date)).toEqual(['2026-11-26', '2026-11-28', '2026-11-29']);
  });

  it('has miles but no transit days or ETA where the tariff has no coverage', () => {
    const lane = transitForLane(place('60601'), place('99501'), pickupDays('2026-10-06', 2, tariff.holidays), tariff);
    expect(lane.covered).toBe(false);
    expect(lane.miles).toBeGreaterThan(2500);
    expect(lane.rows.map((row) => [row.pickupAvailable, row.transitDays, row.estimatedDeliveryDate])).toEqual([
      [true, null, null],
      [true, null, null],
    ]);
  });
});

describe('LocalApi.transitTimes', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let api: LocalApi;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('shipper-transit-'));
    api = new LocalApi({ storeDir: join(dir, 'store'), now: () => new Date('2026-10-05T15:00:00Z') });
  });
  afterEach(async () => cleanup());

  it('answers one lane per destination from the next business day, and stores nothing', async () => {
    const { data } = await api.transitTimes({ origin: { zipCode: '60601' }, destinations: [{ zipCode: '10001' }, { zipCode: '30301-1234' }] });
    expect(transitTableSchema.parse(data)).toEqual(data);
    expect(data.lanes.map((lane) => [lane.destination.zipCode, lane.rows[0]!.pickupDate, lane.rows[0]!.transitDays])).toEqual([
      ['10001', '2026-10-06', 3],
      ['30301', '2026-10-06', 3],
    ]);
    expect((await api.store.quotes.list({}, { limit: 10 })).items).toEqual([]);
  });

  it('reports every unknown ZIP and bad field at once, with its path', async () => {
    const error = (await api
      .transitTimes({ origin: { zipCode: '00000' }, destinations: [{ zipCode: '10001' }, { zipCode: '00001' }, { zipCode: 'abc' }], pickupDays: 0 })
      .catch((caught: unknown) => caught)) as ProblemError;
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.status).toBe(400);
    expect(error.problem.violations).toEqual(
      expect.arrayContaining([
        { field: 'origin.zipCode', reason: 'unknown ZIP 00000' },
        { field: 'destinations[1].zipCode', reason: 'unknown ZIP 00001' },
        { field: 'destinations[2].zipCode', reason: 'must be a 5-digit US ZIP code (ZIP+4 accepted)' },
        { field: 'pickupDays', reason: 'pickupDays must be at least 1' },
      ]),
    );
  });

  it('refuses a pickup date in the past but shows a closed one', async () => {
    await expect(api.transitTimes({ origin: { zipCode: '60601' }, destinations: [{ zipCode: '10001' }], pickupDate: '2026-10-02' })).rejects.toMatchObject({
      problem: { violations: [{ field: 'pickupDate', reason: '2026-10-02 is in the past (today is 2026-10-05 at the origin)' }] },
    });
    const { data } = await api.transitTimes({ origin: { zipCode: '60601' }, destinations: [{ zipCode: '10001' }], pickupDate: '2026-10-11' });
    expect(data.lanes[0]!.rows.map((row) => [row.pickupDate, row.pickupAvailable])).toEqual([
      ['2026-10-11', false],
      ['2026-10-12', true],
    ]);
  });
});
