import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  beyondLtlWarnings,
  distanceBandIndex,
  laneDelivery,
  priceShipment,
  quoteExpirationTime,
  rateComponent,
  rateQuote,
  restampedQuote,
  roundCents,
  weightBreakIndex,
} from '../../src/domain/rating.js';
import type { ZipPlace } from '../../src/domain/zipCode.js';
import { quoteRequestSchema, type RatedOrderComponent } from '../../src/domain/schemas.js';
import { tariffSchema, type Tariff } from '../../src/domain/tariff.js';
import { DEFAULT_CARRIER_HOLIDAYS, estimateDelivery } from '../../src/domain/transit.js';
import { formatFieldPath } from '../../src/domain/validation.js';

const rawTariff = JSON.parse(readFileSync(new URL('../../templates/tariff/default.json', import.meta.url), 'utf8'));
const tariff: Tariff = tariffSchema.parse(rawTariff);

const chicago: ZipPlace = { zipCode: '60601', city: 'Chicago', state: 'IL', latitude: 41.8858, longitude: -87.6181, timeZone: 'America/Chicago' };
const newYork: ZipPlace = { zipCode: '10001', city: 'New York', state: 'NY', latitude: 40.7484, longitude: -73.9967, timeZone: 'America/New_York' };
const anchorage: ZipPlace = { zipCode: '99501', city: 'Anchorage', state: 'AK', latitude: 61.2116, longitude: -149.8761, timeZone: 'America/Anchorage' };
// Sunday 2026-11-22 12:00 UTC: the next business day is Monday 2026-11-23.
const now = new Date('2026-11-22T12:00:00Z');

const request = (overrides: Record<string, unknown> = {}) =>
  quoteRequestSchema.parse({
    pickupAddress: { zipCode: '60601' },
    deliveryAddress: { zipCode: '10001' },
    orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
    ...overrides,
  });

function quote(overrides: Record<string, unknown> = {}, destination = newYork) {
  const rated = rateQuote({ id: 'qt_test', request: request(overrides), origin: chicago, destination, tariff, now });
  if (!rated.ok) throw new Error(JSON.stringify(rated.violations));
  return rated.value;
}

const rated = (poundsWeight: number, freightClass: RatedOrderComponent['freightClass']): RatedOrderComponent => ({
  palletCount: 1,
  poundsWeight,
  dimensions: { length: 48, width: 40, height: 48 },
  description: null,
  nmfcCode: null,
  packagingType: null,
  pieceCount: null,
  hazmat: null,
  densityPcf: 10,
  freightClass,
});

