/**
 * The audit of a bill against its shipment, pure: each finding with the amount at stake, checked
 * against `tariffPrice` (the README's pricing rule read straight from the tariff file); the edges
 * of the tolerance; matching by BOL and PRO; duplicates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditBill, type AuditResult, type BillMatch } from '../../src/audit/audit.js';
import { formatCents } from '../../src/domain/money.js';
import type { CarrierBill } from '../../src/audit/bill.js';
import { flagDuplicates, earlierAuditOf } from '../../src/audit/duplicates.js';
import { priceShipment } from '../../src/domain/rating.js';
import { billKeys, ShipmentsByKey } from '../../src/audit/matching.js';
import { MACHINE_PARTS, pricedShipment, TARIFF, tariffPrice } from './fixtures.js';

const NOW = '2026-12-02T10:00:00.000Z';
const SHIPMENT = pricedShipment();
// Chicago to Atlanta: 695 mi is distance band 3 (index 2); 1,500 to 1,750 lb is the 1,000 lb break (index 2).
const BAND = 2;
const BREAK = 2;
const BOOKED = tariffPrice(
  [
    { pounds: 1200, freightClass: '92.5' },
    { pounds: 300, freightClass: '175' },
  ],
  BAND,
  BREAK,
);

/** The bill a carrier sends when it bills exactly what was quoted. */
function exactBill(overrides: Partial<CarrierBill> = {}): CarrierBill {
  return {
    source: { file: 'bills.csv', line: 2, format: 'csv' },
    invoiceNumber: 'I7204815',
    proNumber: '7204801',
    bolNumber: null,
    scac: 'RRFT',
    billDate: '2026-12-01',
    lines: [
      { line: 1, poundsWeight: 1200, freightClass: '92.5', description: 'Machine parts', nmfcCode: '161030', pieces: 10 },
      { line: 2, poundsWeight: 300, freightClass: '175', description: 'Spare belts', nmfcCode: null, pieces: null },
    ],
    linehaulInCents: 141_294,
    discountInCents: 98_906,
    fuelSurchargeInCents: 12_716,
    accessorials: [{ code: 'LIFTGATE_DELIVERY', description: null, amountInCents: 7_500 }],
    totalInCents: 62_604,
    ...overrides,
  };
}

const matched: BillMatch = { shipment: SHIPMENT, by: 'PRO' };
const audit = (bill: CarrierBill, match: BillMatch = matched, toleranceInCents = 0) => auditBill(bill, match, { tariff: TARIFF, toleranceInCents, auditedAt: NOW });
const codes = (result: AuditResult) => result.findings.map((finding) => [finding.code, finding.amountInCents]);

