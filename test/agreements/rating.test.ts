import { describe, expect, it } from 'vitest';
import { agreementSchema } from '../../src/domain/agreements/agreement.js';
import { parseBaseRates } from '../../src/domain/agreements/baseRates.js';
import { fuelPercentFor, fuelTableSchema, indexMondayFor, indexPriceFor, versionInForce } from '../../src/domain/agreements/fuel.js';
import { priceWithAgreement, type CarrierAgreement } from '../../src/domain/agreements/rateAgreement.js';
import { toDecimalString } from '../../src/domain/agreements/ratio.js';
import { FREIGHT_CLASSES, NMFC_CLASSES } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';
import { FUEL_TABLE, WORKED_AGREEMENT, WORKED_BASE_RATES } from './fixtures.js';

function carrierOf(overrides: Record<string, unknown> = {}, rates = WORKED_BASE_RATES): CarrierAgreement {
  const { table, faults } = parseBaseRates(rates);
  expect(faults).toEqual([]);
  return { name: 'tstc', agreement: agreementSchema.parse({ ...WORKED_AGREEMENT, ...overrides }), baseRates: table, fuel: fuelTableSchema.parse(FUEL_TABLE) };
}
const prices = new Map([['2026-11-30', 3712]]);
const freight = (poundsWeight: number, freightClass: string) => ({ poundsWeight, freightClass, dimensions: { length: 48, width: 40, height: 48 } }) as never;