describe('rateQuote', () => {
  it('quotes the five seed fields plus the additive ones', () => {
    const result = quote();
    expect(result).toMatchObject({
      id: 'qt_test',
      transitDays: 3,
      requiredPickupDate: '2026-11-23',
      pickupAddress: { zipCode: '60601', city: 'Chicago', state: 'IL', countryCode: 'US' },
      deliveryAddress: { zipCode: '10001', city: 'New York', state: 'NY', countryCode: 'US' },
      createdAt: now.toISOString(),
    });
    expect(Number.isInteger(result.quotedPriceInCents)).toBe(true);
    // Its pickup day (Monday 11-23 in Chicago) ends before its lifetime (48 h): that is the one moment.
    expect(result.quoteExpirationTime).toBe('2026-11-24T05:59:59.999Z');
    expect(result.estimatedDeliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(result.orderComponents[0]).toMatchObject({ freightClass: '92.5', densityPcf: 11.25 });
    expect(result.miles).toBeGreaterThan(780);
    expect(result.miles).toBeLessThan(900);
  });

  it('prices from the tariff: rate per cwt x weight, discount, fuel, accessorials', () => {
    const result = quote({ accessorials: ['LIFTGATE_DELIVERY'] });
    const band = distanceBandIndex(result.miles, tariff);
    const rate = tariff.ratesPerCwtInCents['92.5']![band]![weightBreakIndex(1200, tariff)]!;
    const linehaul = 12 * rate;
    const discount = Math.round(linehaul * 0.7);
    const fuel = Math.round((linehaul - discount) * 0.3);
    expect(result.priceBreakdown).toEqual({
      linehaulInCents: linehaul,
      discountInCents: discount,
      minimumChargeApplied: false,
      fuelSurchargeInCents: fuel,
      accessorialsInCents: [{ code: 'LIFTGATE_DELIVERY', amountInCents: 7500 }],
      lineLinehaulsInCents: [linehaul],
    });
    expect(result.pricedBy).toEqual({ kind: 'TARIFF', tariff: tariff.name, version: tariff.effectiveDate });
    expect(result.quotedPriceInCents).toBe(linehaul - discount + fuel + 7500);
  });

  it('applies the minimum charge to small shipments, without discount', () => {
    const result = quote({ orderComponents: [{ palletCount: 1, poundsWeight: 50, dimensions: { length: 20, width: 20, height: 20 } }] });
    expect(result.priceBreakdown.minimumChargeApplied).toBe(true);
    expect(result.priceBreakdown.linehaulInCents).toBe(tariff.minimumChargeInCents);
    expect(result.priceBreakdown.discountInCents).toBe(0);
    expect(result.quotedPriceInCents).toBe(tariff.minimumChargeInCents + Math.round(tariff.minimumChargeInCents * 0.3));
  });

  it('gives null transit days and ETA outside coverage, but still a price', () => {
    const result = quote({}, anchorage);
    expect(result.transitDays).toBeNull();
    expect(result.estimatedDeliveryDate).toBeNull();
    expect(result.quotedPriceInCents).toBeGreaterThan(0);
  });

  it('refuses an unknown accessorial and a pickup in the past or on a weekend', () => {
    const result = rateQuote({ id: 'x', request: request({ accessorials: ['TELEPORT'], requiredPickupDate: '2026-11-20' }), origin: chicago, destination: newYork, tariff, now });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.violations.map((violation) => violation.field).sort()).toEqual(['accessorials[0]', 'requiredPickupDate']);
    const weekend = rateQuote({ id: 'x', request: request({ requiredPickupDate: '2026-11-28' }), origin: chicago, destination: newYork, tariff, now });
    expect(!weekend.ok && weekend.violations[0]!.reason).toContain('Saturday');
  });

  it('uses the whole shipment weight to pick the weight break', () => {
    const light = priceShipment([rated(400, '70')], 100, [], tariff);
    const split = priceShipment([rated(400, '70'), rated(400, '70')], 100, [], tariff);
    // 800 lb falls in the 500+ break, so two 400 lb lines cost less than twice one.
    expect(split.linehaulInCents).toBeLessThan(2 * light.linehaulInCents);
  });

  it('rounds each line once and the breakdown always adds up to the price', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ weight: fc.double({ min: 1, max: 20_000, noNaN: true }), cls: fc.constantFrom('50', '70', '92.5', '125', '400' as const) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 3500 }),
        fc.subarray(Object.keys(tariff.accessorials)),
        (lines, miles, accessorials) => {
          const price = priceShipment(
            lines.map((line) => rated(line.weight, line.cls as RatedOrderComponent['freightClass'])),
            miles,
            accessorials,
            tariff,
          );
          const sum =
            price.linehaulInCents - price.discountInCents + price.fuelSurchargeInCents + price.accessorialsInCents.reduce((total, charge) => total + charge.amountInCents, 0);
          expect(price.quotedPriceInCents).toBe(sum);
          for (const value of [price.linehaulInCents, price.discountInCents, price.fuelSurchargeInCents]) expect(Number.isInteger(value)).toBe(true);
          // Without the lines' shares (the freight check's re-rating): the same price, line for line.
          const { lineLinehaulsInCents, ...totals } = price;
          expect(lineLinehaulsInCents).toHaveLength(lines.length);
          expect(
            priceShipment(
              lines.map((line) => rated(line.weight, line.cls as RatedOrderComponent['freightClass'])),
              miles,
              accessorials,
              tariff,
              { lines: false },
            ),
          ).toEqual(totals);
        },
      ),
    );
  });

  it('charges fuel on the net linehaul as printed (rounded), as carriers bill it: the fuel line is rounded once, of the rounded net', () => {
    // Where the two readings differ (fuel of the exact net vs fuel of the printed net), the printed net wins.
    const differing = Array.from({ length: 2_000 }, (_, index) => 2_000 + index / 4)
      .map((weight) => ({ weight, price: priceShipment([rated(weight, '70')], 1_000, [], tariff) }))
      .filter(({ weight, price }) => {
        const exactLinehaul = (weight / 100) * tariff.ratesPerCwtInCents['70']![distanceBandIndex(1_000, tariff)]![weightBreakIndex(weight, tariff)]!;
        const exactNet = exactLinehaul * (1 - tariff.discountPercent / 100);
        return (
          !price.minimumChargeApplied &&
          roundCents((exactNet * tariff.fuelSurchargePercent) / 100) !== roundCents(((price.linehaulInCents - price.discountInCents) * tariff.fuelSurchargePercent) / 100)
        );
      });
    expect(differing.length).toBeGreaterThan(0);
    for (const { price } of differing) {
      expect(price.fuelSurchargeInCents).toBe(roundCents(((price.linehaulInCents - price.discountInCents) * tariff.fuelSurchargePercent) / 100));
    }
  });

  it('rounds halves away from zero', () => {
    expect(roundCents(10.5)).toBe(11);
    expect(roundCents(10.4999)).toBe(10);
    expect(roundCents(-10.5)).toBe(-11);
  });

  it('keeps density to two decimals on the component', () => {
    expect(
      rateComponent({
        palletCount: 3,
        poundsWeight: 1000,
        dimensions: { length: 48, width: 40, height: 47 },
        description: null,
        nmfcCode: null,
        packagingType: null,
        pieceCount: null,
        hazmat: null,
      }).densityPcf,
    ).toBe(6.38);
  });
});

