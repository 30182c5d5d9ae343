import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { quoteRequestSchema, shipmentRequestSchema } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';

const component = { palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } };
const quoteRequest = (overrides: Record<string, unknown> = {}, componentOverrides: Record<string, unknown> = {}) => ({
  pickupAddress: { zipCode: '60601' },
  deliveryAddress: { zipCode: '10001', countryCode: 'US' },
  orderComponents: [{ ...component, ...componentOverrides }],
  ...overrides,
});
const address = { name: 'Acme', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60601' };

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
    expect(parsed.value.pickupAddress).toEqual({ zipCode: '60601', countryCode: 'US' });
    expect(parsed.value.accessorials).toEqual([]);
    expect(parsed.value.orderComponents[0]).toEqual({ ...component, description: null, nmfcCode: null, packagingType: null, pieceCount: null, hazmat: null });
    expect(parsed.warnings).toEqual([]);
  });

  it("reads a line's texts sent empty or null, and its other fields sent null, as null; pieceCount 0 and text as sent", () => {
    const nothing = { description: '', nmfcCode: null, packagingType: '', pieceCount: null, hazmat: null };
    const sent = { description: ' Crates\nof parts ', nmfcCode: '161030', packagingType: 'crates', pieceCount: 0 };
    const parsed = parseRequest(quoteRequestSchema, {
      ...quoteRequest(),
      orderComponents: [
        { ...component, ...nothing },
        { ...component, ...sent },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.orderComponents).toEqual([
      { ...component, description: null, nmfcCode: null, packagingType: null, pieceCount: null, hazmat: null },
      { ...component, ...sent, hazmat: null },
    ]);
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
    expect(violations).toEqual([{ field: 'orderComponents[0].freightClass', reason: expect.stringContaining('computed from density') }]);
  });

  it('requires positive finite quantities and names nested paths', () => {
    const violations = violationsOf(quoteRequest({}, { poundsWeight: -5, dimensions: { length: 48, width: 0, height: Infinity } }));
    expect(violations.map((violation) => violation.field).sort()).toEqual([
      'orderComponents[0].dimensions.height',
      'orderComponents[0].dimensions.width',
      'orderComponents[0].poundsWeight',
    ]);
  });

  it('takes a component without dimensions as the published default pallet, with DIMENSIONS_ASSUMED; in part is a violation', () => {
    const { dimensions: _omit, ...withoutDims } = component;
    const parsed = parseRequest(quoteRequestSchema, { ...quoteRequest(), orderComponents: [withoutDims] });
    expect(parsed.ok && parsed.value.orderComponents[0]!.dimensions).toEqual({ length: 40, width: 48, height: 60 });
    expect(parsed.ok && parsed.warnings.map((warning) => [warning.code, warning.field])).toEqual([['DIMENSIONS_ASSUMED', 'orderComponents[0].dimensions']]);
    const violations = violationsOf({ ...quoteRequest(), orderComponents: [{ ...withoutDims, dimensions: { length: 48, width: 40 } }] });
    expect(violations).toEqual([{ field: 'orderComponents[0].dimensions.height', reason: expect.any(String) }]);
  });

  it('normalises palletDimensions alone to dimensions, with a deprecation warning', () => {
    const { dimensions: _omit, ...rest } = component;
    const parsed = parseRequest(quoteRequestSchema, { ...quoteRequest(), orderComponents: [{ ...rest, palletDimensions: [48, 40, 48] }] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.orderComponents[0]!.dimensions).toEqual({ length: 48, width: 40, height: 48 });
    expect(parsed.value.orderComponents[0]).not.toHaveProperty('palletDimensions');
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toMatchObject({ code: 'DEPRECATED_PALLET_DIMENSIONS', field: 'orderComponents[0].palletDimensions' });
    expect(parsed.warnings[0]!.message).toContain('orderComponents[0].palletDimensions');
  });

  it('accepts equal dimensions and palletDimensions and refuses different ones on palletDimensions', () => {
    expect(parseRequest(quoteRequestSchema, quoteRequest({}, { palletDimensions: [48, 40, 48] })).ok).toBe(true);
    const violations = violationsOf(quoteRequest({}, { palletDimensions: [48, 40, 50] }));
    expect(violations).toEqual([{ field: 'orderComponents[0].palletDimensions', reason: expect.stringContaining('differ') }]);
  });

  it('refuses unknown fields, each on its own path, with the known field it most likely means', () => {
    const violations = violationsOf(
      quoteRequest(
        { accesorials: ['LIFTGATE_DELIVERY'], pickupAddress: { zipCode: '60601', zipcode: '60601' } },
        { descripton: 'Pumps', dimensions: { length: 48, width: 40, height: 48, hieght: 50 } },
      ),
    );
    expect(violations).toEqual([
      { field: 'pickupAddress.zipcode', reason: 'unknown field zipcode (did you mean zipCode?)' },
      { field: 'orderComponents[0].dimensions.hieght', reason: 'unknown field hieght (did you mean height?)' },
      { field: 'orderComponents[0].descripton', reason: 'unknown field descripton (did you mean description?)' },
      { field: 'accesorials', reason: 'unknown field accesorials (did you mean accessorials?)' },
    ]);
  });

  it('suggests nothing when no known field is close, and still reports every other violation', () => {
    const violations = violationsOf(quoteRequest({ futureField: 1 }, { fragile: false, pieceCount: -1 }));
    expect(violations).toEqual(
      expect.arrayContaining([
        { field: 'futureField', reason: 'unknown field futureField' },
        { field: 'orderComponents[0].fragile', reason: 'unknown field fragile' },
        { field: 'orderComponents[0].pieceCount', reason: 'pieceCount must be 0 or more' },
      ]),
    );
    expect(violations).toHaveLength(3);
  });

  it('keeps palletDimensions (deprecated) and the own message of freightClass', () => {
    const { dimensions: _omit, ...rest } = component;
    expect(parseRequest(quoteRequestSchema, { ...quoteRequest(), orderComponents: [{ ...rest, palletDimensions: [48, 40, 48] }] }).ok).toBe(true);
    const violations = violationsOf(quoteRequest({}, { freightClass: '70', freightclass: '70' }));
    expect(violations).toEqual(
      expect.arrayContaining([
        // A refused field is never suggested.
        { field: 'orderComponents[0].freightclass', reason: 'unknown field freightclass' },
        { field: 'orderComponents[0].freightClass', reason: 'freightClass is computed from density at quote time and cannot be sent' },
      ]),
    );
    expect(violations).toHaveLength(2);
  });

  it('checks ZIP syntax, dates and list sizes', () => {
    const violations = violationsOf(quoteRequest({ pickupAddress: { zipCode: '6060' }, requiredPickupDate: '2026-02-30', orderComponents: [] }));
    expect(violations.map((violation) => violation.field).sort()).toEqual(['orderComponents', 'pickupAddress.zipCode', 'requiredPickupDate']);
  });

  it('reduces ZIP+4 to five digits and refuses a non-US country', () => {
    const parsed = parseRequest(quoteRequestSchema, quoteRequest({ pickupAddress: { zipCode: '60601-1234' } }));
    expect(parsed.ok && parsed.value.pickupAddress.zipCode).toBe('60601');
    expect(violationsOf(quoteRequest({ deliveryAddress: { zipCode: '10001', countryCode: 'CA' } }))[0]!.field).toBe('deliveryAddress.countryCode');
  });

  it('says which required fields are missing', () => {
    const violations = violationsOf({});
    expect(violations).toEqual(
      expect.arrayContaining([
        { field: 'pickupAddress', reason: 'is required' },
        { field: 'deliveryAddress', reason: 'is required' },
        { field: 'orderComponents', reason: 'orderComponents is required' },
      ]),
    );
  });
});

describe('shipment request validation', () => {
  const shipment = { pickupAddress: address, deliveryAddress: { ...address, zipCode: '10001', city: 'New York', state: 'ny' }, orderComponents: [component] };

  it('reads optional texts sent empty, null or not at all as null, a ZIP+4 as its ZIP, and the carrier fields left out as null', () => {
    const parsed = parseRequest(shipmentRequestSchema, {
      ...shipment,
      pickupAddress: { ...address, zipCode: '60601-1234', address2: '', contactPerson: null },
      deliveryAddress: { ...shipment.deliveryAddress, address2: 'Dock 4', phoneNumber: '' },
      specialInstructions: '',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const { pickupAddress, deliveryAddress, specialInstructions, carrier, proNumber, declaredValue, cod, pickupWindow, fob, emergencyContactPhone, freightChargeTerms } =
      parsed.value;
    expect(pickupAddress).toMatchObject({ zipCode: '60601', address2: null, contactPerson: null, phoneNumber: null });
    expect(deliveryAddress).toMatchObject({ address2: 'Dock 4', contactPerson: null, phoneNumber: null, state: 'NY' });
    expect({ specialInstructions, carrier, proNumber, declaredValue, cod, pickupWindow, fob, emergencyContactPhone }).toEqual({
      specialInstructions: null,
      carrier: null,
      proNumber: null,
      declaredValue: null,
      cod: null,
      pickupWindow: null,
      fob: null,
      emergencyContactPhone: null,
    });
    expect(freightChargeTerms).toEqual({ terms: 'PREPAID', billTo: null });
    const withNulls = parseRequest(shipmentRequestSchema, { ...shipment, carrier: null, proNumber: null, fob: null, specialInstructions: null });
    expect(withNulls.ok && [withNulls.value.carrier, withNulls.value.proNumber, withNulls.value.fob, withNulls.value.specialInstructions]).toEqual([null, null, null, null]);
  });

  it('holds optional texts to their length on the boundary, and refuses what is no text of theirs', () => {
    const atMost = parseRequest(shipmentRequestSchema, {
      ...shipment,
      // A phone as long as its field takes, spaced out: read as E.164.
      pickupAddress: { ...address, address2: 's'.repeat(100), contactPerson: 'c'.repeat(100), phoneNumber: ` 312 - 555 - 0100 ${' '.repeat(14)}` },
      specialInstructions: `${'i'.repeat(500)}\n${'j'.repeat(499)}`,
    });
    expect(atMost.ok && [atMost.value.pickupAddress.address2?.length, atMost.value.pickupAddress.phoneNumber, atMost.value.specialInstructions?.length]).toEqual([
      100,
      '+13125550100',
      1000,
    ]);
    const over = violationsOf(
      { ...shipment, pickupAddress: { ...address, address2: 's'.repeat(101), contactPerson: 'c'.repeat(101), phoneNumber: '5'.repeat(33) }, specialInstructions: 'i'.repeat(1001) },
      shipmentRequestSchema,
    );
    expect(over.map((violation) => [violation.field, violation.reason]).sort()).toEqual([
      ['pickupAddress.address2', 'must be at most 100 characters'],
      ['pickupAddress.contactPerson', 'must be at most 100 characters'],
      ['pickupAddress.phoneNumber', 'must be at most 32 characters'],
      ['specialInstructions', 'must be at most 1000 characters'],
    ]);
    // Not text at all, or a control character its kind refuses (a line break only where lines are allowed).
    const absurd = violationsOf(
      { ...shipment, pickupAddress: { ...address, contactPerson: 42, address2: 'Dock\t4', phoneNumber: 'a\nb' }, specialInstructions: 'x\u0007' },
      shipmentRequestSchema,
    );
    expect(absurd.map((violation) => violation.field).sort()).toEqual([
      'pickupAddress.address2',
      'pickupAddress.contactPerson',
      'pickupAddress.phoneNumber',
      'specialInstructions',
    ]);
    expect(absurd.find((violation) => violation.field === 'pickupAddress.contactPerson')?.reason).toBe('must be a string');
  });

  it('accepts a shipment with addresses and normalises state codes and the refNumber', () => {
    const parsed = parseRequest(shipmentRequestSchema, { ...shipment, refNumber: '  PO-77 ' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.deliveryAddress.state).toBe('NY');
    expect(parsed.value.refNumber).toBe('PO-77');
    expect(parsed.value.pickupAddress.address2).toBeNull();
  });

  it('limits refNumber to 64 characters and reports address fields with their paths', () => {
    const violations = violationsOf({ ...shipment, refNumber: 'r'.repeat(65), pickupAddress: { ...address, name: '', state: 'Illinois' } }, shipmentRequestSchema);
    expect(violations.map((violation) => violation.field).sort()).toEqual(['pickupAddress.name', 'pickupAddress.state', 'refNumber']);
  });

  it('refuses unknown fields in addresses, at the top level and in components', () => {
    const violations = violationsOf(
      { ...shipment, quoteID: 'qt_1', pickupAddress: { ...address, zipcode: '60601', stat: 'IL' }, orderComponents: [{ ...component, descripton: 'x' }] },
      shipmentRequestSchema,
    );
    expect(violations).toEqual(
      expect.arrayContaining([
        { field: 'quoteID', reason: 'unknown field quoteID (did you mean quoteId?)' },
        { field: 'pickupAddress.zipcode', reason: 'unknown field zipcode (did you mean zipCode?)' },
        { field: 'pickupAddress.stat', reason: 'unknown field stat (did you mean state?)' },
        { field: 'orderComponents[0].descripton', reason: 'unknown field descripton (did you mean description?)' },
      ]),
    );
    expect(violations).toHaveLength(4);
  });

  it('refuses freightClass on shipment components too', () => {
    const violations = violationsOf({ ...shipment, orderComponents: [{ ...component, freightClass: 50 }] }, shipmentRequestSchema);
    expect(violations[0]!.field).toBe('orderComponents[0].freightClass');
  });
});

describe('control characters in text fields', () => {
  const shipment = (overrides: Record<string, unknown>) => ({
    pickupAddress: address,
    deliveryAddress: { ...address, zipCode: '10001', city: 'New York', state: 'NY' },
    orderComponents: [component],
    ...overrides,
  });
  it('name the character and where it is, in single-line and multi-line fields, beside the other checks of the field', () => {
    const single = 'must be one line of text without control characters such as ESC, BEL or a line break';
    expect(violationsOf(shipment({ refNumber: 'PO\u001b[2J' }), shipmentRequestSchema)).toEqual([{ field: 'refNumber', reason: `${single} (found ESC at character 3)` }]);
    expect(violationsOf(shipment({ refNumber: `PO\r1${'x'.repeat(70)}` }), shipmentRequestSchema)).toEqual([
      { field: 'refNumber', reason: `${single} (found carriage return at character 3)` },
      { field: 'refNumber', reason: 'must be at most 64 characters' },
    ]);
    expect(violationsOf(shipment({ trailerNumber: 'TR\u0085' }), shipmentRequestSchema)).toEqual([{ field: 'trailerNumber', reason: `${single} (found U+0085 at character 3)` }]);
    expect(violationsOf(shipment({ specialInstructions: 'Dock 4\n\tcall\u0007' }), shipmentRequestSchema)).toEqual([
      { field: 'specialInstructions', reason: 'must not contain control characters other than tabs and line breaks (found BEL at character 13)' },
    ]);
    expect(parseRequest(shipmentRequestSchema, shipment({ specialInstructions: 'Dock 4\n\tcall first' })).ok).toBe(true);
  });
});

describe('freight limits (README "Limits": one 53 ft trailer)', () => {
  const accepted = (componentOverrides: Record<string, unknown>, more: Array<Record<string, unknown>> = []) =>
    parseRequest(quoteRequestSchema, { ...quoteRequest(), orderComponents: [{ ...component, ...componentOverrides }, ...more] }).ok;
  const only = (componentOverrides: Record<string, unknown>) => violationsOf(quoteRequest({}, componentOverrides));
  const dims = (length: unknown, width: unknown, height: unknown) => ({ dimensions: { length, width, height } });

  it.each([
    ['length', 636, 'the inside length of a 53 ft trailer'],
    ['width', 102, "a trailer's width; give the longer side as length"],
    ['height', 110, 'the inside height of a 53 ft trailer'],
  ] as const)('%s: 1 to %i in, each bound on the boundary, just inside and just outside', (side, max, why) => {
    const at = (value: unknown) => dims(side === 'length' ? value : 48, side === 'width' ? value : 40, side === 'height' ? value : 48);
    for (const ok of [1, 1.0001, max - 0.0001, max]) expect(accepted(at(ok)), `${side} ${ok}`).toBe(true);
    expect(only(at(max + 0.0001))).toEqual([{ field: `orderComponents[0].dimensions.${side}`, reason: `${side} must be at most ${max} in (${why})` }]);
    for (const tooSmall of [0.9999, 0, -1, 5e-324]) {
      expect(only(at(tooSmall))).toEqual([{ field: `orderComponents[0].dimensions.${side}`, reason: `${side} must be at least 1 in` }]);
    }
    expect(only(at(1e308))[0]!.reason).toContain(`${side} must be at most ${max} in`);
  });

  it('poundsWeight: 1 to 45,000 lb', () => {
    for (const ok of [1, 1.5, 44_999.99, 45_000]) expect(accepted({ poundsWeight: ok }), `${ok} lb`).toBe(true);
    const field = 'orderComponents[0].poundsWeight';
    for (const tooMuch of [45_000.01, 1e15, 1e308]) {
      expect(only({ poundsWeight: tooMuch })).toEqual([{ field, reason: 'poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer)' }]);
    }
    for (const tooLittle of [0.99, 5e-324, 0, -5]) expect(only({ poundsWeight: tooLittle })).toEqual([{ field, reason: 'poundsWeight must be at least 1 lb' }]);
  });

  it('says "finite" for Infinity, NaN and text beyond the largest number ("1e400"), "a number" for other text', () => {
    expect(only({ poundsWeight: Number.POSITIVE_INFINITY })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a finite number' }]);
    expect(only({ poundsWeight: Number.NaN })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a finite number' }]);
    expect(only({ poundsWeight: '1e400' })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a finite number' }]);
    expect(only({ poundsWeight: '500' })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a number' }]);
    expect(only({ poundsWeight: 'heavy' })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a number' }]);
    expect(only({ poundsWeight: '' })).toEqual([{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a number' }]);
  });

  it('palletCount: 1 to 60 per line; pieceCount: 0 to 99,999', () => {
    for (const ok of [1, 59, 60]) expect(accepted({ palletCount: ok }), `${ok} pallets`).toBe(true);
    expect(only({ palletCount: 61 })).toEqual([
      { field: 'orderComponents[0].palletCount', reason: 'palletCount must be at most 60 (a 53 ft trailer holds 60 pallets double-stacked)' },
    ]);
    expect(only({ palletCount: 1e15 })[0]!.field).toBe('orderComponents[0].palletCount');
    for (const ok of [0, 99_998, 99_999]) expect(accepted({ pieceCount: ok }), `${ok} pieces`).toBe(true);
    expect(only({ pieceCount: 100_000 })).toEqual([{ field: 'orderComponents[0].pieceCount', reason: 'pieceCount must be at most 99,999' }]);
  });

  it('palletDimensions (deprecated) keeps the same limits', () => {
    expect(accepted({ dimensions: undefined, palletDimensions: [636, 102, 110] })).toBe(true);
    const violations = only({ dimensions: undefined, palletDimensions: [637, 0.5, 48] });
    expect(violations.map((violation) => violation.field)).toEqual(['orderComponents[0].palletDimensions[0]', 'orderComponents[0].palletDimensions[1]']);
  });

  it('a shipment weighs at most 45,000 lb and has at most 60 pallets and 60 lines in all', () => {
    const line = (palletCount: number, poundsWeight: number) => ({ palletCount, poundsWeight, dimensions: { length: 48, width: 40, height: 48 } });
    const request = (lines: unknown[]) => ({ ...quoteRequest(), orderComponents: lines });
    expect(parseRequest(quoteRequestSchema, request([line(30, 22_500), line(30, 22_500)])).ok).toBe(true);
    expect(violationsOf(request([line(30, 22_500), line(30, 22_500.5)]))).toEqual([
      { field: 'orderComponents', reason: expect.stringMatching(/^the order components weigh 45,000.5 lb together; one shipment carries at most 45,000 lb/) },
    ]);
    expect(violationsOf(request([line(30, 100), line(31, 100)]))).toEqual([
      { field: 'orderComponents', reason: expect.stringMatching(/^the order components have 61 pallets together; one shipment has at most 60/) },
    ]);
    expect(parseRequest(quoteRequestSchema, request(Array.from({ length: 60 }, () => line(1, 100)))).ok).toBe(true);
    expect(violationsOf(request(Array.from({ length: 61 }, () => line(1, 100))))).toEqual(
      expect.arrayContaining([{ field: 'orderComponents', reason: 'at most 60 order components per shipment' }]),
    );
  });
});
