/**
 * The invoice, pure: numbers, the exact sharing of the linehaul, the lines adding up to the booked
 * price on random shipments (fast-check), the bill-to of each freight term, the refusals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCents } from '../../src/domain/allocateCents.js';
import { buildInvoice, InvoiceError, invoiceNumberFor, invoiceSchema, tariffLinehaulWeights } from '../../src/domain/invoice.js';
import { priceShipment, rateComponent } from '../../src/domain/rating.js';
import { FREIGHT_LIMITS } from '../../src/domain/limits.js';
import { ATLANTA, CHICAGO, pricedShipment, TARIFF } from '../audit/fixtures.js';

const invoiceOf = (shipment: ReturnType<typeof pricedShipment>) =>
  buildInvoice(shipment, { linehaulWeights: tariffLinehaulWeights(shipment.orderComponents, shipment.miles, TARIFF) });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('invoice numbers', () => {
  it('are the order number’s digits after INV-, for any number of digits', () => {
    expect(invoiceNumberFor('SO-000123')).toBe('INV-000123');
    expect(invoiceNumberFor('SO-000001')).toBe('INV-000001');
    expect(invoiceNumberFor('SO-1234567')).toBe('INV-1234567');
  });

  it('refuses what is not an order number', () => {
    for (const bad of ['', 'SO-', 'SO-12a', 'INV-000123', 'so-000123', ' SO-000123']) expect(() => invoiceNumberFor(bad)).toThrow(RangeError);
  });
});

describe('allocateCents', () => {
  it('shares by weight, the leftover cents to the largest remainders, ties to the earlier line', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(101, [1, 1, 1])).toEqual([34, 34, 33]);
    expect(allocateCents(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(allocateCents(10, [1, 2, 7])).toEqual([1, 2, 7]);
    // 1/3 and 2/3 of 100: 33.33 and 66.67; the larger remainder (.67) gets the cent.
    expect(allocateCents(100, [1, 2])).toEqual([33, 67]);
  });

  it('edges: nothing to share, one line, zero weights, a weight of zero beside others, decimals', () => {
    expect(allocateCents(0, [5, 7])).toEqual([0, 0]);
    expect(allocateCents(12_345, [3])).toEqual([12_345]);
    expect(allocateCents(10, [0, 0, 0, 0])).toEqual([3, 3, 2, 2]);
    expect(allocateCents(10, [0, 1])).toEqual([0, 10]);
    expect(allocateCents(100, [0.1, 0.2])).toEqual([33, 67]);
    expect(allocateCents(0, [])).toEqual([]);
  });

  it('stays exact for the largest safe amount and absurd weights', () => {
    const shares = allocateCents(Number.MAX_SAFE_INTEGER, [1e-7, 1e20, 3]);
    expect(sum(shares)).toBe(Number.MAX_SAFE_INTEGER);
    expect(shares[0]).toBe(0);
  });

  it('refuses a negative, fractional or unsafe total and a total with no lines', () => {
    for (const total of [-1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => allocateCents(total, [1])).toThrow(RangeError);
    expect(() => allocateCents(1, [])).toThrow(RangeError);
  });

  it('gives the exact largest-remainder shares for whole weights, small or too large for exact numbers', () => {
    const oracle = (total: number, weights: number[]) => {
      const big = weights.map(BigInt);
      const sum = big.reduce((a, b) => a + b, 0n);
      const shares = big.map((weight) => (BigInt(total) * weight) / sum);
      const order = big.map((weight, index) => ({ index, remainder: (BigInt(total) * weight) % sum }));
      order.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
      let left = BigInt(total) - shares.reduce((a, b) => a + b, 0n);
      for (const { index } of order) {
        if (left === 0n) break;
        shares[index]! += 1n;
        left -= 1n;
      }
      return shares.map(Number);
    };
    const weight = fc.oneof(fc.integer({ min: 0, max: 60_000_000 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.constantFrom(0, 1, 3, 7));
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
        fc.array(weight, { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          fc.pre(weights.some((item) => item > 0));
          expect(allocateCents(total, weights)).toEqual(oracle(total, weights));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('always adds up to the total (random totals and weights)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 60 }), (total, weights) => {
        const shares = allocateCents(total, weights);
        expect(sum(shares)).toBe(total);
        // No line is more than a cent away from its exact share.
        const weightSum = sum(weights);
        shares.forEach((share, index) => {
          const exact = weightSum === 0 ? total / weights.length : (total * weights[index]!) / weightSum;
          expect(Math.abs(share - exact)).toBeLessThan(1);
        });
      }),
    );
  });
});

describe('buildInvoice', () => {
  it('one line per component with its share of the linehaul, then discount, fuel and the accessorial, adding up to the booked price', () => {
    const shipment = pricedShipment();
    const invoice = invoiceOf(shipment);
    expect(invoiceSchema.parse(invoice)).toEqual(invoice);
    expect(invoice).toMatchObject({ invoiceNumber: 'INV-000001', orderNumber: 'SO-000001', invoiceDate: '2026-11-19', freightChargeTerms: 'PREPAID', billTo: CHICAGO });
    // 12 cwt x $82.25 (class 92.5) and 3 cwt x $141.98 (class 175), band 501-1,000 mi, break 1,000 lb+.
    expect(invoice.lines.map((line) => [line.kind, line.description, line.amountInCents])).toEqual([
      ['FREIGHT', 'Machine parts', 98_700],
      ['FREIGHT', 'Spare belts', 42_594],
      ['DISCOUNT', 'Discount 70%', -98_906],
      ['FUEL_SURCHARGE', 'Fuel surcharge 30%', 12_716],
      ['ACCESSORIAL', 'LIFTGATE_DELIVERY', 7_500],
    ]);
    expect(invoice.lines[0]).toMatchObject({ nmfcCode: '161030', freightClass: '92.5', palletCount: 2, pieceCount: 10, poundsWeight: 1200, componentIndex: 0 });
    expect(invoice.totals).toEqual({
      linehaulInCents: 141_294,
      discountInCents: 98_906,
      fuelSurchargeInCents: 12_716,
      accessorialsInCents: 7_500,
      totalInCents: 62_604,
      palletCount: 3,
      pieceCount: 10,
      poundsWeight: 1500,
    });
    expect(sum(invoice.lines.map((line) => line.amountInCents))).toBe(shipment.totalPriceInCents);
  });

  it('names accessorials with the descriptions given', () => {
    const invoice = buildInvoice(pricedShipment(), { linehaulWeights: [1, 1], accessorialDescriptions: { LIFTGATE_DELIVERY: 'Liftgate at delivery' } });
    expect(invoice.lines.at(-1)).toMatchObject({ kind: 'ACCESSORIAL', code: 'LIFTGATE_DELIVERY', description: 'Liftgate at delivery' });
  });

  it('shares a minimum charge among the lines; the discount line says there is none', () => {
    const shipment = pricedShipment({ components: [rateComponentInput(100), rateComponentInput(50)] as never, miles: 100, accessorials: [] });
    expect(shipment.priceBreakdown.minimumChargeApplied).toBe(true);
    const invoice = invoiceOf(shipment);
    expect(invoice.minimumChargeApplied).toBe(true);
    expect(sum(invoice.lines.filter((line) => line.kind === 'FREIGHT').map((line) => line.amountInCents))).toBe(12_500);
    expect(invoice.lines.find((line) => line.kind === 'DISCOUNT')).toMatchObject({ amountInCents: 0, description: 'Discount: none, the minimum charge applies' });
    expect(invoice.totals.totalInCents).toBe(shipment.totalPriceInCents);
  });

  it('bills the shipper (prepaid), the consignee (collect) or the third party', () => {
    const thirdParty = { ...ATLANTA, name: 'Freight Pay LLC', city: 'Dallas', state: 'TX', zipCode: '75201' };
    expect(invoiceOf(pricedShipment({ extra: { freightChargeTerms: { terms: 'COLLECT', billTo: null } } }))).toMatchObject({ freightChargeTerms: 'COLLECT', billTo: ATLANTA });
    expect(invoiceOf(pricedShipment({ extra: { freightChargeTerms: { terms: 'THIRD_PARTY', billTo: thirdParty } } }))).toMatchObject({
      freightChargeTerms: 'THIRD_PARTY',
      billTo: thirdParty,
    });
  });

  it('refuses a cancelled shipment and a breakdown that does not add up to the booked price', () => {
    expect(() => invoiceOf(pricedShipment({ extra: { orderStatus: 'CANCELLED' } }))).toThrow(InvoiceError);
    const shipment = pricedShipment();
    expect(() => invoiceOf({ ...shipment, totalPriceInCents: shipment.totalPriceInCents + 1 })).toThrow(/adds up to 62604 cents, not its booked 62605/);
    expect(() => buildInvoice(shipment, { linehaulWeights: [1] })).toThrow(RangeError);
  });

  it('a heavier class gets a larger share than a denser line of the same weight', () => {
    const weights = tariffLinehaulWeights(
      [
        { poundsWeight: 500, freightClass: '92.5' },
        { poundsWeight: 500, freightClass: '175' },
      ],
      695,
      TARIFF,
    );
    expect(weights[1]! / weights[0]!).toBeCloseTo(14_198 / 8_225, 10);
  });

  it('adds up to the booked price on random shipments, with one FREIGHT line per component in order (property)', () => {
    const component = fc.record({
      palletCount: fc.integer({ min: 1, max: 6 }),
      poundsWeight: fc.oneof(
        fc.integer({ min: 1, max: 6_000 }),
        fc.integer({ min: 100, max: 600_000 }).map((hundredths) => hundredths / 100),
      ),
      dimensions: fc.record({ length: fc.integer({ min: 1, max: 102 }), width: fc.integer({ min: 1, max: 102 }), height: fc.integer({ min: 1, max: 110 }) }),
    });
    const accessorialCodes = Object.keys(TARIFF.accessorials);
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 5_000 }), fc.subarray(accessorialCodes), (inputs, miles, accessorials) => {
        const components = inputs.map((input) => ({ ...input, description: null, nmfcCode: null, packagingType: null, pieceCount: null, hazmat: null }));
        const rated = components.map(rateComponent);
        const price = priceShipment(rated, miles, accessorials, TARIFF);
        const shipment = pricedShipment({ components: components as never, miles, accessorials });
        expect(shipment.totalPriceInCents).toBe(price.quotedPriceInCents);
        const invoice = invoiceOf(shipment);
        expect(sum(invoice.lines.map((line) => line.amountInCents))).toBe(shipment.totalPriceInCents);
        expect(invoice.totals.totalInCents).toBe(shipment.totalPriceInCents);
        const freight = invoice.lines.filter((line) => line.kind === 'FREIGHT');
        expect(freight.map((line) => line.componentIndex)).toEqual(components.map((_, index) => index));
        expect(sum(freight.map((line) => line.amountInCents))).toBe(shipment.priceBreakdown.linehaulInCents);
        for (const line of freight) expect(line.amountInCents).toBeGreaterThanOrEqual(0);
        expect(invoice.lines.filter((line) => line.kind === 'ACCESSORIAL').map((line) => line.code)).toEqual(accessorials);
      }),
      { numRuns: 300 },
    );
  });

  it('holds at the freight limits: 60 lines of 750 lb', () => {
    const line = {
      palletCount: 1,
      poundsWeight: FREIGHT_LIMITS.maxPoundsWeight / 60,
      dimensions: { length: 48, width: 40, height: 48 },
      description: null,
      nmfcCode: null,
      packagingType: null,
      pieceCount: null,
      hazmat: null,
    };
    const shipment = pricedShipment({ components: Array.from({ length: 60 }, () => line) as never, miles: 3_000 });
    const invoice = invoiceOf(shipment);
    expect(invoice.lines.filter((entry) => entry.kind === 'FREIGHT')).toHaveLength(60);
    expect(sum(invoice.lines.map((entry) => entry.amountInCents))).toBe(shipment.totalPriceInCents);
  });
});

function rateComponentInput(poundsWeight: number) {
  return {
    palletCount: 1,
    poundsWeight,
    dimensions: { length: 48, width: 40, height: 48 },
    description: null,
    nmfcCode: null,
    packagingType: null,
    pieceCount: null,
    hazmat: null,
  };
}