describe('freight beyond standard LTL', () => {
  const line = (palletCount: number, poundsWeight: number, length = 48) => ({ palletCount, poundsWeight, dimensions: { length, width: 40, height: 48 } });

  it('quotes standard LTL without a warning, up to 12 pallets, 20,000 lb and 102 in long', () => {
    expect(beyondLtlWarnings([line(12, 20_000, 102)])).toEqual([]);
    expect(beyondLtlWarnings([line(6, 10_000), line(6, 10_000)])).toEqual([]);
    const rated = rateQuote({ id: 'qt_test', request: request(), origin: chicago, destination: newYork, tariff, now });
    expect(rated.ok && rated.warnings).toEqual([]);
  });

  it('warns one step beyond each edge, naming volume LTL or truckload', () => {
    const messages = (...args: Parameters<typeof beyondLtlWarnings>) => beyondLtlWarnings(...args).map((item) => item.message);
    expect(beyondLtlWarnings([line(7, 5_000), line(6, 5_000)])[0]!.code).toBe('BEYOND_LTL');
    const [pallets] = messages([line(7, 5_000), line(6, 5_000)]);
    expect(pallets).toMatch(/^beyond standard LTL: 13 pallets \(standard LTL takes up to 12\)\. .*volume LTL or truckload/);
    const [weight] = messages([line(2, 20_000.5)]);
    expect(weight).toContain('20,000.5 lb (standard LTL takes up to 20,000 lb)');
    const [length] = messages([line(1, 500), line(1, 500, 102.5)]);
    expect(length).toContain('a unit 102.5 in long, longer than a trailer is wide (102 in) (orderComponents[1].dimensions.length)');
    expect(beyondLtlWarnings([line(30, 45_000, 636)])).toHaveLength(1);
    expect(messages([line(30, 45_000, 636)])[0]).toMatch(/30 pallets.*45,000 lb.*636 in long/);
  });

  it('returns the warning with the quote, which is still priced', () => {
    const rated = rateQuote({
      id: 'qt_test',
      request: request({ orderComponents: [{ palletCount: 26, poundsWeight: 38_000, dimensions: { length: 48, width: 40, height: 60 } }] }),
      origin: chicago,
      destination: newYork,
      tariff,
      now,
    });
    expect(rated.ok).toBe(true);
    if (!rated.ok) return;
    expect(rated.warnings.filter((item) => item.code === 'BEYOND_LTL').map((item) => item.message)).toEqual([
      expect.stringMatching(/26 pallets.*38,000 lb.*volume LTL or truckload/),
    ]);
    expect(Number.isSafeInteger(rated.value.quotedPriceInCents)).toBe(true);
  });
});

