/**
 * The freight check's rules on their thresholds: exactly on, just below, just above; the price at
 * stake against the tariff's own rating (priceShipment at the risk class or weight).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFreight, linearInches, type Rerate } from '../../src/domain/freightCheck.js';
import { DEFAULT_INSPECTION_RULES, inspectionRulesSchema } from '../../src/domain/inspectionRules.js';
import { priceShipment, rateComponent, tariffRerate } from '../../src/domain/rating.js';
import type { OrderComponent, RatedOrderComponent } from '../../src/domain/schemas.js';
import { tariffSchema, type Tariff } from '../../src/domain/tariff.js';
import { levelOf, type Warning } from '../../src/domain/warnings.js';

const tariff: Tariff = tariffSchema.parse(JSON.parse(readFileSync(new URL('../../templates/tariff/default.json', import.meta.url), 'utf8')));
const MILES = 800;
const rerate: Rerate = tariffRerate(tariff, MILES, []);

function line(palletCount: number, poundsWeight: number, [length, width, height]: [number, number, number], extra: Partial<OrderComponent> = {}): RatedOrderComponent {
  return rateComponent({
    palletCount,
    poundsWeight,
    dimensions: { length, width, height },
    description: 'Machine parts',
    nmfcCode: null,
    packagingType: null,
    pieceCount: null,
    hazmat: null,
    ...extra,
  });
}

function check(components: RatedOrderComponent[], rules = DEFAULT_INSPECTION_RULES): Warning[] {
  const quotedPriceInCents = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
  return checkFreight({ orderComponents: components, quotedPriceInCents, rules, rerate });
}

const codes = (warnings: Warning[], code: string) => warnings.filter((item) => item.code === code);

/** The price the tariff gives the same freight with line `index` at this class. */
function pricedAtClass(components: RatedOrderComponent[], index: number, freightClass: RatedOrderComponent['freightClass']): number {
  return priceShipment(
    components.map((component, at) => (at === index ? { ...component, freightClass } : component)),
    MILES,
    [],
    tariff,
  ).quotedPriceInCents;
}

describe('DENSITY_MARGIN (+1 in on any side, or 2 % less weight)', () => {
  it("the issue's example: 870 lb on 48x40x52 is class 70, 85 at 53 in high", () => {
    const components = [line(1, 870, [48, 40, 52])];
    const [warned] = codes(check(components), 'DENSITY_MARGIN');
    expect(warned).toMatchObject({ line: 0, detail: { densityPcf: 15.06, freightClass: '70', riskClass: '85', riskDensityPcf: 14.77, changedBy: '1 in more height' } });
    expect(warned!.message).toContain('line 1: 870 lb on 1 pallet of 48x40x52 in is 15.06 pcf, class 70; with 1 in more height (870 lb on 48x40x53 in) it is 14.77 pcf, class 85');
    const quoted = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
    expect(warned!.priceAtStake).toEqual({
      quotedPriceInCents: quoted,
      atRiskPriceInCents: pricedAtClass(components, 0, '85'),
      differenceInCents: pricedAtClass(components, 0, '85') - quoted,
      basis: 'line 1 at class 85',
    });
    expect(warned!.priceAtStake!.differenceInCents).toBeGreaterThan(0);
  });

  // 980 lb on 48x48x48: 1 in more on any side (48x48x49) is exactly 15 pcf, the bottom of class 70.
  it('exactly on the class boundary after the margin: no warning', () => {
    expect(codes(check([line(1, 980, [48, 48, 48])]), 'DENSITY_MARGIN')).toEqual([]);
  });
  it('a pound lighter (just below): the margin crosses into class 85', () => {
    expect(codes(check([line(1, 979, [48, 48, 48])]), 'DENSITY_MARGIN')).toEqual([expect.objectContaining({ detail: expect.objectContaining({ riskClass: '85' }) })]);
  });
  it('a pound heavier (just above): no warning', () => {
    expect(codes(check([line(1, 981, [48, 48, 48])]), 'DENSITY_MARGIN')).toEqual([]);
  });
  it('the weight rule alone: 2 % less weight crosses where an inch does not', () => {
    // 100x100x100 in: an inch is 1 % more cube; 8,797 lb is 15.20 pcf, 15.05 with an inch more, 14.90 with 2 % less weight.
    const rules = inspectionRulesSchema.parse({ densityMargin: { dimensionInches: 1, weightPercent: '2' } });
    const [warned] = codes(check([line(1, 8797, [100, 100, 100])], rules), 'DENSITY_MARGIN');
    expect(warned!.detail).toMatchObject({ changedBy: '2 % less weight', freightClass: '70', riskClass: '85' });
  });
});

