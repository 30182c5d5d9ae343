import { describe, expect, it } from 'vitest';
import { freightTotals, type FreightLine } from '../../src/domain/freightTotals.js';

const line = (overrides: Partial<FreightLine> = {}): FreightLine => ({
  palletCount: 1,
  poundsWeight: 500,
  pieceCount: null,
  dimensions: { length: 48, width: 40, height: 48 },
  ...overrides,
});

describe("a shipment's freight totals", () => {
  it('adds pallets, pieces, weight and cube', () => {
    expect(freightTotals([line({ palletCount: 2, poundsWeight: 1200, pieceCount: 40 }), line({ pieceCount: 3 })])).toEqual({
      pallets: 3,
      pieces: 43,
      poundsWeight: 1700,
      cubicFeet: (3 * 48 * 40 * 48) / 1728,
    });
  });

  it('adds weights in hundredths: 0.1 + 0.2 lb is 0.3 lb, and a third decimal is rounded per line', () => {
    expect(freightTotals([line({ poundsWeight: 0.1 }), line({ poundsWeight: 0.2 })]).poundsWeight).toBe(0.3);
    expect(freightTotals([line({ poundsWeight: 100.004 }), line({ poundsWeight: 100.004 })]).poundsWeight).toBe(200);
  });

  it('pieces: null when no line gives them (never a false 0), 0 when a line says 0', () => {
    expect(freightTotals([line(), line({ pieceCount: undefined })]).pieces).toBeNull();
    expect(freightTotals([line({ pieceCount: 0 }), line()]).pieces).toBe(0);
  });

  it('no lines: nothing', () => {
    expect(freightTotals([])).toEqual({ pallets: 0, pieces: null, poundsWeight: 0, cubicFeet: 0 });
  });

  it('the largest shipment the limits allow adds up exactly', () => {
    const lines = Array.from({ length: 100 }, () => line({ palletCount: 1, poundsWeight: 449.99 }));
    expect(freightTotals(lines).poundsWeight).toBe(44_999);
  });
});