describe('prices are safe integers whatever the tariff says', () => {
  const withRate = (rate: number) =>
    tariffSchema.parse({
      ...rawTariff,
      ratesPerCwtInCents: Object.fromEntries(
        Object.entries(rawTariff.ratesPerCwtInCents as Record<string, number[][]>).map(([key, rows]) => [key, rows.map((row) => row.map(() => rate))]),
      ),
    });
  const rateWith = (tariffToUse: Tariff, poundsWeight = 45_000) =>
    rateQuote({
      id: 'qt_test',
      request: request({ orderComponents: [{ palletCount: 1, poundsWeight, dimensions: { length: 48, width: 40, height: 48 } }] }),
      origin: chicago,
      destination: newYork,
      tariff: tariffToUse,
      now,
    });

  it('refuses with a violation, never NaN, Infinity or null, when a rate overflows', () => {
    for (const rate of [1e300, Number.MAX_VALUE, 1e20]) {
      const result = rateWith(withRate(rate));
      expect(result).toEqual({ ok: false, violations: [{ field: 'orderComponents', reason: expect.stringContaining('9,007,199,254,740,991 cents') }] });
    }
  });

  it('prices right up to the largest safe amount', () => {
    // 45,000 lb = 450 cwt; a rate of 1e10 cents per cwt is 4.5e12 cents: large but exact.
    const result = rateWith(withRate(1e10));
    expect(result.ok).toBe(true);
    if (result.ok) expect(Number.isSafeInteger(result.value.quotedPriceInCents)).toBe(true);
  });
});

describe('bands and breaks', () => {
  it('picks the distance band including its upper bound and the open last band', () => {
    expect(distanceBandIndex(0, tariff)).toBe(0);
    expect(distanceBandIndex(250, tariff)).toBe(0);
    expect(distanceBandIndex(251, tariff)).toBe(1);
    expect(distanceBandIndex(99_999, tariff)).toBe(tariff.distanceBands.length - 1);
  });
  it('picks the highest weight break reached', () => {
    expect(weightBreakIndex(499.9, tariff)).toBe(0);
    expect(weightBreakIndex(500, tariff)).toBe(1);
    expect(weightBreakIndex(50_000, tariff)).toBe(tariff.weightBreaks.length - 1);
  });
});

