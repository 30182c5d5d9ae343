import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkComponent,
  fitsWithin,
  orderPalletViolations,
  palletSizeOf,
  PUBLISHED_LIMITS,
  publishedLimits,
  quoteValidUntil,
  type ComponentInput,
} from '../../src/domain/publishedLimits.js';
import { WARNING_CODES } from '../../src/domain/warnings.js';

const component = (overrides: Partial<ComponentInput> = {}): ComponentInput => ({
  palletCount: 1,
  poundsWeight: 500,
  dimensions: { length: 48, width: 40, height: 48 },
  ...overrides,
});
const check = (overrides: Partial<ComponentInput> = {}, liftgateRequired = false, index = 0) => checkComponent(component(overrides), { index, liftgateRequired });
const codes = (result: { warnings: Array<{ code: string }> }) => result.warnings.map((item) => item.code);

describe('the published limits and defaults', () => {
  it('are the published values', () => {
    expect(PUBLISHED_LIMITS).toEqual({
      quoteValidDays: 2,
      minPalletsPerOrder: 1,
      maxPalletsPerOrder: 51,
      minPoundsPerPallet: 1,
      maxPoundsPerPallet: 2500,
      standardPallet: { length: 60, width: 52, height: 94 },
      liftgatePallet: { length: 62, width: 62, height: 94 },
      oversizePallet: { length: 95, width: 95, height: 96 },
      defaultPallet: { length: 40, width: 48, height: 60 },
      defaultOpenTime: '10:00',
      defaultCloseTime: '16:00',
    });
    expect(Object.isFrozen(PUBLISHED_LIMITS) && Object.isFrozen(PUBLISHED_LIMITS.standardPallet)).toBe(true);
  });

  it('take a caller’s overrides, an undefined one leaving the default', () => {
    const limits = publishedLimits({ maxPalletsPerOrder: 26, quoteValidDays: undefined });
    expect(limits.maxPalletsPerOrder).toBe(26);
    expect(limits.quoteValidDays).toBe(2);
    expect(PUBLISHED_LIMITS.maxPalletsPerOrder).toBe(51);
    expect(publishedLimits()).toEqual(PUBLISHED_LIMITS);
  });

  it('a quote is valid for 2 days from its creation, or what the caller set', () => {
    expect(quoteValidUntil(new Date('2026-11-23T16:00:00.000Z'))).toBe('2026-11-25T16:00:00.000Z');
    expect(quoteValidUntil(new Date('2026-11-23T16:00:00.000Z'), { quoteValidDays: 7 })).toBe('2026-11-30T16:00:00.000Z');
  });

  it('the new warning codes are declared', () => {
    expect(WARNING_CODES).toContain('OVERSIZE_PALLET');
    expect(WARNING_CODES).toContain('DIMENSIONS_ASSUMED');
  });
});

describe('pallets per order', () => {
  it.each([
    [[1], []],
    [[51], []],
    [[25, 26], []],
    [[50, 1], []],
  ])('%j pallets pass', (counts, expected) => {
    expect(orderPalletViolations(counts.map((palletCount) => ({ palletCount })))).toEqual(expected);
  });

  it('52 pallets in all are one violation, on orderComponents', () => {
    expect(orderPalletViolations([{ palletCount: 26 }, { palletCount: 26 }])).toEqual([
      { field: 'orderComponents', reason: 'the order components have 52 pallets together; an order has at most 51 pallets' },
    ]);
  });

  it('no component, or none with a pallet, is an order without pallets', () => {
    expect(orderPalletViolations([])).toEqual([{ field: 'orderComponents', reason: 'the order has 0 pallets; it needs at least 1 pallet' }]);
    expect(orderPalletViolations([{ palletCount: 0 }])).toHaveLength(1);
  });

  it('a count that is not a number adds nothing (its own component is named for it)', () => {
    expect(orderPalletViolations([{ palletCount: Number.NaN }, { palletCount: 2 }])).toEqual([]);
  });

  it('by the caller’s limits', () => {
    expect(orderPalletViolations([{ palletCount: 27 }], publishedLimits({ maxPalletsPerOrder: 26 }))).toHaveLength(1);
  });
});