describe('auditBill', () => {
  it('a bill as quoted: OK, nothing at stake', () => {
    expect(BOOKED.net + BOOKED.fuel + 7_500).toBe(SHIPMENT.totalPriceInCents);
    const result = audit(exactBill());
    expect(result).toMatchObject({ status: 'OK', findings: [], disputedInCents: 0, quotedInCents: 62_604, billedInCents: 62_604, matchedBy: 'PRO', billKey: 'RRFT|I7204815' });
    expect(result.shipment).toMatchObject({ orderNumber: 'SO-000001', poundsWeight: 1500, carrier: { scac: 'RRFT' } });
  });

  it('REWEIGH: line 1 billed at 1,450 lb, re-rated by the carrier; at stake the price of the 250 lb', () => {
    const reweighed = tariffPrice(
      [
        { pounds: 1450, freightClass: '92.5' },
        { pounds: 300, freightClass: '175' },
      ],
      BAND,
      BREAK,
    );
    const atStake = reweighed.net + reweighed.fuel - (BOOKED.net + BOOKED.fuel);
    const bill = exactBill({
      lines: [{ ...exactBill().lines[0]!, poundsWeight: 1450 }, exactBill().lines[1]!],
      linehaulInCents: 161_857,
      discountInCents: 113_300,
      fuelSurchargeInCents: 14_567,
      totalInCents: 70_624,
    });
    expect(bill.linehaulInCents - bill.discountInCents).toBe(reweighed.net);
    const result = audit(bill);
    expect(codes(result)).toEqual([['REWEIGH', atStake]]);
    expect(atStake).toBe(8_020);
    expect(result.findings[0]!.message).toBe(
      'billed 1,750 lb, booked 1,500 lb (+250 lb); line 1: 1,450 lb billed, 1,200 lb booked; the freight check found no risk on line 1 before booking: the freight as declared was clear of the rules it checks',
    );
    expect(result.findings[0]!.freightCheck).toEqual({ warned: false, codes: [] });
    expect(result.disputedInCents).toBe(bill.totalInCents - SHIPMENT.totalPriceInCents);
  });

  it('RECLASS: line 2 billed as class 250 instead of the 175 its density gives', () => {
    const reclassed = tariffPrice(
      [
        { pounds: 1200, freightClass: '92.5' },
        { pounds: 300, freightClass: '250' },
      ],
      BAND,
      BREAK,
    );
    const atStake = reclassed.net + reclassed.fuel - (BOOKED.net + BOOKED.fuel);
    const bill = exactBill({
      lines: [exactBill().lines[0]!, { ...exactBill().lines[1]!, freightClass: '250' }],
      linehaulInCents: 155_982,
      discountInCents: 109_187,
      fuelSurchargeInCents: 14_039,
      totalInCents: 68_334,
    });
    const result = audit(bill);
    expect(codes(result)).toEqual([['RECLASS', atStake]]);
    expect(atStake).toBe(5_730);
    expect(result.findings[0]!.message).toBe(
      'line 2: class 250 billed, 175 booked (4.5 pcf: 300 lb on 1 x 40x48x60 in); the freight check found no risk on line 2 before booking: the freight as declared was clear of the rules it checks',
    );
  });

  it('ACCESSORIAL: a service not ordered is at stake whole; carrier codes match what was ordered', () => {
    const result = audit(
      exactBill({
        accessorials: [
          { code: 'LFT', description: 'LIFTGATE SERVICE', amountInCents: 7_500 },
          { code: 'RES', description: 'RESIDENTIAL DELIVERY', amountInCents: 9_500 },
        ],
        totalInCents: 72_104,
      }),
    );
    expect(codes(result)).toEqual([['ACCESSORIAL', 9_500]]);
    expect(result.findings[0]!.message).toBe('RES (RESIDENTIAL DELIVERY) $95.00 billed, not ordered (ordered: LIFTGATE_DELIVERY)');
    // The ordered liftgate billed twice: the second one was not ordered.
    expect(
      codes(
        audit(
          exactBill({
            accessorials: [
              { code: 'LFT', description: null, amountInCents: 7_500 },
              { code: 'LGD', description: null, amountInCents: 7_500 },
            ],
            totalInCents: 70_104,
          }),
        ),
      ),
    ).toEqual([['ACCESSORIAL', 7_500]]);
  });

  it('OVERCHARGE: an ordered accessorial above its quote, a discount not applied, a total above its charges', () => {
    expect(codes(audit(exactBill({ accessorials: [{ code: 'LFT', description: null, amountInCents: 9_500 }], totalInCents: 64_604 })))).toEqual([['OVERCHARGE', 2_000]]);
    expect(audit(exactBill({ accessorials: [{ code: 'LFT', description: null, amountInCents: 9_500 }], totalInCents: 64_604 })).findings[0]!.message).toBe(
      'LIFTGATE_DELIVERY (billed as LFT) $95.00 billed, $75.00 quoted',
    );
    // No discount, fuel on the full linehaul: the linehaul and its fuel are both above the tariff.
    const noDiscount = audit(exactBill({ discountInCents: 0, fuelSurchargeInCents: 42_388, totalInCents: 141_294 + 42_388 + 7_500 }));
    expect(codes(noDiscount)).toEqual([
      ['FUEL', 42_388 - 12_716],
      ['OVERCHARGE', 98_906],
    ]);
    expect(noDiscount.findings[1]!.message).toBe(
      'net linehaul $1,412.94 billed ($1,412.94 less $0.00); the tariff gives $423.88 for the freight as billed (discount billed 0%, quoted 70%)',
    );
    expect(codes(audit(exactBill({ totalInCents: 62_704 })))).toEqual([['OVERCHARGE', 100]]);
  });

  it('FUEL: a 35 % surcharge instead of the quoted 30 %', () => {
    const fuel = Math.round(BOOKED.net * 0.35);
    const result = audit(exactBill({ fuelSurchargeInCents: fuel, totalInCents: 62_604 - 12_716 + fuel }));
    expect(codes(result)).toEqual([['FUEL', fuel - 12_716]]);
    expect(result.findings[0]!.message).toBe('fuel $148.36 billed (35% of the billed net linehaul); $127.16 expected (30% of $423.88)');
  });

  it('a carrier billing more on every count: the amounts at stake add up to billed minus quoted', () => {
    const both = tariffPrice(
      [
        { pounds: 1450, freightClass: '92.5' },
        { pounds: 300, freightClass: '250' },
      ],
      BAND,
      BREAK,
    );
    const bill = exactBill({
      lines: [
        { ...exactBill().lines[0]!, poundsWeight: 1450 },
        { ...exactBill().lines[1]!, freightClass: '250' },
      ],
      linehaulInCents: 200_000,
      discountInCents: 100_000,
      fuelSurchargeInCents: Math.round(both.net * 0.4),
      accessorials: [
        { code: 'LFT', description: null, amountInCents: 8_000 },
        { code: 'DET', description: 'DETENTION', amountInCents: 15_000 },
      ],
      totalInCents: 0,
    });
    bill.totalInCents = bill.linehaulInCents - bill.discountInCents + bill.fuelSurchargeInCents + 23_000 + 123;
    const result = audit(bill);
    expect(result.findings.map((finding) => finding.code)).toEqual(['REWEIGH', 'RECLASS', 'ACCESSORIAL', 'FUEL', 'OVERCHARGE', 'OVERCHARGE', 'OVERCHARGE']);
    expect(result.findings.every((finding) => finding.amountInCents > 0)).toBe(true);
    expect(result.disputedInCents).toBe(bill.totalInCents - SHIPMENT.totalPriceInCents);
  });

  it('properties: a bill re-rated as billed is at stake for billed minus quoted; one that notes heavier or higher-class freight but charges the quote, for nothing', () => {
    // Billed weights and classes at or above the booked ones, within the 1,000 lb weight break.
    const classesFrom = (booked: string) => Object.keys(TARIFF.ratesPerCwtInCents).filter((freightClass) => Number(freightClass) >= Number(booked));
    const billedFreight = fc.record({
      w1: fc.integer({ min: 1200, max: 1450 }),
      w2: fc.integer({ min: 300, max: 540 }),
      c1: fc.constantFrom(...classesFrom('92.5')),
      c2: fc.constantFrom(...classesFrom('175')),
    });
    const linesOf = ({ w1, w2, c1, c2 }: { w1: number; w2: number; c1: string; c2: string }) => [
      { ...exactBill().lines[0]!, poundsWeight: w1, freightClass: c1 },
      { ...exactBill().lines[1]!, poundsWeight: w2, freightClass: c2 },
    ];
    fc.assert(
      fc.property(billedFreight, fc.integer({ min: 0, max: 5_000 }), fc.constantFrom(0, 9_500), fc.integer({ min: 0, max: 300 }), (freight, extraFuel, residential, extraTotal) => {
        const rerated = tariffPrice(
          [
            { pounds: freight.w1, freightClass: freight.c1 },
            { pounds: freight.w2, freightClass: freight.c2 },
          ],
          BAND,
          BREAK,
        );
        const accessorials = [{ code: 'LFT', description: null, amountInCents: 7_500 }, ...(residential ? [{ code: 'RES', description: null, amountInCents: residential }] : [])];
        const total = rerated.net + rerated.fuel + extraFuel + 7_500 + residential + extraTotal;
        const bill = exactBill({
          lines: linesOf(freight),
          linehaulInCents: rerated.net,
          discountInCents: 0,
          fuelSurchargeInCents: rerated.fuel + extraFuel,
          accessorials,
          totalInCents: total,
        });
        const result = audit(bill);
        expect(rerated.net + rerated.fuel).toBeGreaterThanOrEqual(BOOKED.net + BOOKED.fuel);
        expect(result.disputedInCents).toBe(total - SHIPMENT.totalPriceInCents);
        expect(result.findings.every((finding) => finding.amountInCents > 0)).toBe(true);
        // The same freight noted on a bill that charges exactly the quote: nothing at stake.
        expect(audit(exactBill({ lines: linesOf(freight) }))).toMatchObject({ status: 'OK', findings: [], disputedInCents: 0 });
      }),
      { numRuns: 300 },
    );
  });

  it('money in the shipper’s favour is no finding: a lighter weight, a lower class, an ordered service not billed', () => {
    const lighter = tariffPrice(
      [
        { pounds: 1000, freightClass: '92.5' },
        { pounds: 300, freightClass: '125' },
      ],
      BAND,
      BREAK,
    );
    const bill = exactBill({
      lines: [
        { ...exactBill().lines[0]!, poundsWeight: 1000 },
        { ...exactBill().lines[1]!, freightClass: '125' },
      ],
      linehaulInCents: lighter.net,
      discountInCents: 0,
      fuelSurchargeInCents: lighter.fuel,
      accessorials: [],
      totalInCents: lighter.net + lighter.fuel,
    });
    expect(audit(bill)).toMatchObject({ status: 'OK', findings: [] });
  });

  it('the tolerance: a cent above it is disputed, at or below it nothing is', () => {
    expect(codes(audit(exactBill({ totalInCents: 62_605 })))).toEqual([['OVERCHARGE', 1]]);
    expect(audit(exactBill({ totalInCents: 62_605 }), matched, 1)).toMatchObject({ status: 'OK', findings: [], disputedInCents: 0 });
    expect(codes(audit(exactBill({ totalInCents: 62_606 }), matched, 1))).toEqual([['OVERCHARGE', 2]]);
    expect(codes(audit(exactBill({ totalInCents: 62_704 }), matched, 100_000))).toEqual([]);
  });

  it('UNMATCHED: no shipment, or a cancelled one; the whole bill at stake whatever the tolerance', () => {
    const none = audit(exactBill({ proNumber: '9999999' }), { shipment: null, reason: 'no shipment has PRO 9999999' }, 100_000);
    expect(none).toMatchObject({
      status: 'DISPUTED',
      shipment: null,
      matchedBy: null,
      quotedInCents: null,
      disputedInCents: 62_604,
      findings: [{ code: 'UNMATCHED', amountInCents: 62_604 }],
    });
    const cancelled = audit(exactBill(), { shipment: { ...SHIPMENT, orderStatus: 'CANCELLED', cancelledAt: '2026-11-18T20:00:00.000Z' }, by: 'PRO' });
    expect(cancelled.findings).toEqual([
      { code: 'UNMATCHED', amountInCents: 62_604, message: "PRO 7204801 is SO-000001's, which was cancelled on 2026-11-18: nothing moved to bill" },
    ]);
  });

  it('a bill whose lines do not match the components one to one: weights and classes compared as totals', () => {
    const single = tariffPrice([{ pounds: 1600, freightClass: '100' }], BAND, BREAK);
    const reweighedOnly = tariffPrice(
      [
        { pounds: 1280, freightClass: '92.5' },
        { pounds: 320, freightClass: '175' },
      ],
      BAND,
      BREAK,
    );
    const bill = exactBill({
      lines: [{ line: 1, poundsWeight: 1600, freightClass: '100', description: null, nmfcCode: null, pieces: 3 }],
      linehaulInCents: single.net,
      discountInCents: 0,
      fuelSurchargeInCents: single.fuel,
      accessorials: [{ code: 'LIFTGATE_DELIVERY', description: null, amountInCents: 7_500 }],
      totalInCents: single.net + single.fuel + 7_500,
    });
    const result = audit(bill);
    const reweigh = reweighedOnly.net + reweighedOnly.fuel - (BOOKED.net + BOOKED.fuel);
    // Class 100 for all of it is cheaper than 92.5 and 175 at the same weights: no reclass, and
    // the reweigh is at stake only as far as the bill's freight charges exceed the quote.
    const excess = single.net + single.fuel - (BOOKED.net + BOOKED.fuel);
    expect(excess).toBeGreaterThan(0);
    expect(excess).toBeLessThan(reweigh);
    expect(result.findings).toEqual([
      {
        code: 'REWEIGH',
        amountInCents: excess,
        message: `billed 1,600 lb, booked 1,500 lb (+100 lb); the freight check found no risk before booking: the freight as declared was clear of the rules it checks; ${formatCents(reweigh)} on the tariff, but the bill charges only ${formatCents(excess)} above the quoted linehaul and fuel`,
        freightCheck: { warned: false, codes: [] },
      },
    ]);
    expect(result.disputedInCents).toBe(bill.totalInCents - SHIPMENT.totalPriceInCents);
  });

  it('a reweigh or reclass the bill does not charge is not at stake: a class noted but rated as quoted, a reclass charged in part', () => {
    // Class 250 written on line 2, the charges as quoted (a FAK rating): nothing to dispute.
    const noted = exactBill({ lines: [exactBill().lines[0]!, { ...exactBill().lines[1]!, freightClass: '250' }] });
    expect(audit(noted)).toMatchObject({ status: 'OK', findings: [], disputedInCents: 0 });
    // Rated at class 250 but with a larger discount: at stake what the bill charges above the quote.
    const reclassed = tariffPrice(
      [
        { pounds: 1200, freightClass: '92.5' },
        { pounds: 300, freightClass: '250' },
      ],
      BAND,
      BREAK,
    );
    const full = reclassed.net + reclassed.fuel - (BOOKED.net + BOOKED.fuel);
    const part = exactBill({ lines: noted.lines, linehaulInCents: 141_294, discountInCents: 98_906 - 2_000, fuelSurchargeInCents: 12_716 + 600, totalInCents: 62_604 + 2_600 });
    const result = audit(part);
    expect(codes(result)).toEqual([['RECLASS', 2_600]]);
    expect(full).toBeGreaterThan(2_600);
    expect(result.findings[0]!.message).toBe(
      `line 2: class 250 billed, 175 booked (4.5 pcf: 300 lb on 1 x 40x48x60 in); the freight check found no risk on line 2 before booking: the freight as declared was clear of the rules it checks; ${formatCents(full)} on the tariff, but the bill charges only $26.00 above the quoted linehaul and fuel`,
    );
    // The cap is exact: one cent more charged, one cent more at stake.
    expect(codes(audit({ ...part, linehaulInCents: part.linehaulInCents + 1, totalInCents: part.totalInCents + 1 }))).toEqual([['RECLASS', 2_601]]);
    // A reweigh up and a reclass down, both charged: the reweigh is at stake net of the lower class.
    const mixed = tariffPrice(
      [
        { pounds: 1450, freightClass: '92.5' },
        { pounds: 300, freightClass: '125' },
      ],
      BAND,
      BREAK,
    );
    const reweighOnly = tariffPrice(
      [
        { pounds: 1450, freightClass: '92.5' },
        { pounds: 300, freightClass: '175' },
      ],
      BAND,
      BREAK,
    );
    const both = exactBill({
      lines: [
        { ...exactBill().lines[0]!, poundsWeight: 1450 },
        { ...exactBill().lines[1]!, freightClass: '125' },
      ],
      linehaulInCents: mixed.net,
      discountInCents: 0,
      fuelSurchargeInCents: mixed.fuel,
      totalInCents: mixed.net + mixed.fuel + 7_500,
    });
    expect(mixed.net + mixed.fuel).toBeLessThan(reweighOnly.net + reweighOnly.fuel);
    expect(codes(audit(both))).toEqual([['REWEIGH', mixed.net + mixed.fuel - (BOOKED.net + BOOKED.fuel)]]);
  });
});