describe('quoteExpirationTime: the one moment a quote can be booked until', () => {
  const lifetime = { quoteLifetimeHours: 168 };
  it('is the end of the pickup day at the origin when that comes first, in the origin’s zone', () => {
    expect(quoteExpirationTime(lifetime, now, '2026-11-23', 'America/Chicago')).toBe('2026-11-24T05:59:59.999Z');
    expect(quoteExpirationTime(lifetime, now, '2026-11-23', 'America/Los_Angeles')).toBe('2026-11-24T07:59:59.999Z');
  });
  it('is the lifetime when the pickup day ends later (a pickup a week or more ahead)', () => {
    expect(quote({ requiredPickupDate: '2026-12-04' }).quoteExpirationTime).toBe(new Date(now.getTime() + 48 * 3_600_000).toISOString());
    // The wire's 2-day validity: the earlier of the two, whichever it is.
    expect(quoteExpirationTime({ quoteLifetimeHours: 48 }, now, '2026-11-30', 'America/Chicago')).toBe('2026-11-24T12:00:00.000Z');
  });
  it('on the boundary: a lifetime ending one millisecond before, at, or after the pickup day’s end gives the earlier', () => {
    const dayEnd = Date.parse('2026-11-24T05:59:59.999Z');
    for (const offset of [-1, 0, 1]) {
      const hours = (dayEnd + offset - now.getTime()) / 3_600_000;
      expect(quoteExpirationTime({ quoteLifetimeHours: hours }, now, '2026-11-23', 'America/Chicago')).toBe(new Date(Math.min(dayEnd, dayEnd + offset)).toISOString());
    }
  });
  it('never outlives what else ends it first (an agreement’s last day)', () => {
    const agreementEnd = Date.parse('2026-11-23T23:59:59.999Z');
    expect(quoteExpirationTime(lifetime, now, '2026-11-23', 'America/Chicago', agreementEnd)).toBe('2026-11-23T23:59:59.999Z');
  });
});

describe('restampedQuote', () => {
  const at = (instant: string, overrides: Record<string, unknown> = {}) => {
    const rated = rateQuote({ id: 'qt_later', request: request(overrides), origin: chicago, destination: newYork, tariff, now: new Date(instant) });
    if (!rated.ok) throw new Error(JSON.stringify(rated.violations));
    return rated.value;
  };
  it('is the quote rating the same request gives later the same day at the origin, with its id and instants', () => {
    // Sunday in Chicago from 06:00Z to 05:59Z the next morning: the pickup day (Monday) is the same.
    for (const overrides of [{}, { requiredPickupDate: '2026-11-24', accessorials: ['LIFTGATE_DELIVERY'] }]) {
      const early = at('2026-11-22T06:00:00Z', overrides);
      const later = new Date('2026-11-23T05:59:00Z');
      expect(restampedQuote({ ...early, id: 'qt_early' }, 'qt_later', tariff, later, chicago.timeZone)).toEqual(at(later.toISOString(), overrides));
    }
  });
  it('keeps the key order of a rated quote (records are written as they are)', () => {
    const early = at('2026-11-22T06:00:00Z');
    expect(Object.keys(restampedQuote(early, 'qt_other', tariff, new Date('2026-11-22T07:00:00Z'), chicago.timeZone))).toEqual(Object.keys(early));
  });
});

describe('tariff validation', () => {
  const problems = (mutate: (copy: any) => void) => {
    const copy = structuredClone(rawTariff);
    mutate(copy);
    const result = tariffSchema.safeParse(copy);
    return result.success ? [] : result.error.issues.map((issue) => `${formatFieldPath(issue.path)}: ${issue.message}`);
  };
  it('accepts the shipped tariff', () => {
    expect(problems(() => undefined)).toEqual([]);
  });
  it('names the bad field of a broken tariff', () => {
    expect(problems((copy) => copy.ratesPerCwtInCents['85'][2].pop())[0]).toMatch(/^ratesPerCwtInCents\.85\[2\]: needs one rate per weight break/);
    expect(problems((copy) => delete copy.ratesPerCwtInCents['400'])[0]).toMatch(/^ratesPerCwtInCents\.400/);
    expect(problems((copy) => (copy.distanceBands[5].maxMiles = 5000))[0]).toMatch(/^distanceBands\[5\]\.maxMiles: the last band must be open-ended/);
    expect(problems((copy) => (copy.deliveryCutoff = '5pm'))[0]).toMatch(/^deliveryCutoff: must be HH:MM/);
    expect(problems((copy) => (copy.discountPercent = 140))[0]).toMatch(/^discountPercent/);
    expect(problems((copy) => (copy.holidays.rules = ['FESTIVUS']))[0]).toMatch(/^holidays\.rules\[0\]/);
  });
});