describe('a component: pallets and weight per pallet', () => {
  it('one pallet of 500 lb, 48x40x48 in: nothing to say', () => {
    expect(check()).toEqual({ dimensions: { length: 48, width: 40, height: 48 }, violations: [], warnings: [] });
  });

  it.each([0, -1, 1.5, Number.NaN])('palletCount %s is refused; the weight per pallet is not judged on it', (palletCount) => {
    expect(check({ palletCount, poundsWeight: 100_000 }).violations).toEqual([
      { field: 'orderComponents[0].palletCount', reason: `palletCount must be a whole number of at least 1 (got ${palletCount})` },
    ]);
  });

  // poundsWeight is the component's total: the weight of one pallet is poundsWeight / palletCount.
  it.each([
    [1, 1],
    [1, 2500],
    [3, 7500],
    [3, 3],
    [2, 2.5],
    [51, 127_500],
  ])('%s pallets weighing %s lb in all pass', (palletCount, poundsWeight) => {
    expect(check({ palletCount, poundsWeight }).violations).toEqual([]);
  });

  it('2,501 lb on one pallet is over, and the reason says the weight is the component’s', () => {
    expect(check({ poundsWeight: 2501 }, false, 2).violations).toEqual([
      {
        field: 'orderComponents[2].poundsWeight',
        reason: "2,501 lb on 1 pallet is 2,501 lb per pallet; a pallet weighs at most 2,500 lb (poundsWeight is the weight of all the component's pallets)",
      },
    ]);
  });

  it('7,501 lb on 3 pallets is over (2,500.33 lb each); 7,500 is not', () => {
    expect(check({ palletCount: 3, poundsWeight: 7501 }).violations[0]?.reason).toMatch(/^7,501 lb on 3 pallets is 2,500.33 lb per pallet; a pallet weighs at most 2,500 lb/);
    expect(check({ palletCount: 3, poundsWeight: 7500 }).violations).toEqual([]);
  });

  it('under 1 lb per pallet is under: 0.5 lb on 1 pallet, 2 lb on 3', () => {
    expect(check({ poundsWeight: 0.5 }).violations[0]).toEqual({
      field: 'orderComponents[0].poundsWeight',
      reason: "0.5 lb on 1 pallet is 0.5 lb per pallet; a pallet weighs at least 1 lb (poundsWeight is the weight of all the component's pallets)",
    });
    expect(check({ palletCount: 3, poundsWeight: 2 }).violations).toHaveLength(1);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('a weight of %s is refused as no number', (poundsWeight) => {
    expect(check({ poundsWeight }).violations).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: `poundsWeight must be a number of pounds (got ${poundsWeight})` }]);
  });

  it('any weight per pallet within 1 to 2,500 lb passes, any outside it is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 51 }), fc.double({ min: 0, max: 5000, noNaN: true }), (palletCount, perPallet) => {
        const poundsWeight = Math.round(perPallet * palletCount * 100) / 100;
        const within = poundsWeight >= palletCount && poundsWeight <= 2500 * palletCount;
        expect(check({ palletCount, poundsWeight }).violations.length === 0).toBe(within);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a component: pallet size', () => {
  it('fits within a limit on it, with the footprint turned, the height as it is', () => {
    expect(fitsWithin({ length: 60, width: 52, height: 94 }, PUBLISHED_LIMITS.standardPallet)).toBe(true);
    expect(fitsWithin({ length: 52, width: 60, height: 94 }, PUBLISHED_LIMITS.standardPallet)).toBe(true);
    expect(fitsWithin({ length: 61, width: 52, height: 94 }, PUBLISHED_LIMITS.standardPallet)).toBe(false);
    expect(fitsWithin({ length: 60, width: 53, height: 94 }, PUBLISHED_LIMITS.standardPallet)).toBe(false);
    expect(fitsWithin({ length: 60, width: 52, height: 94.5 }, PUBLISHED_LIMITS.standardPallet)).toBe(false);
    expect(fitsWithin({ length: 94, width: 52, height: 60 }, PUBLISHED_LIMITS.standardPallet)).toBe(false);
  });

  it.each([
    [{ length: 48, width: 40, height: 48 }, []],
    [{ length: 60, width: 52, height: 94 }, []],
    [{ length: 52, width: 60, height: 94 }, []],
    [{ length: 61, width: 52, height: 94 }, ['OVERSIZE_PALLET']],
    [{ length: 60, width: 53, height: 94 }, ['OVERSIZE_PALLET']],
    [{ length: 60, width: 52, height: 95 }, ['OVERSIZE_PALLET']],
    [{ length: 95, width: 95, height: 96 }, ['OVERSIZE_PALLET']],
  ])('%j without a liftgate: warnings %j, no violation', (dimensions, expected) => {
    const result = check({ dimensions });
    expect(result.violations).toEqual([]);
    expect(codes(result)).toEqual(expected);
  });

  it('beyond the standard size: OVERSIZE_PALLET with the pallet, its line and the standard size', () => {
    expect(check({ dimensions: { length: 72, width: 48, height: 60 } }, false, 1).warnings).toEqual([
      {
        code: 'OVERSIZE_PALLET',
        message: 'line 2: a pallet of 72x48x60 in is beyond the standard 60x52x94 in: it is charged as oversize',
        field: 'orderComponents[1].dimensions',
        line: 1,
        detail: { length: 72, width: 48, height: 60, standardLength: 60, standardWidth: 52, standardHeight: 94 },
      },
    ]);
  });

  it.each([
    { length: 96, width: 48, height: 48 },
    { length: 48, width: 96, height: 48 },
    { length: 95, width: 95, height: 97 },
    { length: 95.5, width: 40, height: 40 },
  ])('%j is beyond 95x95x96 in: a violation, and no oversize warning', (dimensions) => {
    const result = check({ dimensions }, false, 3);
    expect(result.violations).toEqual([
      {
        field: 'orderComponents[3].dimensions',
        reason: `a pallet of ${dimensions.length}x${dimensions.width}x${dimensions.height} in is beyond 95x95x96 in, the largest pallet carried`,
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it.each([
    [{ length: 48, width: 40, height: 48 }, [], []],
    [{ length: 62, width: 62, height: 94 }, [], ['OVERSIZE_PALLET']],
    [{ length: 61, width: 52, height: 90 }, [], ['OVERSIZE_PALLET']],
    [{ length: 63, width: 40, height: 48 }, ['orderComponents[0].dimensions'], []],
    [{ length: 48, width: 40, height: 95 }, ['orderComponents[0].dimensions'], []],
  ])('%j with a liftgate: violations on %j, warnings %j', (dimensions, fields, warned) => {
    const result = check({ dimensions }, true);
    expect(result.violations.map((item) => item.field)).toEqual(fields);
    expect(codes(result)).toEqual(warned);
  });

  it('the liftgate violation says why', () => {
    expect(check({ dimensions: { length: 70, width: 48, height: 60 } }, true).violations[0]?.reason).toBe(
      'a pallet of 70x48x60 in is beyond 62x62x94 in, the largest a liftgate takes (a stop has liftgateRequired)',
    );
  });

  it('beyond 95x95x96 in with a liftgate: the largest limit is named, once', () => {
    expect(check({ dimensions: { length: 100, width: 48, height: 60 } }, true).violations.map((item) => item.reason)).toEqual([
      'a pallet of 100x48x60 in is beyond 95x95x96 in, the largest pallet carried',
    ]);
  });

  it('names the field the dimensions came from when the caller says so', () => {
    const result = checkComponent(component({ dimensions: { length: 100, width: 48, height: 60 } }), { index: 0, dimensionsField: 'palletDimensions' });
    expect(result.violations[0]?.field).toBe('orderComponents[0].palletDimensions');
  });

  it('by the caller’s limits', () => {
    const limits = publishedLimits({ standardPallet: { length: 48, width: 48, height: 72 } });
    expect(codes(checkComponent(component({ dimensions: { length: 50, width: 40, height: 48 } }), { index: 0, limits }))).toEqual(['OVERSIZE_PALLET']);
  });
});

describe('a component without dimensions', () => {
  it.each([undefined, null])('dimensions %s: 40x48x60 in, with DIMENSIONS_ASSUMED', (dimensions) => {
    const result = check({ dimensions });
    expect(result.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect(result.violations).toEqual([]);
    expect(result.warnings).toEqual([
      {
        code: 'DIMENSIONS_ASSUMED',
        message: 'line 1: orderComponents[0].dimensions was not given: each pallet is taken as 40x48x60 in, and its class rests on that assumption; send the measured dimensions',
        field: 'orderComponents[0].dimensions',
        line: 0,
        detail: { length: 40, width: 48, height: 60 },
      },
    ]);
  });

  it('a dimensions object missing a measure is set aside whole, as published', () => {
    const result = check({ dimensions: { length: 120, width: 48 } }, false, 4);
    expect(result.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    // The 120 in sent is not judged: it was set aside with the rest.
    expect(result.violations).toEqual([]);
    expect(result.warnings[0]?.message).toBe(
      'line 5: orderComponents[4].dimensions has no height, so the whole of it is set aside: each pallet is taken as 40x48x60 in, and its class rests on that assumption; send the measured dimensions',
    );
  });

  it('a measure of 0, below 0, null or not a number counts as missing', () => {
    expect(palletSizeOf({ dimensions: { length: 0, width: Number.NaN, height: null } }, { index: 0 }).warnings[0]?.message).toContain('has no length or width or height');
    expect(palletSizeOf({ dimensions: { length: -4, width: 40, height: 40 } }, { index: 0 }).dimensions).toEqual({ length: 40, width: 48, height: 60 });
  });

  it('the default comes from the limits given, and is checked like any pallet', () => {
    const limits = publishedLimits({ defaultPallet: { length: 48, width: 48, height: 100 } });
    const result = checkComponent(component({ dimensions: undefined }), { index: 0, limits });
    expect(result.dimensions).toEqual({ length: 48, width: 48, height: 100 });
    expect(codes(result)).toEqual(['DIMENSIONS_ASSUMED']);
    expect(result.violations).toHaveLength(1);
  });

  it('the default pallet is a standard one: no oversize warning, even with a liftgate', () => {
    expect(codes(check({ dimensions: undefined }, true))).toEqual(['DIMENSIONS_ASSUMED']);
  });
});
