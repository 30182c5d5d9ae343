/**
 * The ZIP geodata's points against their states (issue 20, item 10): the build's check
 * (scripts/geodataCheck.mjs) on made-up points, the built table as a whole, ZIP 10200 (New York,
 * whose longitude the zipcodes package has with the wrong sign) quoted as New York, and military
 * mail ZIPs (APO/FPO) refused with their reason by the CLI and the wizard.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGeodataPoints, MILITARY_STATES, type StateBounds } from '../../scripts/geodataCheck.mjs';
import { zipProblem } from '../../src/cli/wizard/answers.js';
import type { Quote } from '../../src/domain/schemas.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const readJson = <T>(file: string): T => JSON.parse(readFileSync(new URL(`../../src/geo/${file}`, import.meta.url), 'utf8')) as T;
const stateBounds = readJson<StateBounds & { exceptions: Record<string, unknown> }>('stateBounds.json');
const { corrections } = readJson<{ corrections: Record<string, { latitude: number; longitude: number }> }>('coordinateCorrections.json');
const zips = new ZipDirectory();

const point = (zip: string, state: string, latitude: number, longitude: number) => ({ zip, city: 'Somewhere', state, latitude, longitude });

describe("the build's state-bounds check", () => {
  const bounds: StateBounds = { bounds: { NY: [40.5, 45.02, -79.76, -71.86] }, marginDegrees: 0.25 };

  it('refuses a point with a flipped longitude sign, naming the ZIP, its state and its point', () => {
    const { problems } = checkGeodataPoints([point('10200', 'NY', 40.77, 73.95), point('10001', 'NY', 40.75, -73.99)], bounds);
    expect(problems).toEqual(['10200 (Somewhere, NY): 40.77, 73.95 lies outside NY (40.5..45.02 N, -79.76..-71.86 E)']);
  });

  it('applies corrections before checking, and keeps the corrected point', () => {
    const { problems, entries } = checkGeodataPoints([point('10200', 'NY', 40.77, 73.95)], bounds, { '10200': { latitude: 40.77, longitude: -73.95 } });
    expect(problems).toEqual([]);
    expect(entries[0]).toMatchObject({ zip: '10200', latitude: 40.77, longitude: -73.95 });
  });

  it('accepts a point within the margin of the box and refuses one just beyond it', () => {
    expect(checkGeodataPoints([point('14001', 'NY', 45.02 + 0.25, -75)], bounds).problems).toEqual([]);
    expect(checkGeodataPoints([point('14001', 'NY', 45.02 + 0.26, -75)], bounds).problems).toHaveLength(1);
  });

  it('refuses a state without a box and a correction of a ZIP that is not there; skips military mail states and exceptions', () => {
    const { problems } = checkGeodataPoints(
      [point('99999', 'ZZ', 0, 0), point('09001', 'AE', 38.1, 15.66), point('96898', 'NY', 19.28, 166.64)],
      { ...bounds, exceptions: { '96898': {} } },
      { '12345': { latitude: 0, longitude: 0 } },
    );
    expect(problems).toEqual(['correction of 12345: no such ZIP in the data', '99999 (Somewhere, ZZ): no bounds for state ZZ']);
  });
});

describe('the built geodata', () => {
  it('has every point inside its state, the exceptions and military mail aside', () => {
    let checked = 0;
    for (const prefix of Array.from({ length: 1000 }, (_, index) => String(index).padStart(3, '0'))) {
      for (let zip = Number(prefix) * 100; zip < Number(prefix) * 100 + 100; zip++) {
        const place = zips.lookup(String(zip).padStart(5, '0'));
        if (!place || MILITARY_STATES.includes(place.state) || stateBounds.exceptions[place.zipCode]) continue;
        const [south, north, west, east] = stateBounds.bounds[place.state]!;
        const margin = stateBounds.marginDegrees;
        expect(place.latitude >= south - margin && place.latitude <= north + margin && place.longitude >= west - margin && place.longitude <= east + margin, place.zipCode).toBe(
          true,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40_000);
  });

  it('places 10200 in New York, on New York time', () => {
    expect(corrections['10200']).toBeDefined();
    expect(zips.lookup('10200')).toMatchObject({ city: 'New York', state: 'NY', latitude: 40.77, longitude: -73.95, timeZone: 'America/New_York' });
  });
});

describe('quotes to 10200 and to military mail ZIPs', () => {
  let work: { dir: string; cleanup: () => Promise<void> };
  const quote = (to: string) =>
    runInProcess(['--store', work.dir, 'quote', '--from', '60607', '--to', to, '-c', 'pallets=1,weight=500,dims=48x40x48', '--pickup-date', '2026-11-24', '--json'], {
      env: { SHIPPER_NOW: '2026-11-23T15:00:00Z' },
    });
  beforeAll(async () => {
    work = await tempDir('shipper-geodata-');
  });
  afterAll(() => work.cleanup());

  it('prices Chicago to 10200 as Chicago to Manhattan (10001)', async () => {
    const [manhattan, flipped] = await Promise.all([quote('10001'), quote('10200')]);
    expect(flipped.code, flipped.stderr).toBe(0);
    const [a, b] = [JSON.parse(manhattan.stdout) as Quote, JSON.parse(flipped.stdout) as Quote];
    expect(Math.abs(b.miles - a.miles)).toBeLessThan(10);
    expect(b.transitDays).toBe(a.transitDays);
    expect(b.quotedPriceInCents).toBe(a.quotedPriceInCents);
  });

  it('refuses an APO/FPO ZIP as a destination or origin with the reason (exit 1)', async () => {
    for (const zip of ['09001', '96201', '34001']) {
      const refused = await quote(zip);
      expect(refused.code, zip).toBe(1);
      const problem = JSON.parse(refused.stdout) as { violations: Array<{ field: string; reason: string }> };
      expect(problem.violations).toEqual([
        { field: 'deliveryAddress.zipCode', reason: expect.stringMatching(new RegExp(`^ZIP ${zip} is an APO/FPO military mail ZIP \\((AA|AE|AP), Armed Forces`)) },
      ]);
    }
  });

  it('says so in the wizard as the ZIP is typed', () => {
    expect(zipProblem('09001', 'destination', zips)).toMatch(/^ZIP 09001 is an APO\/FPO military mail ZIP \(AE, Armed Forces Europe\).*\(destination\)$/);
    expect(zipProblem('10200', 'destination', zips)).toBe(true);
  });
});
