/**
 * Each ZIP's time zone in the built geodata (scripts/build.mjs): the zone at the ZIP's point, from
 * the exact zone polygons, except for the override table (src/geo/timeZoneOverrides.json). ETAs
 * are promised at 17:00 in this zone, so a wrong zone is an ETA an hour off.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const { overrides } = JSON.parse(readFileSync(new URL('../../src/geo/timeZoneOverrides.json', import.meta.url), 'utf8')) as {
  overrides: Record<string, { place: string; timeZone: string; reason: string }>;
};
const zips = new ZipDirectory();

/** "-07:00/-07:00": the offsets in January and July, so zones are compared by what their clocks do. */
function offsets(timeZone: string): string {
  const at = (month: number) =>
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(Date.UTC(2026, month, 15, 12))).find((part) => part.type === 'timeZoneName')!
      .value;
  return `${at(0)}/${at(6)}`.replace(/GMT/g, '');
}

describe('the time zone override table', () => {
  it("names real ZIPs (the place is the geodata's), real zones and a reason for each entry", () => {
    expect(Object.keys(overrides).length).toBeGreaterThanOrEqual(5);
    for (const [zip, { place, timeZone, reason }] of Object.entries(overrides)) {
      const found = zips.lookup(zip);
      expect(found, zip).toBeDefined();
      expect(`${found!.city}, ${found!.state}`, zip).toBe(place);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone }), zip).not.toThrow();
      expect(reason.length, zip).toBeGreaterThan(30);
    }
  });

  it('is applied to the built geodata', () => {
    for (const [zip, { timeZone }] of Object.entries(overrides)) expect(zips.lookup(zip)!.timeZone, zip).toBe(timeZone);
  });

  it('keeps the Hopi Reservation on Arizona time: no daylight saving time, unlike the Navajo Nation around it', () => {
    for (const zip of ['86030', '86039', '86042', '86043']) expect(offsets(zips.lookup(zip)!.timeZone), zip).toBe('-07:00/-07:00');
    // Kayenta and Tuba City are on the Navajo Nation, which does observe it.
    for (const zip of ['86033', '86045']) expect(offsets(zips.lookup(zip)!.timeZone), zip).toBe('-07:00/-06:00');
  });
});

describe('ZIPs near zone lines (checked against a second source; README "Time zones")', () => {
  // ZIPs where the coarse point lookup used before (@photostructure/tz-lookup: 193 ZIPs off by
  // their clocks) or a second ZIP-to-zone table (the zipcode-to-timezone package) disagreed with
  // the zone polygons; each checked against its county's legal zone (49 CFR part 71).
  it.each([
    ['04619', 'Calais, ME', '-05:00/-04:00'], // was Atlantic time (America/Moncton)
    ['58801', 'Williston, ND', '-06:00/-05:00'], // Williams County: Central; was Mountain
    ['58772', 'Portal, ND', '-06:00/-05:00'], // was Saskatchewan time (America/Regina, no DST)
    ['58563', 'New Salem, ND', '-06:00/-05:00'], // Morton County moved to Central in 2003
    ['59254', 'Plentywood, MT', '-07:00/-06:00'], // was America/Regina
    ['57601', 'Mobridge, SD', '-06:00/-05:00'], // east of the Missouri: Central
    ['57521', 'Belvidere, SD', '-07:00/-06:00'], // Jackson County: Mountain
    ['67731', 'Bird City, KS', '-06:00/-05:00'], // Cheyenne County: Central
    ['69152', 'Mullen, NE', '-07:00/-06:00'], // Hooker County: Mountain
    ['73933', 'Boise City, OK', '-06:00/-05:00'], // Cimarron County: Central by law
    ['79847', 'Salt Flat, TX', '-07:00/-06:00'], // Hudspeth County: Mountain
    ['83837', 'Kellogg, ID', '-08:00/-07:00'], // Idaho Panhandle: Pacific
    ['83671', 'Warren, ID', '-07:00/-06:00'], // Idaho County south of the Salmon River: Mountain
    ['97914', 'Ontario, OR', '-07:00/-06:00'], // Malheur County: Mountain
    ['97834', 'Halfway, OR', '-08:00/-07:00'], // Baker County: Pacific
    ['32424', 'Blountstown, FL', '-06:00/-05:00'], // Calhoun County: Central
    ['37723', 'Crab Orchard, TN', '-06:00/-05:00'], // Cumberland County: Central
    ['42728', 'Columbia, KY', '-06:00/-05:00'], // Adair County: Central
    ['42784', 'Upton, KY', '-05:00/-04:00'], // Hardin County: Eastern
    ['47660', 'Oakland City, IN', '-06:00/-05:00'], // Gibson County: Central
    ['46371', 'Rolling Prairie, IN', '-06:00/-05:00'], // LaPorte County: Central
    ['47928', 'Cayuga, IN', '-05:00/-04:00'], // Vermillion County: Eastern
    ['49935', 'Iron River, MI', '-06:00/-05:00'], // Iron County: Central
    ['49879', 'Republic, MI', '-05:00/-04:00'], // Marquette County: Eastern
    ['85901', 'Show Low, AZ', '-07:00/-07:00'], // Arizona off the Navajo Nation: no DST
    ['86021', 'Colorado City, AZ', '-07:00/-07:00'],
    ['85369', 'Yuma, AZ', '-07:00/-07:00'], // was Pacific
    ['92363', 'Needles, CA', '-08:00/-07:00'], // was Arizona time
  ])('%s %s is on %s (January/July)', (zip, place, expected) => {
    const found = zips.lookup(zip)!;
    expect(`${found.city}, ${found.state}`).toBe(place);
    expect(offsets(found.timeZone)).toBe(expected);
  });
});

describe('an ETA to the Hopi Reservation in summer', () => {
  let store: { dir: string; cleanup: () => Promise<void> };
  // Monday 2026-07-13, 15:00 UTC (08:00 in Arizona): the next pickup day is Tuesday the 14th.
  const SUMMER = '2026-07-13T15:00:00.000Z';
  const request = {
    pickupAddress: { zipCode: '86001' },
    deliveryAddress: { zipCode: '86039' },
    orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } }],
  };

  beforeAll(async () => {
    store = await tempDir('shipper-tz-');
  });
  afterAll(() => store.cleanup());

  it('is 17:00 MST (America/Phoenix), not 17:00 MDT: one day from Flagstaff, through a quote', async () => {
    const api = new LocalApi({ storeDir: store.dir, now: () => new Date(SUMMER) });
    const { data: quote } = await api.createLaneQuote(request);
    expect(quote.requiredPickupDate).toBe('2026-07-14');
    expect(quote.transitDays).toBe(1);
    // 17:00 at UTC-7 is midnight UTC; Denver's summer time (UTC-6) would say 23:00Z.
    expect(quote.estimatedDeliveryDate).toBe('2026-07-16T00:00:00.000Z');
  });

  it('prints as 17:00 MST in the CLI', async () => {
    const result = await runInProcess(['quote', '--from', '86001', '--to', '86039', '-c', 'pallets=1,weight=500,dims=48x40x48'], {
      env: { SHIPPER_STORE: store.dir, SHIPPER_NOW: SUMMER },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ETA Wed 2026-07-15 17:00 MST/);
  });
});
