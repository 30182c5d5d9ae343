/**
 * The bill audit of a shipment booked on a carrier agreement's quote re-rates it by that agreement
 * (the quote records what priced it), at the fuel percentage the quote recorded, not by the tariff.
 */
import { describe, expect, it } from 'vitest';
import { auditBill } from '../../src/audit/audit.js';
import type { CarrierBill } from '../../src/audit/bill.js';
import { agreementSchema } from '../../src/domain/agreements/agreement.js';
import { parseBaseRates } from '../../src/domain/agreements/baseRates.js';
import { priceWithAgreement, type CarrierAgreement } from '../../src/domain/agreements/rateAgreement.js';
import { pricedShipment, TARIFF } from '../audit/fixtures.js';
import { WORKED_AGREEMENT } from './fixtures.js';

// Chicago -> Atlanta, classes 92.5 and 175 (the audit fixtures' freight): 1,500 lb at M1M.
const RATES = [
  'origin_zip3,dest_zip3,class,MC,L5C,M5C,M1M,M2M,M5M,M10M,M20M,M30M,M40M',
  '600-629,300-319,92.5,9500,10000,9000,8000,7000,6000,5000,4000,3000,2000',
  '600-629,300-319,175,9500,20000,18000,16000,14000,12000,10000,8000,6000,5000',
].join('\n');
const carrier: CarrierAgreement = { name: 'tstc', agreement: agreementSchema.parse(WORKED_AGREEMENT), baseRates: parseBaseRates(RATES).table };

function agreementShipment() {
  const base = pricedShipment({ accessorials: [] });
  const outcome = priceWithAgreement({
    carrier,
    components: base.orderComponents,
    originZip: '60601',
    destinationZip: '30303',
    accessorials: [],
    pickupDate: base.requiredPickupDate,
    fuelPrices: new Map(),
  });
  if (!outcome.ok) throw new Error(outcome.reason);
  const { price } = outcome;
  // 12 x 8000 + 3 x 16000 = $1,440.00, 72 % off: net $403.20; the recorded fuel 32.45 %: $130.84.
  expect(price.rating.netLinehaulInCents).toBe(40320);
  const fuel = 13084;
  return {
    ...base,
    totalPriceInCents: 40320 + fuel,
    priceBreakdown: {
      linehaulInCents: price.linehaulInCents,
      discountInCents: price.discountInCents,
      minimumChargeApplied: false,
      fuelSurchargeInCents: fuel,
      accessorialsInCents: [],
    },
    carrier: { name: 'Test Carrier Lines', scac: 'TSTC' },
    pricedBy: {
      ...price.rating,
      fuel: { indexWeek: '2026-11-16', week: '2026-11-16', usdPerGallon: '3.712', percent: '32.45', tableFrom: '2026-01-01' },
      service: null,
      transitEstimated: true,
    },
  };
}

const bill = (overrides: Partial<CarrierBill>): CarrierBill => ({
  source: { file: 'bills.csv', line: 2, format: 'csv' },
  invoiceNumber: 'T1',
  proNumber: '7204801',
  bolNumber: null,
  scac: 'TSTC',
  billDate: '2026-12-01',
  lines: [
    { line: 1, poundsWeight: 1200, freightClass: '92.5', description: null, nmfcCode: null, pieces: null },
    { line: 2, poundsWeight: 300, freightClass: '175', description: null, nmfcCode: null, pieces: null },
  ],
  linehaulInCents: 144000,
  discountInCents: 103680,
  fuelSurchargeInCents: 13084,
  accessorials: [],
  totalInCents: 53404,
  ...overrides,
});

describe('auditing a shipment priced by a carrier agreement', () => {
  const shipment = agreementShipment();
  const options = { tariff: TARIFF, agreements: [carrier], toleranceInCents: 0, auditedAt: '2026-12-02T10:00:00.000Z' };

  it('a bill of exactly the agreement price is OK', () => {
    expect(auditBill(bill({}), { shipment, by: 'PRO' }, options)).toMatchObject({ status: 'OK', findings: [] });
  });

  it('a reweigh is priced by the agreement: 1,400 lb of 92.5 adds $44.80 net and 32.45 % fuel', () => {
    // 14 x 8000 + 3 x 16000 = $1,600.00, 72 % off: $448.00; fuel $145.38; $593.38 against $534.04.
    const reweighed = bill({
      lines: [
        { line: 1, poundsWeight: 1400, freightClass: '92.5', description: null, nmfcCode: null, pieces: null },
        { line: 2, poundsWeight: 300, freightClass: '175', description: null, nmfcCode: null, pieces: null },
      ],
      linehaulInCents: 160000,
      discountInCents: 115200,
      fuelSurchargeInCents: 14538,
      totalInCents: 59338,
    });
    const result = auditBill(reweighed, { shipment, by: 'PRO' }, options);
    expect(result.findings.map((finding) => [finding.code, finding.amountInCents])).toEqual([['REWEIGH', 5934]]);
    expect(result.findings[0]!.message).not.toContain('but the bill charges');
    // Without the agreement loaded, the tariff prices the difference: more than the bill charges.
    const byTariff = auditBill(reweighed, { shipment, by: 'PRO' }, { ...options, agreements: [] });
    expect(byTariff.findings.find((finding) => finding.code === 'REWEIGH')?.message).toContain('on the tariff, but the bill charges only $59.34');
  });

  it('a net linehaul above the agreement is an overcharge that names the agreement', () => {
    const over = bill({ discountInCents: 100000, totalInCents: 57084 });
    const result = auditBill(over, { shipment, by: 'PRO' }, options);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'OVERCHARGE', amountInCents: 3680, message: expect.stringContaining('agreement TST-2026-001 (TSTC) gives $403.20') }),
    );
  });
});
