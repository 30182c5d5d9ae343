import { describe, expect, it } from 'vitest';
import { hazmatSchema } from '../../src/domain/carrier.js';
import { hazmatBasicDescription } from '../../src/domain/hazmatDescription.js';
import { shipmentRequestSchema, shipmentSchema } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';

const ADDRESS = { name: 'Acme', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' };
const LINE = { palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 } };
const request = (extra: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
  pickupAddress: ADDRESS,
  deliveryAddress: { ...ADDRESS, city: 'New York', state: 'NY', zipCode: '10001' },
  orderComponents: [{ ...LINE, ...line }],
  ...extra,
});
const fieldsOf = (raw: unknown) => {
  const parsed = parseRequest(shipmentRequestSchema, raw);
  return parsed.ok ? [] : [...new Set(parsed.violations.map((violation) => violation.field))];
};

describe('carrier fields of a shipment request', () => {
  it('are optional: a request without them gets prepaid terms and nothing else', () => {
    const parsed = parseRequest(shipmentRequestSchema, request());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      carrier: null,
      proNumber: null,
      freightChargeTerms: { terms: 'PREPAID', billTo: null },
      declaredValue: null,
      cod: null,
      pickupWindow: null,
      fob: null,
      masterBol: false,
      emergencyContactPhone: null,
      trailerNumber: null,
      sealNumbers: [],
    });
    expect(parsed.value.orderComponents[0]!.hazmat).toBeNull();
  });

  it('refuses a dock that closes at or before the ready time, and accepts one minute after', () => {
    expect(fieldsOf(request({ pickupWindow: { readyTime: '14:00', closeTime: '13:59' } }))).toEqual(['pickupWindow.closeTime']);
    expect(fieldsOf(request({ pickupWindow: { readyTime: '14:00', closeTime: '14:00' } }))).toEqual(['pickupWindow.closeTime']);
    const messages = (raw: unknown) => {
      const parsed = parseRequest(shipmentRequestSchema, raw);
      return parsed.ok ? [] : parsed.violations.map((violation) => violation.reason);
    };
    expect(messages(request({ pickupWindow: { readyTime: '14:00', closeTime: '13:59' } }))).toEqual([
      'the dock closes (13:59) before the freight is ready (14:00): the window is empty',
    ]);
    expect(messages(request({ pickupWindow: { readyTime: '14:00', closeTime: '14:00' } }))).toEqual([
      'the dock closes (14:00) at the time the freight is ready (14:00): the window is empty',
    ]);
    expect(fieldsOf(request({ pickupWindow: { readyTime: '14:00', closeTime: '14:01' } }))).toEqual([]);
    expect(fieldsOf(request({ pickupWindow: { readyTime: '24:00', closeTime: '8:00' } }))).toEqual(['pickupWindow.readyTime', 'pickupWindow.closeTime']);
  });

  it('needs a bill-to with third-party terms and refuses one with other terms', () => {
    expect(fieldsOf(request({ freightChargeTerms: { terms: 'THIRD_PARTY' } }))).toEqual(['freightChargeTerms.billTo']);
    expect(fieldsOf(request({ freightChargeTerms: { terms: 'COLLECT', billTo: ADDRESS } }))).toEqual(['freightChargeTerms.billTo']);
    expect(fieldsOf(request({ freightChargeTerms: { terms: 'THIRD_PARTY', billTo: ADDRESS } }))).toEqual([]);
    expect(fieldsOf(request({ freightChargeTerms: { terms: 'prepaid' } }))).toEqual(['freightChargeTerms.terms']);
  });

  it('needs an emergency phone when a line is hazardous', () => {
    const hazmat = { unNumber: 'un 1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' };
    expect(fieldsOf(request({}, { hazmat }))).toEqual(['emergencyContactPhone']);
    const parsed = parseRequest(shipmentRequestSchema, request({ emergencyContactPhone: '800-424-9300' }, { hazmat }));
    expect(parsed.ok && parsed.value.orderComponents[0]!.hazmat).toEqual({ unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' });
  });

  it('checks amounts, SCAC and PRO on their bounds', () => {
    expect(fieldsOf(request({ cod: { amountInCents: 0 } }))).toEqual(['cod.amountInCents']);
    expect(fieldsOf(request({ cod: { amountInCents: 1 } }))).toEqual([]);
    expect(fieldsOf(request({ declaredValue: { amountInCents: 1_000_000_000 } }))).toEqual([]);
    expect(fieldsOf(request({ declaredValue: { amountInCents: 1_000_000_001 } }))).toEqual(['declaredValue.amountInCents']);
    expect(fieldsOf(request({ declaredValue: { amountInCents: 1e308 } }))).toEqual(['declaredValue.amountInCents']);
    expect(fieldsOf(request({ carrier: { name: 'Old Dominion', scac: 'odfl' } }))).toEqual([]);
    expect(fieldsOf(request({ carrier: { name: 'X', scac: 'ODFLX' } }))).toEqual(['carrier.scac']);
    expect(fieldsOf(request({ proNumber: 'A'.repeat(20) }))).toEqual([]);
    expect(fieldsOf(request({ proNumber: 'A'.repeat(21) }))).toEqual(['proNumber']);
  });

  it('reads records written before these fields existed', () => {
    const parsed = shipmentSchema.shape.freightChargeTerms.parse(undefined);
    expect(parsed).toEqual({ terms: 'PREPAID', billTo: null });
  });
});

describe('hazmat basic description (49 CFR 172.202)', () => {
  it('is identification number, proper shipping name, hazard class, packing group, in that order', () => {
    expect(hazmatBasicDescription(hazmatSchema.parse({ unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' }))).toBe(
      'UN1203, Gasoline, 3, PG II',
    );
    expect(hazmatBasicDescription(hazmatSchema.parse({ unNumber: 'UN1075', properShippingName: 'Liquefied petroleum gas', hazardClass: '2.1' }))).toBe(
      'UN1075, Liquefied petroleum gas, 2.1',
    );
    expect(hazmatSchema.safeParse({ unNumber: 'UN12034', properShippingName: 'x', hazardClass: '3' }).success).toBe(false);
    expect(hazmatSchema.safeParse({ unNumber: 'UN1203', properShippingName: 'x', hazardClass: '10' }).success).toBe(false);
  });
});