describe('matching bills to shipments', () => {
  const booked = pricedShipment({ serial: 1 });
  const other = pricedShipment({ serial: 2 });
  const cancelledTwin = pricedShipment({ serial: 3, extra: { proNumber: '7204801', orderStatus: 'CANCELLED' } });
  const index = new ShipmentsByKey([booked, other, cancelledTwin]);

  it('by BOL number first, then by PRO with case, spaces and dashes ignored; a booked shipment beats a cancelled one', () => {
    expect(index.match(exactBill({ proNumber: '720-48 01' }))).toMatchObject({ by: 'PRO', shipment: { orderNumber: 'SO-000001' } });
    expect(index.match(exactBill({ proNumber: '7204801', bolNumber: other.bolNumber }))).toMatchObject({ by: 'BOL', shipment: { orderNumber: 'SO-000002' } });
    expect(index.match(exactBill({ proNumber: '9999999', bolNumber: booked.bolNumber }))).toMatchObject({ by: 'BOL', shipment: { orderNumber: 'SO-000001' } });
  });

  it('no shipment: the keys it was looked for by', () => {
    expect(index.match(exactBill({ proNumber: '9999999', bolNumber: '06141410000000999' }))).toEqual({
      shipment: null,
      reason: 'no shipment has PRO 9999999 or BOL 06141410000000999',
    });
  });

  it('looks shipments up by each key once, PROs normalised', () => {
    expect(
      billKeys([
        exactBill({ proNumber: '720-4801' }),
        exactBill({ proNumber: '7204801', bolNumber: booked.bolNumber }),
        exactBill({ proNumber: null, bolNumber: booked.bolNumber }),
      ]),
    ).toEqual({ pros: ['7204801'], bols: [booked.bolNumber] });
  });

  it('asks only for keys a shipment can carry: a PRO of 20 letters and digits at most, a BOL of 17 digits', () => {
    const twenty = 'A'.repeat(20);
    const bills = [
      exactBill({ proNumber: `${twenty}`, bolNumber: '1'.repeat(17) }),
      exactBill({ proNumber: `${twenty}B`, bolNumber: '1'.repeat(16) }),
      exactBill({ proNumber: `${twenty.slice(0, 10)}-${twenty.slice(10)}`, bolNumber: '1'.repeat(18) }),
      exactBill({ proNumber: '---', bolNumber: 'BOL-12345' }),
    ];
    expect(billKeys(bills)).toEqual({ pros: [twenty], bols: ['1'.repeat(17)] });
    // What is not asked for matches nothing, with the keys as the bill gave them.
    expect(index.match(exactBill({ proNumber: `${twenty}B`, bolNumber: '12345' }))).toEqual({ shipment: null, reason: `no shipment has PRO ${twenty}B or BOL 12345` });
  });
});