describe('the members of a quote, in the order stored quotes and shipments have them', () => {
  const LINE = ['palletCount', 'poundsWeight', 'dimensions', 'description', 'nmfcCode', 'packagingType', 'pieceCount', 'hazmat'];
  it('writes a line and the breakdown member by member, as the spreads they replaced did', () => {
    const rated = quote({
      orderComponents: [
        { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } },
        { palletCount: 1, poundsWeight: 300, dimensions: { length: 48, width: 40, height: 40 }, stackable: false },
      ],
    });
    expect(Object.keys(rated.orderComponents[0]!)).toEqual([...LINE, 'densityPcf', 'freightClass']);
    expect(Object.keys(rated.orderComponents[1]!)).toEqual([...LINE, 'stackable', 'densityPcf', 'freightClass']);
    expect(Object.keys(rated.priceBreakdown)).toEqual([
      'linehaulInCents',
      'discountInCents',
      'minimumChargeApplied',
      'fuelSurchargeInCents',
      'accessorialsInCents',
      'lineLinehaulsInCents',
    ]);
    const unshared = priceShipment(rated.orderComponents, rated.miles, [], tariff, { lines: false });
    expect(Object.keys(unshared)).toEqual(['linehaulInCents', 'discountInCents', 'minimumChargeApplied', 'fuelSurchargeInCents', 'accessorialsInCents', 'quotedPriceInCents']);
  });
});

describe('laneDelivery', () => {
  it("answers what estimateDelivery works out, for each calendar and cut-off of its own, past its memory's bound too", () => {
    const calendars = [
      { rules: [...DEFAULT_CARRIER_HOLIDAYS.rules], extraDates: [], removedDates: [] },
      { rules: [...DEFAULT_CARRIER_HOLIDAYS.rules], extraDates: ['2026-12-01', '2026-12-02'], removedDates: [] },
    ];
    const zones = ['America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu'];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(...zones),
        fc.constantFrom('17:00', '12:30'),
        fc.constantFrom(0, 1),
        (day, laneDays, timeZone, deliveryCutoff, calendar) => {
          const pickupDate = new Date(Date.UTC(2026, 10, 1 + day)).toISOString().slice(0, 10);
          const tariff = { deliveryCutoff, holidays: calendars[calendar]! };
          const { transitDays, estimatedDeliveryDate } = estimateDelivery({
            pickupDate,
            transitDays: laneDays,
            destinationTimeZone: timeZone,
            deliveryCutoff,
            calendar: tariff.holidays,
          });
          expect(laneDelivery(pickupDate, laneDays, { timeZone }, tariff)).toEqual({ transitDays, estimatedDeliveryDate });
          // Asked again: the same answer, which the caller cannot change for the next.
          const again = laneDelivery(pickupDate, laneDays, { timeZone }, tariff);
          expect(again).toEqual({ transitDays, estimatedDeliveryDate });
          expect(Object.isFrozen(again)).toBe(true);
        },
      ),
      { numRuns: 6000 },
    );
    // Past the bound of its memory (4,096 answers a calendar): 5,200 lanes of one calendar, then the first ones again.
    const crowded = { deliveryCutoff: '17:00', holidays: { rules: [...DEFAULT_CARRIER_HOLIDAYS.rules], extraDates: [], removedDates: [] } };
    for (const days of [400, 20]) {
      for (let day = 0; day < days; day++) {
        const pickupDate = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
        for (let laneDays = 0; laneDays < 13; laneDays++) {
          const { transitDays, estimatedDeliveryDate } = estimateDelivery({
            pickupDate,
            transitDays: laneDays,
            destinationTimeZone: zones[0]!,
            deliveryCutoff: '17:00',
            calendar: crowded.holidays,
          });
          expect(laneDelivery(pickupDate, laneDays, { timeZone: zones[0]! }, crowded)).toEqual({ transitDays, estimatedDeliveryDate });
        }
      }
    }
    expect(laneDelivery('2026-11-27', null, { timeZone: zones[0]! }, { deliveryCutoff: '17:00', holidays: calendars[0]! })).toEqual({
      transitDays: null,
      estimatedDeliveryDate: null,
    });
  });
});
