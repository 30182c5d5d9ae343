import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { quoteRequestSchema, shipmentRequestSchema } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';

const component = { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } };
const quoteRequest = (overrides: Record<string, unknown> = {}, componentOverrides: Record<string, unknown> = {}) => ({
  origin: { postalCode: '60601' },
  destination: { postalCode: '10001', countryCode: 'US' },
  orderComponents: [{ ...component, ...componentOverrides }],
  ...overrides,
});
const address = { name: 'Acme', street1: '1 Main St', city: 'Chicago', state: 'IL', postalCode: '60601' };

function violationsOf(raw: unknown, schema: z.ZodType = quoteRequestSchema) {
  const parsed = parseRequest(schema, raw);
  if (parsed.ok) throw new Error('expected violations');
  return parsed.violations;
}

describe('quote request validation', () => {
  it('accepts a minimal request and normalises it', () => {
    const parsed = parseRequest(quoteRequestSchema, quoteRequest());
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.origin).toEqual({ postalCode: '60601', countryCode: 'US' });
    expect(parsed.value.accessorials).toEqual([]);
    expect(parsed.value.orderComponents[0]).toEqual({ ...component, description: null, nmfcCode: null, packagingType: null, pieceCount: null, hazmat: null });
    expect(parsed.warnings).toEqual([]);
  });

  it('reports every violation at once with paths written orderComponents[0].pieceCount', () => {
    const violations = violationsOf(quoteRequest({}, { pieceCount: -1, description: 'x'.repeat(257), nmfcCode: 'n'.repeat(33), packagingType: 'p'.repeat(33) }));
    expect(violations.map((violation) => violation.field).sort()).toEqual([
      'orderComponents[0].description',
      'orderComponents[0].nmfcCode',
      'orderComponents[0].packagingType',
      'orderComponents[0].pieceCount',
    ]);
  });

  it('accepts the exact limits: 256, 32, 32 characters and pieceCount 0', () => {
    const parsed = parseRequest(quoteRequestSchema, quoteRequest({}, { pieceCount: 0, description: 'd'.repeat(256), nmfcCode: 'n'.repeat(32), packagingType: 'p'.repeat(32) }));
    expect(parsed.ok).toBe(true);
  });

  it('refuses a fractional pieceCount and palletCount below 1', () => {
    const violations = violationsOf(quoteRequest({}, { pieceCount: 1.5, palletCount: 0 }));
    expect(violations.map((violation) => violation.field).sort()).toEqual(['orderComponents[0].palletCount', 'orderComponents[0].pieceCount']);
  });

  it('refuses freightClass as input', () => {
    const violations = violationsOf(quoteRequest({}, { freightClass: '70' }));
    expect(violations).toEqual([{ field: 'orderComponents[0].freightClass', message: expect.stringContaining('computed from density') }]);
  });

  it('requires positive finite quantities and names nested paths', () => {
    const violations = violationsOf(quoteRequest({}, { poundsWeight: -5, dimensions: { length: 48, width: 0, height: Infinity } }));
    expect(violations.map((violation) => violation.field).sort()).toEqual([
      'orderComponents[0].dimensions.height',
      'orderComponents[0].dimensions.width',
      'orderComponents[0].poundsWeight',
    ]);
  });

  it('requires dimensions (or palletDimensions) on every component', () => {
    const { dimensions: _omit, ...withoutDims } = component;
    const violations = violationsOf({ ...quoteRequest(), orderComponents: [withoutDims] });
    expect(violations).toEqual([{ field: 'orderComponents[0].dimensions', message: expect.stringContaining('required') }]);
  });

  it('normalises palletDimensions alone to dimensions, with a deprecation warning', () => {
    const { dimensions: _omit, ...rest } = component;
    const parsed = parseRequest(quoteRequestSchema, { ...quoteRequest(), orderComponents: [{ ...rest, palletDimensions: [48, 40, 48] }] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.orderComponents[0]!.dimensions).toEqual({ length: 48, width: 40, height: 48 });
    expect(parsed.value.orderComponents[0]).not.toHaveProperty('palletDimensions');
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toContain('orderComponents[0].palletDimensions');
  });

  it('accepts equal dimensions and palletDimensions and refuses different ones on palletDimensions', () => {
    expect(parseRequest(quoteRequestSchema, quoteRequest({}, { palletDimensions: [48, 40, 48] })).ok).toBe(true);
    const violations = violationsOf(quoteRequest({}, { palletDimensions: [48, 40, 50] }));
    expect(violations).toEqual([{ field: 'orderComponents[0].palletDimensions', message: expect.stringContaining('differ') }]);
  });

  it('ignores unknown fields (additive versioning)', () => {
    const parsed = parseRequest(quoteRequestSchema, quoteRequest({ futureField: 1 }, { futureComponentField: false }));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.value).not.toHaveProperty('futureField');
  });

  it('checks ZIP syntax, dates and list sizes', () => {
    const violations = violationsOf(quoteRequest({ origin: { postalCode: '6060' }, pickupDate: '2026-02-30', orderComponents: [] }));
    expect(violations.map((violation) => violation.field).sort()).toEqual(['orderComponents', 'origin.postalCode', 'pickupDate']);
  });

  it('reduces ZIP+4 to five digits and refuses a non-US country', () => {
    const parsed = parseRequest(quoteRequestSchema, quoteRequest({ origin: { postalCode: '60601-1234' } }));
    expect(parsed.ok && parsed.value.origin.postalCode).toBe('60601');
    expect(violationsOf(quoteRequest({ destination: { postalCode: '10001', countryCode: 'CA' } }))[0]!.field).toBe('destination.countryCode');
  });

  it('says which required fields are missing', () => {
    const violations = violationsOf({});
    expect(violations).toEqual(
      expect.arrayContaining([
        { field: 'origin', message: 'is required' },
        { field: 'destination', message: 'is required' },
        { field: 'orderComponents', message: 'orderComponents is required' },
      ]),
    );
  });
});

describe('shipment request validation', () => {
  const shipment = { shipper: address, consignee: { ...address, postalCode: '10001', city: 'New York', state: 'ny' }, orderComponents: [component] };

  it('accepts a shipment with addresses and normalises state codes and the refNumber', () => {
    const parsed = parseRequest(shipmentRequestSchema, { ...shipment, refNumber: '  PO-77 ' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.consignee.state).toBe('NY');
    expect(parsed.value.refNumber).toBe('PO-77');
    expect(parsed.value.shipper.street2).toBeNull();
  });

  it('limits refNumber to 64 characters and reports address fields with their paths', () => {
    const violations = violationsOf({ ...shipment, refNumber: 'r'.repeat(65), shipper: { ...address, name: '', state: 'Illinois' } }, shipmentRequestSchema);
    expect(violations.map((violation) => violation.field).sort()).toEqual(['refNumber', 'shipper.name', 'shipper.state']);
  });

  it('refuses freightClass on shipment components too', () => {
    const violations = violationsOf({ ...shipment, orderComponents: [{ ...component, freightClass: 50 }] }, shipmentRequestSchema);
    expect(violations[0]!.field).toBe('orderComponents[0].freightClass');
  });
});
