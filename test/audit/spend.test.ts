/** The spend report, pure: groups, the bills joined to their shipments, unmatched bills, totals. */
import { describe, expect, it } from 'vitest';
import { auditBill } from '../../src/audit/audit.js';
import type { CarrierBill } from '../../src/audit/bill.js';
import { spendReport } from '../../src/audit/spend.js';
import { pricedShipment, SPARE_BELTS, TARIFF } from './fixtures.js';

const november = pricedShipment({ serial: 1 });
const december = pricedShipment({ serial: 2, components: [SPARE_BELTS], extra: { createdAt: '2026-12-03T09:00:00.000Z', carrier: { name: 'Old Dominion', scac: 'ODFL' } } });
const noCarrier = pricedShipment({ serial: 3, extra: { carrier: null, deliveryAddress: { ...november.deliveryAddress, city: 'Savannah', zipCode: '31401' } } });
const cancelled = pricedShipment({ serial: 4, extra: { orderStatus: 'CANCELLED' } });

function bill(proNumber: string, totalInCents: number, billDate = '2026-12-01', scac = 'RRFT'): CarrierBill {
  return {
    source: { file: 'b.csv', line: 2, format: 'csv' },
    invoiceNumber: `I-${proNumber}`,
    proNumber,
    bolNumber: null,
    scac,
    billDate,
    lines: [{ line: 1, poundsWeight: 1500, freightClass: null, description: null, nmfcCode: null, pieces: null }],
    linehaulInCents: totalInCents,
    discountInCents: 0,
    fuelSurchargeInCents: 0,
    accessorials: [],
    totalInCents,
  };
}
const options = { tariff: TARIFF, toleranceInCents: 0, auditedAt: '2026-12-05T00:00:00.000Z' };
const audits = [
  auditBill(bill('7204801', 70_000), { shipment: november, by: 'PRO' }, options),
  auditBill(bill('7204803', 62_604, '2026-12-01', 'SAIA'), { shipment: noCarrier, by: 'PRO' }, options),
  auditBill(bill('9999999', 11_700), { shipment: null, reason: 'unknown' }, options),
  auditBill(bill('8888888', 5_000, '2026-10-15'), { shipment: null, reason: 'unknown' }, options),
];

describe('spendReport', () => {
  it('by carrier: the shipment’s carrier, else its bill’s SCAC; unmatched bills as their own group; a total row', () => {
    const report = spendReport([november, december, noCarrier, cancelled], audits, 'carrier');
    expect(report.rows.map((row) => [row.group, row.shipments, row.poundsWeight, row.quotedInCents, row.bills, row.billedInCents, row.disputedInCents])).toEqual([
      ['Roadrunner Freight (RRFT)', 1, 1500, november.totalPriceInCents, 1, 70_000, audits[0]!.disputedInCents],
      ['SAIA', 1, 1500, noCarrier.totalPriceInCents, 1, 62_604, audits[1]!.disputedInCents],
      ['Old Dominion (ODFL)', 1, 300, december.totalPriceInCents, 0, 0, 0],
      ['(no shipment)', 0, 0, 0, 2, 16_700, 16_700],
    ]);
    expect(report.total).toEqual({
      group: 'Total',
      shipments: 3,
      poundsWeight: 3300,
      quotedInCents: november.totalPriceInCents + december.totalPriceInCents + noCarrier.totalPriceInCents,
      bills: 4,
      billedInCents: 149_304,
      disputedInCents: report.rows.reduce((sum, row) => sum + row.disputedInCents, 0),
    });
  });

  it('by month (booking month, in order) and by lane', () => {
    expect(spendReport([december, november], [], 'month').rows.map((row) => [row.group, row.shipments])).toEqual([
      ['2026-11', 1],
      ['2026-12', 1],
    ]);
    expect(
      spendReport([november, noCarrier], [], 'lane')
        .rows.map((row) => row.group)
        .sort(),
    ).toEqual(['Chicago, IL → Atlanta, GA', 'Chicago, IL → Savannah, GA']);
  });

  it('counts unmatched bills in the period of their bill date; bills of shipments outside the period are left out', () => {
    // December: the November shipments (and their bills) fall outside, as does the October bill.
    const period = { from: Date.parse('2026-12-01T00:00:00Z'), to: Date.parse('2026-12-31T23:59:59Z') };
    const report = spendReport([december], audits, 'carrier', period);
    expect(report.rows.map((row) => [row.group, row.bills, row.billedInCents])).toEqual([
      ['Old Dominion (ODFL)', 0, 0],
      ['(no shipment)', 1, 11_700],
    ]);
  });

  it('a bill whose shipment was cancelled after the audit counts with the bills that have no shipment, in its booking period', () => {
    // The list of booked shipments no longer holds november: its bill stays in the report.
    const report = spendReport([december, noCarrier], audits, 'carrier');
    expect(report.rows.map((row) => [row.group, row.shipments, row.bills, row.billedInCents, row.disputedInCents])).toEqual([
      ['SAIA', 1, 1, 62_604, audits[1]!.disputedInCents],
      ['Old Dominion (ODFL)', 1, 0, 0, 0],
      ['(no shipment)', 0, 3, 70_000 + 16_700, audits[0]!.disputedInCents + 16_700],
    ]);
    expect(report.total.billedInCents).toBe(149_304);
    // Booked outside the period: left out with its shipment.
    const december1st = { from: Date.parse('2026-12-01T00:00:00Z') };
    expect(spendReport([december], audits, 'carrier', december1st).total.bills).toBe(1);
    // Booked on the period's first instant: in.
    const fromBooking = { from: Date.parse(november.createdAt) };
    expect(spendReport([december], audits, 'carrier', fromBooking).rows.at(-1)).toMatchObject({ group: '(no shipment)', bills: 3 });
    expect(spendReport([december], audits, 'carrier', { from: Date.parse(november.createdAt) + 1 }).rows.at(-1)).toMatchObject({ group: '(no shipment)', bills: 1 });
  });

  it('nothing booked, nothing billed: no rows, a zero total', () => {
    expect(spendReport([], [], 'lane')).toEqual({
      by: 'lane',
      rows: [],
      total: { group: 'Total', shipments: 0, poundsWeight: 0, quotedInCents: 0, bills: 0, billedInCents: 0, disputedInCents: 0 },
    });
  });

  it('adds weights as people do: 0.1 + 0.2 lb is 0.3 lb', () => {
    const a = pricedShipment({ serial: 5, components: [{ ...SPARE_BELTS, poundsWeight: 0.1 }] });
    const b = pricedShipment({ serial: 6, components: [{ ...SPARE_BELTS, poundsWeight: 0.2 }] });
    expect(spendReport([a, b], [], 'month').total.poundsWeight).toBe(0.3);
  });
});