describe('the worked examples of issue 25 (60601 -> 10001, 72 %, AMC $125.00, fuel 32.45 %)', () => {
  it('4,200 lb class 85 as FAK 70: rated as 5,000 lb at M5C, discount, fuel and a notify charge add up to $982.78', () => {
    const outcome = priceWithAgreement({
      carrier: carrierOf(),
      components: [freight(4200, '85')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: ['NOTIFY'],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    const { price } = outcome;
    expect(price.rating).toMatchObject({
      ratedAsPounds: 5000,
      weightBreak: 'M5M',
      grossInCents: 249900,
      discountInCents: 179928,
      netLinehaulInCents: 69972,
      minimumApplied: 'NONE',
    });
    expect(price.rating.lines).toEqual([{ actualClass: '85', ratedClass: '70' }]);
    expect(price.rating.fuel).toMatchObject({ indexWeek: '2026-11-30', week: '2026-11-30', percent: '32.45', usdPerGallon: '3.712' });
    expect(price.fuelSurchargeInCents).toBe(22706);
    expect(price.quotedPriceInCents).toBe(98278);
    expect(price.linehaulInCents - price.discountInCents + price.fuelSurchargeInCents + 5600).toBe(price.quotedPriceInCents);
    expect(price.lineLinehaulsInCents).toEqual([249900]);
  });

  it('without deficit rating the actual weight at M2M is kept: gross $2,655.24', () => {
    const outcome = priceWithAgreement({
      carrier: carrierOf({ deficitRating: false }),
      components: [freight(4200, '85')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.price.rating).toMatchObject({ ratedAsPounds: 4200, weightBreak: 'M2M', grossInCents: 265524 });
  });

  it('300 lb class 125 at L5C $130.10: net $109.28 raised to the AMC $125.00, fuel $40.56, total $165.56', () => {
    const outcome = priceWithAgreement({
      carrier: carrierOf(),
      components: [freight(300, '125')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    const { price } = outcome;
    expect(price.rating).toMatchObject({ grossInCents: 39030, discountInCents: 28102, netLinehaulInCents: 12500, minimumApplied: 'AMC', weightBreak: 'L5C' });
    expect(price.fuelSurchargeInCents).toBe(4056);
    expect(price.quotedPriceInCents).toBe(16556);
    expect(price.linehaulInCents - price.discountInCents + price.fuelSurchargeInCents).toBe(16556);
  });
});

describe('rating rules', () => {
  it('per-break discounts take the discount of the break used, and MC is discounted by byBreak.MC', () => {
    const byBreak = { MC: '10', L5C: '50', M5C: '60', M1M: '61', M2M: '62', M5M: '65', M10M: '66', M20M: '67', M30M: '68', M40M: '69' };
    const outcome = priceWithAgreement({
      carrier: carrierOf({ discount: { byBreak }, absoluteMinimumChargeInCents: 0, deficitRating: false }),
      components: [freight(1200, '70')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: new Map(),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    // 12 cwt x 7015 = 84180; 61 % off = 51350 (51349.8); net 32830.
    expect(outcome.price.rating).toMatchObject({ weightBreak: 'M1M', discountPercent: '61', grossInCents: 84180, discountInCents: 51350, netLinehaulInCents: 32830 });
  });

  it('the carrier minimum charge (MC) applies when above the discounted charge and the AMC', () => {
    const outcome = priceWithAgreement({
      carrier: carrierOf({ absoluteMinimumChargeInCents: 5000 }),
      components: [freight(100, '70')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: new Map(),
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.price.rating).toMatchObject({ minimumApplied: 'MC', netLinehaulInCents: 9500 });
    expect(outcome.price).toMatchObject({ linehaulInCents: 9500, discountInCents: 0, minimumChargeApplied: true });
  });

  it('an uncovered lane or class is a reason, not a price', () => {
    const lane = priceWithAgreement({
      carrier: carrierOf(),
      components: [freight(300, '70')],
      originZip: '90210',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    expect(lane).toEqual({ ok: false, reason: 'no base rates for lane 902 -> 100' });
    const cls = priceWithAgreement({
      carrier: carrierOf(),
      components: [freight(300, '400')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    expect(cls).toEqual({ ok: false, reason: 'no base rates for class 400 on lane 606 -> 100' });
  });
});

describe('fuel weeks and table versions', () => {
  const table = fuelTableSchema.parse({
    ...FUEL_TABLE,
    versions: [...FUEL_TABLE.versions, { from: '2026-12-01', bands: [{ atLeastMills: 3700, lessThanMills: 3750, percent: '30' }] }],
  });
  it('the index Monday is the latest with M + 2 days on or before the pickup date', () => {
    expect(indexMondayFor('2026-12-02', 2)).toBe('2026-11-30'); // Wednesday: this week's Monday
    expect(indexMondayFor('2026-12-01', 2)).toBe('2026-11-23'); // Tuesday: last week's
    expect(indexMondayFor('2026-11-30', 0)).toBe('2026-11-30');
  });
  it('the version in force on the pickup date prices it', () => {
    expect(versionInForce(table, '2026-11-30')!.from).toBe('2026-01-01');
    expect(versionInForce(table, '2026-12-01')!.from).toBe('2026-12-01');
    expect(versionInForce(table, '2025-12-31')).toBeUndefined();
  });
  it('below and above the bands, steps of 50 mills take off or add 0.40 points, never below 0', () => {
    const version = table.versions[0]!;
    expect(toDecimalString(fuelPercentFor(version, 3700))).toBe('32.45');
    expect(toDecimalString(fuelPercentFor(version, 3649))).toBe('31.65');
    expect(toDecimalString(fuelPercentFor(version, 3600))).toBe('31.65');
    expect(toDecimalString(fuelPercentFor(version, 3599))).toBe('31.25');
    expect(toDecimalString(fuelPercentFor(version, 3750))).toBe('32.85');
    expect(toDecimalString(fuelPercentFor(version, 3800))).toBe('33.25');
    expect(toDecimalString(fuelPercentFor(version, 0))).toBe('2.85');
    const low = { from: '2026-01-01', bands: [{ atLeastMills: 3000, lessThanMills: 3050, percent: '0.50' }], below: { stepMills: 50, stepPercent: '0.40' } };
    expect(toDecimalString(fuelPercentFor(low, 2950))).toBe('0.1');
    expect(toDecimalString(fuelPercentFor(low, 2900))).toBe('0');
    expect(toDecimalString(fuelPercentFor({ ...low, below: undefined }, 2999))).toBe('0');
    expect(toDecimalString(fuelPercentFor(low, 9999))).toBe('0.5');
  });
  it('a missing index week takes the last price before it; more than 14 days old is stale', () => {
    const history = new Map([
      ['2026-11-09', 3650],
      ['2026-11-16', 3700],
    ]);
    expect(indexPriceFor(history, '2026-11-23')).toMatchObject({ week: '2026-11-16', substituted: true, stale: false });
    expect(indexPriceFor(history, '2026-12-07')).toMatchObject({ week: '2026-11-16', substituted: true, stale: true });
    expect(indexPriceFor(history, '2026-11-02')).toBeUndefined();
  });
});

describe('base-rates.csv and agreement.json faults', () => {
  it('two equally specific rows for one lane and class are a fault at the later line', () => {
    const { faults } = parseBaseRates(`${WORKED_BASE_RATES}\n600-629,100-119,125,1,1,1,1,1,1,1,1,1,1\n610-639,110-129,125,1,1,1,1,1,1,1,1,1,1`);
    expect(faults).toEqual([
      { line: 4, message: expect.stringContaining('as specific as line 3 for class 125 on lane 600-629 -> 100-119') },
      { line: 5, message: expect.stringContaining('for class 125 on lane 610-629 -> 110-119') },
    ]);
  });
  it('a narrower row wins over a wider one; different widths never conflict', () => {
    const { table, faults } = parseBaseRates(`${WORKED_BASE_RATES}\n606,100-119,125,1,2,2,2,2,2,2,2,2,2\n606,100,125,1,3,3,3,3,3,3,3,3,3`);
    expect(faults).toEqual([]);
    expect(table.lane(606, 100).get('125')!.perCwtInCents.L5C).toBe(3);
    expect(table.lane(606, 101).get('125')!.perCwtInCents.L5C).toBe(2);
    expect(table.lane(607, 101).get('125')!.perCwtInCents.L5C).toBe(13010);
  });
  it('bad cells are named by line and column', () => {
    const { faults } = parseBaseRates(`${WORKED_BASE_RATES}\n6060,100,77,x,1,1,1,1,1,1,1,1,0`);
    expect(faults).toHaveLength(1);
    expect(faults[0]!.line).toBe(4);
    expect(faults[0]!.message).toMatch(/origin_zip3 "6060".*class "77" is not an NMFC class \(50, 55, 60, 65, 70, 77.5, 85, .*, 500\).*MC "x".*M40M is 0/);
  });
  it('unknown keys of agreement.json are refused with a did-you-mean', () => {
    const parsed = parseRequest(agreementSchema, { ...WORKED_AGREEMENT, deficitRatng: true });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.violations).toContainEqual({ field: 'deficitRatng', reason: 'unknown field deficitRatng (did you mean deficitRating?)' });
  });
});

describe('all 18 NMFC classes in agreements (issue 39, item 11: 77.5 was refused as "not a class of the 13-subprovision scale")', () => {
  const ROW = '9500,9000,8100,7500,6800,5400,4900,4600,4400,4300';

  it('a FAK list, its ratedAs and base-rate rows take every one of the 18 classes; density still yields the 13', () => {
    expect(NMFC_CLASSES).toHaveLength(18);
    expect(FREIGHT_CLASSES).toHaveLength(13);
    expect(FREIGHT_CLASSES.every((name) => (NMFC_CLASSES as readonly string[]).includes(name))).toBe(true);
    for (const ratedAs of NMFC_CLASSES) {
      const parsed = parseRequest(agreementSchema, { ...WORKED_AGREEMENT, fak: [{ classes: [...NMFC_CLASSES], ratedAs }] });
      expect(parsed.ok, ratedAs).toBe(true);
    }
    const { table, faults } = parseBaseRates([WORKED_BASE_RATES.split('\n')[0], ...NMFC_CLASSES.map((name) => `606,100,${name},${ROW}`)].join('\n'));
    expect(faults).toEqual([]);
    expect([...table.lane(606, 100).keys()].sort()).toEqual([...NMFC_CLASSES].sort());
    expect(table.lane(606, 100).get('77.5')!.line).toBe(7);
  });

  it('refuses what is not an NMFC class, naming the 18: 77, 80, 77.50, 600, a number', () => {
    for (const bad of ['77', '80', '77.50', '600', 77.5]) {
      const parsed = parseRequest(agreementSchema, { ...WORKED_AGREEMENT, fak: [{ classes: ['70', bad], ratedAs: '77.5' }] });
      expect(parsed.ok, String(bad)).toBe(false);
      if (!parsed.ok)
        expect(parsed.violations[0]!.reason).toContain('an NMFC class, written as a string: 50, 55, 60, 65, 70, 77.5, 85, 92.5, 100, 110, 125, 150, 175, 200, 250, 300, 400, 500');
    }
  });

  it('4,200 lb class 85 rated as FAK 77.5 from the 77.5 row: M5M 50 cwt x $54.00 = $2,700.00, 72 % off, fuel 32.45 %: $1,001.32', () => {
    const carrier = carrierOf({ fak: [{ classes: ['50', '55', '60', '65', '70', '77.5', '85'], ratedAs: '77.5' }] }, `${WORKED_BASE_RATES}\n606,100,77.5,${ROW}`);
    const outcome = priceWithAgreement({
      carrier,
      components: [freight(4200, '85')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.price.rating).toMatchObject({ ratedAsPounds: 5000, weightBreak: 'M5M', grossInCents: 270000, discountInCents: 194400, netLinehaulInCents: 75600 });
    expect(outcome.price.rating.lines).toEqual([{ actualClass: '85', ratedClass: '77.5' }]);
    // 32.45 % of $756.00 = $245.322 -> $245.32.
    expect(outcome.price.fuelSurchargeInCents).toBe(24532);
    expect(outcome.price.quotedPriceInCents).toBe(100132);
  });

  it('a FAK to 77.5 on a lane without a 77.5 row is a reason, not a price', () => {
    const carrier = carrierOf({ fak: [{ classes: ['85'], ratedAs: '77.5' }] });
    const outcome = priceWithAgreement({
      carrier,
      components: [freight(4200, '85')],
      originZip: '60601',
      destinationZip: '10001',
      accessorials: [],
      pickupDate: '2026-12-02',
      fuelPrices: prices,
    });
    expect(outcome).toEqual({ ok: false, reason: 'no base rates for class 77.5 on lane 606 -> 100' });
  });
});