describe('NON_STACKABLE_HEIGHT (classed at 96 in high)', () => {
  const unit = (height: number, stackable?: boolean) => [line(1, 400, [48, 40, height], stackable === undefined ? {} : { stackable })];
  it('95 in, not stackable: classed at 96 in, priced at that class', () => {
    const components = unit(95, false);
    const [warned] = codes(check(components), 'NON_STACKABLE_HEIGHT');
    expect(warned).toMatchObject({ line: 0, field: 'orderComponents[0].stackable', detail: { heightInches: 95, ratedHeightInches: 96 } });
    expect(warned!.priceAtStake!.atRiskPriceInCents).toBe(pricedAtClass(components, 0, warned!.detail!.riskClass as RatedOrderComponent['freightClass']));
  });
  it('exactly 96 in and above: nothing to add', () => {
    expect(codes(check(unit(96, false)), 'NON_STACKABLE_HEIGHT')).toEqual([]);
    expect(codes(check(unit(97, false)), 'NON_STACKABLE_HEIGHT')).toEqual([]);
  });
  it('stackable, or not said: no warning', () => {
    expect(codes(check(unit(40, true)), 'NON_STACKABLE_HEIGHT')).toEqual([]);
    expect(codes(check(unit(40)), 'NON_STACKABLE_HEIGHT')).toEqual([]);
  });
  it('48 in high and light: the class at 96 in is far above', () => {
    const [warned] = codes(check(unit(48, false)), 'NON_STACKABLE_HEIGHT');
    expect(warned!.detail).toMatchObject({ freightClass: '125', riskClass: '250' });
    expect(warned!.priceAtStake!.differenceInCents).toBeGreaterThan(0);
  });
});

describe('WIDE_FREIGHT (70 in or wider classed at 96 in wide)', () => {
  const wide = (width: number) => [line(1, 1200, [48, width, 48])];
  it('69 in: none; exactly 70 and 71: classed at 96 in', () => {
    expect(codes(check(wide(69)), 'WIDE_FREIGHT')).toEqual([]);
    for (const width of [70, 71]) {
      const components = wide(width);
      const [warned] = codes(check(components), 'WIDE_FREIGHT');
      expect(warned, `${width} in`).toMatchObject({ line: 0, detail: { widthInches: width, ratedWidthInches: 96 } });
      expect(warned!.priceAtStake!.atRiskPriceInCents).toBe(pricedAtClass(components, 0, warned!.detail!.riskClass as RatedOrderComponent['freightClass']));
    }
  });
  it('96 in or wider is rated as it is', () => {
    expect(codes(check(wide(96)), 'WIDE_FREIGHT')).toEqual([]);
  });
});