describe('duplicates', () => {
  const first = audit(exactBill());
  const second = audit(exactBill({ invoiceNumber: 'I7204899', source: { file: 'later.csv', line: 7, format: 'csv' } }));

  it('a second bill for a shipment is a DUPLICATE, the whole bill at stake; the first stands', () => {
    const [a, b] = flagDuplicates([first, second], []);
    expect(a).toBe(first);
    expect(b).toMatchObject({
      status: 'DISPUTED',
      disputedInCents: 62_604,
      findings: [{ code: 'DUPLICATE', amountInCents: 62_604, message: 'SO-000001 is already billed by I7204815 (bills.csv line 2): a second bill for one shipment' }],
    });
  });

  it('against bills audited before: another bill is a duplicate, the same bill audited again is not', () => {
    const earlier = [earlierAuditOf({ ...first, auditedAt: '2026-11-30T00:00:00.000Z' })!];
    expect(flagDuplicates([first], earlier)[0]).toBe(first);
    expect(flagDuplicates([second], earlier)[0]!.findings[0]!.message).toBe('SO-000001 is already billed by I7204815 (audited 2026-11-30): a second bill for one shipment');
    // Audited again in the other order: the bill audited first still stands.
    const [again, other] = flagDuplicates([second, first], earlier);
    expect(again!.findings[0]!.code).toBe('DUPLICATE');
    expect(other).toBe(first);
  });

  it('the same bill twice in one run, and a bill flagged DUPLICATE before never makes another one a duplicate', () => {
    const twice = flagDuplicates([first, { ...first, bill: { ...first.bill, source: { file: 'bills.csv', line: 9, format: 'csv' } } }], []);
    expect(twice[1]!.findings[0]!.message).toBe('I7204815 is billed twice (bills.csv line 2 and bills.csv line 9)');
    const flagged = flagDuplicates([first, second], [])[1]!;
    expect(flagDuplicates([first], [earlierAuditOf(flagged)!])[0]).toBe(first);
  });

  it('unmatched bills are never duplicates', () => {
    const unmatched = audit(exactBill({ proNumber: '1' }), { shipment: null, reason: 'none' });
    expect(flagDuplicates([unmatched, unmatched], [])[1]!.findings.map((finding) => finding.code)).toEqual(['UNMATCHED']);
  });
});