describe('CUBIC_CAPACITY (750 cu ft or more below 6 pcf)', () => {
  // 10 x 48x45x60 in = 1,296,000 cu in = 750 cu ft exactly; 4,500 lb is exactly 6 pcf.
  it('750 cu ft at 4,499 lb (below 6 pcf): charged as 4,500 lb at class 125, a minimum charge (never below the quote)', () => {
    const components = [line(10, 4499, [48, 45, 60])];
    const [warned] = codes(check(components), 'CUBIC_CAPACITY');
    expect(warned!.detail).toMatchObject({ cubicFeet: 750, minimumPounds: 4500, minimumCubicFeet: 750, belowDensityPcf: '6', ratedClass: '125' });
    const quoted = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
    const constructed = priceShipment([{ ...components[0]!, poundsWeight: 4500, freightClass: '125' }], MILES, [], tariff).quotedPriceInCents;
    expect(warned!.priceAtStake!.atRiskPriceInCents).toBe(Math.max(quoted, constructed));
    expect(warned!.priceAtStake!.basis).toBe('750 cu ft at 6 pcf: 4,500 lb at class 125');
  });
  it('exactly 6 pcf: none; just under 750 cu ft: none; just over: warned', () => {
    expect(codes(check([line(10, 4500, [48, 45, 60])]), 'CUBIC_CAPACITY')).toEqual([]);
    expect(codes(check([line(10, 3000, [48, 45, 59.9])]), 'CUBIC_CAPACITY')).toEqual([]);
    expect(codes(check([line(10, 3000, [48, 45, 60.1])]), 'CUBIC_CAPACITY')).toHaveLength(1);
    // Whole inches and pounds on both sides of both thresholds, over two lines.
    expect(codes(check([line(5, 2000, [48, 45, 60]), line(5, 2500, [48, 45, 60])]), 'CUBIC_CAPACITY')).toEqual([]);
    expect(codes(check([line(5, 2000, [48, 45, 60]), line(5, 2499, [48, 45, 60])]), 'CUBIC_CAPACITY')).toHaveLength(1);
    expect(codes(check([line(5, 2000, [48, 45, 60]), line(5, 2000, [48, 45, 59])]), 'CUBIC_CAPACITY')).toEqual([]);
  });
  it('agrees with exact arithmetic on random whole and decimal freight, and on rules in decimals', () => {
    // cube >= minimum x 1728 and pounds x 1728 < pcf x cube, in BigInts of tenths.
    const tenths = (value: number) => BigInt(Math.round(value * 10));
    const oracle = (components: RatedOrderComponent[], minimumCubicFeet: number, pcf: string) => {
      const cube = components.reduce(
        (sum, { palletCount, dimensions: { length, width, height } }) => sum + BigInt(palletCount) * tenths(length) * tenths(width) * tenths(height),
        0n,
      );
      const pounds = components.reduce((sum, component) => sum + tenths(component.poundsWeight), 0n);
      const [whole = '0', fraction = ''] = pcf.split('.');
      const pcfScaled = BigInt(whole + fraction);
      const pcfScale = 10n ** BigInt(fraction.length);
      return cube >= tenths(minimumCubicFeet) * 1728n * 100n && pounds * 1728n * 100n * pcfScale < pcfScaled * cube;
    };
    const size = (max: number) =>
      fc.oneof(
        fc.integer({ min: 1, max }),
        fc.integer({ min: 10, max: max * 10 }).map((value) => value / 10),
      );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), size(20_000), size(100), size(100), size(100)), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(750, 100, 100.5),
        fc.constantFrom('6', '2.5', '12.25'),
        (lines, minimumCubicFeet, belowDensityPcf) => {
          const components = lines.map(([pallets, pounds, length, width, height]) => line(pallets, pounds, [length, width, height]));
          const rules = { ...DEFAULT_INSPECTION_RULES, cubicCapacity: { ...DEFAULT_INSPECTION_RULES.cubicCapacity, minimumCubicFeet, belowDensityPcf } };
          expect(codes(check(components, rules), 'CUBIC_CAPACITY').length).toBe(oracle(components, minimumCubicFeet, belowDensityPcf) ? 1 : 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('CUBIC_CAPACITY cubes a non-stackable unit at 96 in (Dugan item 650 B.1) and rates the constructed weight at class 125 (C.1)', () => {
  const pallets = (count: number, pounds: number, stackable?: boolean, height = 55) => [line(count, pounds, [48, 48, height], stackable === undefined ? {} : { stackable })];
  /** A rerate that also says what it was asked to price. */
  function recording() {
    const asked: RatedOrderComponent[][] = [];
    const recorder: Rerate = (components) => {
      asked.push([...components]);
      return rerate(components);
    };
    return { asked, recorder };
  }

  it('6 pallets 48x48x55 at 2,600 lb, not stackable: 768 cu ft at 3.39 pcf, warned beside NON_STACKABLE_HEIGHT (only that was said)', () => {
    const components = pallets(6, 2600, false);
    const { asked, recorder } = recording();
    const quotedPriceInCents = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
    const warnings = checkFreight({ orderComponents: components, quotedPriceInCents, rules: DEFAULT_INSPECTION_RULES, rerate: recorder });
    expect(warnings.map((item) => item.code)).toEqual(expect.arrayContaining(['NON_STACKABLE_HEIGHT', 'CUBIC_CAPACITY']));
    const [warned] = codes(warnings, 'CUBIC_CAPACITY');
    expect(warned!.detail).toEqual({
      cubicFeet: 768,
      densityPcf: 3.39,
      minimumCubicFeet: 750,
      belowDensityPcf: '6',
      minimumPounds: 4608,
      ratedClass: '125',
      nonStackableHeightInches: 96,
    });
    expect(warned!.message).toContain('the shipment takes 768 cu ft (its non-stackable units cubed at 96 in high) at 3.39 pcf');
    expect(warned!.message).toContain('as if it weighed 4,608 lb at class 125');
    // The constructed weight, 768 x 6 = 4,608 lb, at class 125: the price at stake.
    const cubed = asked.find((components) => components.every((component) => component.freightClass === '125'))!;
    expect(cubed.reduce((sum, component) => sum + component.poundsWeight, 0)).toBeCloseTo(4608, 9);
    const constructed = priceShipment([{ ...components[0]!, poundsWeight: 4608, freightClass: '125' }], MILES, [], tariff).quotedPriceInCents;
    expect(constructed).toBeGreaterThan(quotedPriceInCents);
    expect(warned!.priceAtStake).toEqual({
      quotedPriceInCents,
      atRiskPriceInCents: constructed,
      differenceInCents: constructed - quotedPriceInCents,
      basis: '768 cu ft at 6 pcf: 4,608 lb at class 125',
    });
  });

  it('the same freight stackable, or not said: 440 cu ft as declared, no CUBIC_CAPACITY', () => {
    expect(codes(check(pallets(6, 2600, true)), 'CUBIC_CAPACITY')).toEqual([]);
    expect(codes(check(pallets(6, 2600)), 'CUBIC_CAPACITY')).toEqual([]);
  });

  it('on the thresholds at 96 in: exactly 6 pcf (4,608 lb) none, 4,607 lb warned; 5 pallets (640 cu ft) none', () => {
    expect(codes(check(pallets(6, 4608, false)), 'CUBIC_CAPACITY')).toEqual([]);
    expect(codes(check(pallets(6, 4607, false)), 'CUBIC_CAPACITY')).toHaveLength(1);
    expect(codes(check(pallets(5, 2000, false)), 'CUBIC_CAPACITY')).toEqual([]);
  });

  it('a non-stackable unit taller than 96 in is cubed as declared (never lowered)', () => {
    // 6 x 48x48x100 = 800 cu ft; at 96 in it would be 768.
    const [warned] = codes(check(pallets(6, 2600, false, 100)), 'CUBIC_CAPACITY');
    expect(warned!.detail).toMatchObject({ cubicFeet: 800 });
    expect(warned!.detail).not.toHaveProperty('nonStackableHeightInches');
  });

  it("an agreement's inspection names its own class and height: class 100 at 90 in", () => {
    const rules = inspectionRulesSchema.parse({ nonStackableHeightInches: 90, cubicCapacity: { ratedClass: '100' } });
    expect(rules.cubicCapacity).toEqual({ minimumCubicFeet: 750, belowDensityPcf: '6', ratedClass: '100' });
    // 7 x 48x48x90 = 840 cu ft at 2,600 lb (3.1 pcf).
    const [warned] = codes(check(pallets(7, 2600, false), rules), 'CUBIC_CAPACITY');
    expect(warned!.detail).toMatchObject({ cubicFeet: 840, minimumPounds: 5040, ratedClass: '100', nonStackableHeightInches: 90 });
    expect(warned!.priceAtStake!.basis).toBe('840 cu ft at 6 pcf: 5,040 lb at class 100');
  });

  it('refuses a rated class no re-rate can price (77.5, "125.0", a number)', () => {
    for (const ratedClass of ['77.5', '125.0', 125]) expect(inspectionRulesSchema.safeParse({ cubicCapacity: { ratedClass } }).success, String(ratedClass)).toBe(false);
  });

  it('a minimum charge never lowers the price: 4,400 lb of class 175 on 750 cu ft costs more than 4,500 lb at class 125, so $0.00 is at stake', () => {
    const components = [line(10, 4400, [48, 45, 60])];
    const quoted = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
    const constructed = priceShipment([{ ...components[0]!, poundsWeight: 4500, freightClass: '125' }], MILES, [], tariff).quotedPriceInCents;
    expect(components[0]!.freightClass).toBe('175');
    expect(constructed).toBeLessThan(quoted);
    const [warned] = codes(check(components), 'CUBIC_CAPACITY');
    expect(warned!.priceAtStake).toMatchObject({ quotedPriceInCents: quoted, atRiskPriceInCents: quoted, differenceInCents: 0 });
  });
});

describe('LINEAR_FEET (over 12 ft of trailer)', () => {
  const pallets = (count: number, length: number, extra: Partial<OrderComponent> = {}) => [line(count, count * 500, [length, 40, 48], extra)];
  it('6 pallets of 48 in, two across: exactly 12 ft, none; 47 in: none; 48.5 in: warned', () => {
    expect(linearInches(pallets(6, 48), DEFAULT_INSPECTION_RULES.linearFeet)).toBe(144);
    expect(codes(check(pallets(6, 48)), 'LINEAR_FEET')).toEqual([]);
    expect(codes(check(pallets(6, 47)), 'LINEAR_FEET')).toEqual([]);
    expect(codes(check(pallets(6, 48.5)), 'LINEAR_FEET')).toEqual([expect.objectContaining({ detail: expect.objectContaining({ linearFeet: 12.13 }) })]);
  });
  it('7 pallets take 16 ft (the rows of the recon example), priced at 1,000 lb per foot', () => {
    const components = pallets(7, 48);
    const [warned] = codes(check(components), 'LINEAR_FEET');
    expect(warned!.detail).toMatchObject({ linearFeet: 16, minimumPounds: 16000 });
    expect(warned!.message).toMatch(/volume LTL or truckload/);
    expect(warned!.priceAtStake!.atRiskPriceInCents).toBe(priceShipment([{ ...components[0]!, poundsWeight: 16000 }], MILES, [], tariff).quotedPriceInCents);
  });
  it('stackable pallets stack two high under the trailer roof; 60 in wide units go one per row', () => {
    expect(linearInches([line(12, 6000, [48, 40, 48], { stackable: true })], DEFAULT_INSPECTION_RULES.linearFeet)).toBe(144);
    expect(linearInches([line(12, 6000, [48, 40, 60], { stackable: true })], DEFAULT_INSPECTION_RULES.linearFeet)).toBe(288);
    expect(linearInches([line(2, 1000, [48, 60, 48])], DEFAULT_INSPECTION_RULES.linearFeet)).toBe(96);
  });
});

describe('OVERLENGTH (from 96 in, bands 8, 12, 16, 20 ft)', () => {
  it('95 in: none; 96 in: the 8 ft band fee; 144 in: 12 ft; 240 in: 20 ft', () => {
    expect(codes(check([line(1, 500, [95, 40, 40])]), 'OVERLENGTH')).toEqual([]);
    for (const [inches, band, fee] of [
      [96, 8, 9000],
      [97, 8, 9000],
      [144, 12, 12500],
      [240, 20, 19500],
    ] as const) {
      const components = [line(1, 500, [inches, 40, 40])];
      const [warned] = codes(check(components), 'OVERLENGTH');
      const quoted = priceShipment(components, MILES, [], tariff).quotedPriceInCents;
      expect(warned, `${inches} in`).toMatchObject({ line: 0, detail: { lengthInches: inches, bandFeet: band, feeInCents: fee } });
      expect(warned!.priceAtStake).toMatchObject({ quotedPriceInCents: quoted, atRiskPriceInCents: quoted + fee, differenceInCents: fee });
    }
  });
});

describe('NO_DESCRIPTION (class 125 where there is no description and no NMFC)', () => {
  it('a line with neither: priced at class 125; a description or an NMFC code: none', () => {
    const components = [line(1, 1000, [48, 40, 48], { description: null })];
    const [warned] = codes(check(components), 'NO_DESCRIPTION');
    expect(warned).toMatchObject({ line: 0, detail: { freightClass: '70', inspectorClass: '125', riskClass: '125' } });
    expect(warned!.priceAtStake!.atRiskPriceInCents).toBe(pricedAtClass(components, 0, '125'));
    expect(codes(check([line(1, 1000, [48, 40, 48], { description: null, nmfcCode: '161030' })]), 'NO_DESCRIPTION')).toEqual([]);
    expect(codes(check([line(1, 1000, [48, 40, 48])]), 'NO_DESCRIPTION')).toEqual([]);
  });
});

describe('levels and the absurd', () => {
  it('DENSITY_MARGIN and NO_DESCRIPTION are warn, the rules met as declared are risk, the others info', () => {
    expect(['DENSITY_MARGIN', 'NO_DESCRIPTION'].map(levelOf)).toEqual(['warn', 'warn']);
    expect(['NON_STACKABLE_HEIGHT', 'WIDE_FREIGHT', 'CUBIC_CAPACITY', 'LINEAR_FEET', 'OVERLENGTH'].map(levelOf)).toEqual(['risk', 'risk', 'risk', 'risk', 'risk']);
    expect(levelOf('BEYOND_LTL')).toBe('info');
  });
  it('without a rerate there is no price at stake, and a rerate that cannot price leaves it out', () => {
    const components = [line(1, 870, [48, 40, 52])];
    expect(checkFreight({ orderComponents: components, quotedPriceInCents: 100, rules: DEFAULT_INSPECTION_RULES })[0]).not.toHaveProperty('priceAtStake');
    expect(checkFreight({ orderComponents: components, quotedPriceInCents: 100, rules: DEFAULT_INSPECTION_RULES, rerate: () => null })[0]).not.toHaveProperty('priceAtStake');
  });
  it('well-declared freight earns nothing', () => {
    expect(check([line(2, 1200, [48, 40, 48])])).toEqual([]);
  });
});