describe('the freight check in the audit (issue 21)', () => {
  // 870 lb on 48x40x52 in is 15.06 pcf, class 70; the check warns that 53 in high is class 85.
  const warned = pricedShipment({ components: [{ ...MACHINE_PARTS, palletCount: 1, poundsWeight: 870, dimensions: { length: 48, width: 40, height: 52 } }], accessorials: [] });
  // Billed as the tariff prices the freight as billed: the whole difference is the reweigh or reclass.
  const bill = (freightClass: '70' | '85', poundsWeight = 870): CarrierBill => {
    const price = priceShipment([{ ...warned.orderComponents[0]!, poundsWeight, freightClass }], warned.miles, [], TARIFF);
    return {
      ...exactBill(),
      lines: [{ line: 1, poundsWeight, freightClass, description: 'Machine parts', nmfcCode: '161030', pieces: 10 }],
      accessorials: [],
      linehaulInCents: price.linehaulInCents,
      discountInCents: price.discountInCents,
      fuelSurchargeInCents: price.fuelSurchargeInCents,
      totalInCents: price.quotedPriceInCents,
    };
  };
  const auditWarned = (carrierBill: CarrierBill) => auditBill(carrierBill, { shipment: warned, by: 'PRO' }, { tariff: TARIFF, toleranceInCents: 0, auditedAt: NOW });

  it('a reclass of a line the check had warned about says the warning was given', () => {
    const reclass = auditWarned(bill('85')).findings.find((finding) => finding.code === 'RECLASS')!;
    expect(reclass.freightCheck).toEqual({ warned: true, codes: ['DENSITY_MARGIN'] });
    expect(reclass.message).toContain('the freight check had warned on line 1 before booking: DENSITY_MARGIN on line 1 (class 85 with 1 in more height)');
  });

  it('a reweigh of that line: the density margin bears on it too', () => {
    const reweigh = auditWarned(bill('70', 900)).findings.find((finding) => finding.code === 'REWEIGH')!;
    expect(reweigh.freightCheck).toEqual({ warned: true, codes: ['DENSITY_MARGIN'] });
  });

  it('a reclass of a line the check found clear says the check found no risk (evidence for the dispute)', () => {
    const reclass = audit(
      exactBill({ lines: [exactBill().lines[0]!, { ...exactBill().lines[1]!, freightClass: '250' }], linehaulInCents: 900_000, discountInCents: 0, totalInCents: 900_000 }),
    ).findings.find((finding) => finding.code === 'RECLASS')!;
    expect(reclass.freightCheck).toEqual({ warned: false, codes: [] });
    expect(reclass.message).toContain('the freight check found no risk on line 2 before booking');
  });
});
