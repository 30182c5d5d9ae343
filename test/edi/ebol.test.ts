/**
 * The eBOL 2.1 request: every output is validated against the published BOL_Request schema (with
 * objects closed, see ebolSchema.ts) and its code lists, then compared field by field with the
 * shipment it came from.
 */
import { describe, expect, it } from 'vitest';
import { ebolRequestForShipment, type EbolRequest } from '../../src/edi/ebol.js';
import { ebolSettingsSchema } from '../../src/edi/settings.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { bolRequestValidator, codeList, versionValues } from './ebolSchema.js';
import { fullShipment, GASOLINE, line, manyLines, minimalShipment, shipment, THIRD_PARTY } from './fixtures.js';

const settings = ebolSettingsSchema.parse({});

/** The request, checked against the schema and the standard's code lists; fails the test otherwise. */
function validRequest(source: Shipment, options = settings): { request: EbolRequest; warnings: string[] } {
  const result = ebolRequestForShipment(source, options);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.violations)}`);
  const request = result.document;
  // Through JSON, as it travels: no undefined, no Date, nothing JSON cannot carry.
  const json = JSON.parse(JSON.stringify(request)) as EbolRequest;
  expect(json).toEqual(request);
  const validate = bolRequestValidator();
  expect(validate(json), JSON.stringify(validate.errors, null, 2)).toBe(true);

  expect(versionValues()).toContain(json.version);
  expect(codeList('Payment_Terms')).toContain(json.payment.terms);
  expect(codeList('Requestor_Roles')).toContain(json.bol.requestorRole);
  expect(json.bol.requestedPickupDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
  for (const code of json.accessorials?.codes ?? []) expect(codeList('Accessorial_Codes')).toContain(code);
  for (const unit of json.commodities.handlingUnits) {
    expect(codeList('Handling_Unit_Types')).toContain(unit.type);
    for (const item of unit.lineItems) {
      expect(codeList('Packaging_Types')).toContain(item.packagingType);
      expect(codeList('Classification_Codes')).toContain(item.classification);
    }
  }
  for (const party of [json.origin, json.destination, json.billTo]) {
    expect(codeList('Country_Codes')).toContain(party.country);
    expect(codeList('State_Province_Codes')).toContain(party.stateProvince);
    expect(party.contact.phone).toMatch(/^\d{10}$/);
  }
  if (json.accessorials?.cod) expect(json.accessorials.cod.amount).toMatch(/^\d+\.\d{2}$/);
  if (json.accessorials?.hazardousDetails) expect(json.accessorials.hazardousDetails.emergencyContact.phone).toMatch(/^\d{10}$/);
  return { request: json, warnings: result.warnings.map((item) => item.message) };
}

describe('the eBOL 2.1 request of a shipment', () => {
  it('a minimal shipment with the contacts and description the eBOL needs is a valid request', () => {
    const source = minimalShipment({
      pickupAddress: { name: 'A', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60607', phoneNumber: '3125550142' },
      deliveryAddress: { name: 'B', address1: '2 Elm St', city: 'Atlanta', state: 'GA', zipCode: '30336', phoneNumber: '404.555.0199' },
      orderComponents: [line({ description: 'Boxed parts' })],
    });
    const { request, warnings } = validRequest(source);
    expect(warnings).toEqual([]);
    expect(request.bol).toEqual({ function: 'Create', requestedPickupDate: '2026-11-23T00:00:00.000', isTest: false, requestorRole: 'Shipper' });
    expect(request.referenceNumbers).toEqual({ shipmentId: 'SO-000123', bol: ['06141410000001231'] });
    expect(request.payment).toEqual({ terms: 'Prepaid' });
    expect(request.accessorials).toBeUndefined();
    // Prepaid: the shipper is billed.
    expect(request.billTo).toEqual(request.origin);
    expect(request.origin.contact).toEqual({ phone: '3125550142' });
    expect(request.destination.contact).toEqual({ phone: '4045550199' });
    expect(request.commodities.handlingUnits).toEqual([
      {
        count: 1,
        type: 'PAT',
        weight: 600,
        weightUnit: 'Pounds',
        length: 48,
        width: 40,
        height: 48,
        dimensionsUnit: 'Inches',
        stackable: false,
        lineItems: [
          {
            description: 'Boxed parts',
            weight: 600,
            weightUnit: 'Pounds',
            pieces: 1,
            packagingType: 'PAT',
            classification: source.orderComponents[0]!.freightClass,
            hazardous: false,
            stackable: false,
          },
        ],
      },
    ]);
    expect(request.shipmentTotals).toEqual({ grossWeight: 600, weightUnit: 'Pounds', handlingUnits: 1, cube: 54, cubeDimensionsUnit: 'Feet' });
  });

  it('the smallest booked shipment (no phones, no description) is refused with each missing value named', () => {
    const result = ebolRequestForShipment(minimalShipment(), settings);
    expect(result).toEqual({
      ok: false,
      violations: [
        { field: 'orderComponents[0].description', reason: 'the eBOL 2.1 needs a description of each line item' },
        { field: 'pickupAddress.phoneNumber', reason: 'the eBOL 2.1 origin contact needs a 10-digit phone number' },
        { field: 'deliveryAddress.phoneNumber', reason: 'the eBOL 2.1 destination contact needs a 10-digit phone number' },
      ],
    });
  });

  it('phones are 10 digits: +1 and punctuation dropped, an extension apart, a non-US number refused', () => {
    const { request } = validRequest(fullShipment());
    expect(request.billTo.contact).toEqual({ phone: '3125550100', phoneExt: '204', name: 'Accounts Payable' });
    const foreign = ebolRequestForShipment(
      shipment({ deliveryAddress: { name: 'B', address1: '2 Elm St', city: 'Atlanta', state: 'GA', zipCode: '30336', phoneNumber: '+44 20 7946 0958' } }),
      settings,
    );
    expect(foreign).toEqual({
      ok: false,
      violations: [{ field: 'deliveryAddress.phoneNumber', reason: '"+44 20 7946 0958" is not a 10-digit US phone number, which the eBOL 2.1 destination contact needs' }],
    });
    const short = ebolRequestForShipment(
      shipment({ deliveryAddress: { name: 'B', address1: '2 Elm St', city: 'Atlanta', state: 'GA', zipCode: '30336', phoneNumber: '555-0199' } }),
      settings,
    );
    expect(short.ok).toBe(false);
  });

  it('every carrier field set: PRO, master BOL, trailer, seals, PO, window, terms, COD, declared value, accessorials', () => {
    const source = fullShipment();
    const { request, warnings } = validRequest(
      source,
      ebolSettingsSchema.parse({ isTest: true, requestorRole: 'Third Party', accounts: { shipper: 'SH-1', consignee: 'CN-2', billTo: 'BT-3' }, emergencyContactName: 'CHEMTREC' }),
    );
    // What eBOL 2.1 has no place for is said, never dropped silently.
    expect(warnings).toEqual([
      `the dock's close time ${source.pickupWindow!.closeTime} has no place in eBOL 2.1 without a pickup appointment: only the ready time is sent (bol.requestedPickupDate)`,
      'FOB origin has no place in eBOL 2.1: left out (the printed BOL shows it)',
    ]);
    expect(request.bol).toEqual({
      function: 'Create',
      requestedPickupDate: '2026-11-23T08:00:00.000',
      isTest: true,
      requestorRole: 'Third Party',
      specialInstructions: 'Call consignee 1 hour before delivery.',
    });
    expect(request.referenceNumbers).toEqual({
      pro: 'ODFL-123456789',
      shipmentId: 'SO-000123',
      masterBol: '06141410000001231',
      trailerId: 'TRL-4471',
      bol: ['06141410000001231'],
      po: [{ number: 'PO-7781', pieces: 40, weight: 1991, weightUnit: 'Pounds', palletized: true }],
      additionalReferences: [
        { name: 'Seal Number', value: 'SEAL-0001' },
        { name: 'Seal Number', value: 'SEAL-0002' },
      ],
    });
    expect(request.payment).toEqual({ terms: 'Third Party' });
    expect(request.origin.account).toBe('SH-1');
    expect(request.destination.account).toBe('CN-2');
    expect(request.billTo).toEqual({
      account: 'BT-3',
      name: THIRD_PARTY.name,
      address1: THIRD_PARTY.address1,
      address2: THIRD_PARTY.address2,
      city: 'Chicago',
      stateProvince: 'IL',
      postalCode: '60601',
      country: 'USA',
      contact: { phone: '3125550100', phoneExt: '204', name: 'Accounts Payable' },
    });
    expect(request.accessorials?.codes).toEqual(['LFTD', 'IPU', 'RES', 'APTD', 'MNC', 'HAZ', 'COD']);
    // APTD needs a date: the estimated delivery day at the destination.
    expect(request.accessorials?.appointmentDetails).toEqual({ delivery: { start: '2026-11-26T00:00:00.000' } });
    expect(request.accessorials?.hazardousDetails).toEqual({ emergencyContact: { name: 'CHEMTREC', phone: '8004249300' } });
    expect(request.accessorials?.cod).toEqual({
      amount: '1234.56',
      currency: 'USD',
      terms: 'Prepaid',
      customerCheckAcceptable: true,
      remitTo: { name: 'Midwest Fixtures Inc.', address1: '1200 W Lake St', address2: 'Dock 4', city: 'Chicago', stateProvince: 'IL', postalCode: '60607', country: 'USA' },
    });
    expect(request.shipmentTotals).toMatchObject({ grossWeight: 1991, handlingUnits: 4, declaredValue: 25000, currency: 'USD' });
  });

  it('weights, dimensions and cube are rounded up to whole numbers: never less than booked', () => {
    const { request } = validRequest(fullShipment());
    const [shelving, , cylinders] = request.commodities.handlingUnits;
    expect(shelving).toMatchObject({ count: 2, weight: 1201 });
    expect(shelving!.lineItems[0]).toMatchObject({ weight: 1201, nmfc: '61680', nmfcSub: '3', pieces: 10, packagingType: 'CRT' });
    expect(cylinders).toMatchObject({ weight: 311, length: 41, width: 48, height: 53 });
    // 1200.5 + 480 + 310.25 = 1990.75 lb -> 1991.
    expect(request.shipmentTotals.grossWeight).toBe(1991);
    // 2 x 48x40x48 + 48x40x48 + 40.5x48x52.25 in3 = 161.1 ft3 -> 162.
    expect(request.shipmentTotals.cube).toBe(Math.ceil((3 * 48 * 40 * 48 + 40.5 * 48 * 52.25) / 1728));
  });

  it('hazardous lines carry the 49 CFR 172.202 description and their details; the emergency contact defaults to the shipper', () => {
    const source = shipment({
      emergencyContactPhone: '1-800-424-9300',
      orderComponents: [line({ description: 'Fuel cans', pieceCount: 12, packagingType: 'CAN', hazmat: GASOLINE }), line({ description: 'Not dangerous' })],
    });
    const { request } = validRequest(source);
    const [fuel, plain] = request.commodities.handlingUnits.map((unit) => unit.lineItems[0]!);
    expect(fuel).toEqual({
      description: 'Fuel cans',
      weight: 600,
      weightUnit: 'Pounds',
      pieces: 12,
      packagingType: 'CAN',
      classification: source.orderComponents[0]!.freightClass,
      hazardous: true,
      hazardousDescription: 'UN1203, Gasoline, 3, PG II',
      hazardousDetails: { weight: 600, weightUnit: 'Pounds', class: '3', unnaNumber: 'UN1203', propername: 'Gasoline', packingGroup: 'II' },
      stackable: false,
    });
    expect(plain).toMatchObject({ hazardous: false });
    expect(plain).not.toHaveProperty('hazardousDetails');
    expect(request.accessorials).toEqual({ codes: ['LFTD', 'HAZ'], hazardousDetails: { emergencyContact: { name: 'Midwest Fixtures Inc.', phone: '8004249300' } } });
  });

  it('collect terms bill the consignee; COD fee terms and check acceptance follow the shipment', () => {
    const { request } = validRequest(
      shipment({ freightChargeTerms: { terms: 'COLLECT', billTo: null }, cod: { amountInCents: 5, feeTerms: 'COLLECT', customerCheckAcceptable: false } }),
    );
    expect(request.payment.terms).toBe('Collect');
    expect(request.billTo).toEqual(request.destination);
    expect(request.accessorials?.cod).toMatchObject({ amount: '0.05', terms: 'Collect', customerCheckAcceptable: false });
  });

  it('many lines: one handling unit entry per order component, in order, each with its own figures', () => {
    const lines = manyLines(300);
    const { request } = validRequest(shipment({ orderComponents: lines }));
    expect(request.commodities.handlingUnits).toHaveLength(300);
    request.commodities.handlingUnits.forEach((unit, index) => {
      const source = lines[index]!;
      expect(unit.count).toBe(source.palletCount);
      expect(unit.weight).toBe(Math.ceil(source.poundsWeight));
      expect(unit.height).toBe(source.dimensions.height);
      expect(unit.lineItems).toHaveLength(1);
      expect(unit.lineItems[0]).toMatchObject({
        description: source.description,
        pieces: source.pieceCount,
        classification: source.freightClass,
        nmfc: source.nmfcCode!.split('-')[0],
      });
    });
  });

  it('Unicode names and descriptions pass through unchanged: JSON carries them', () => {
    const name = 'Café Zürich Größe — 日本製 🚚';
    const { request } = validRequest(
      shipment({
        deliveryAddress: { name, address1: 'Rue de l’Église 5', city: 'Atlanta', state: 'GA', zipCode: '30336', phoneNumber: '404-555-0199' },
        orderComponents: [line({ description: 'Жёлтый ящик ✓' })],
      }),
    );
    expect(request.destination.name).toBe(name);
    expect(request.destination.address1).toBe('Rue de l’Église 5');
    expect(request.commodities.handlingUnits[0]!.lineItems[0]!.description).toBe('Жёлтый ящик ✓');
  });

  it('what eBOL 2.1 has no place for is left out with a warning, not guessed', () => {
    const { request, warnings } = validRequest(
      shipment({
        accessorials: ['APPOINTMENT', 'TARP_REQUIRED'],
        estimatedDeliveryDate: null,
        transitDays: null,
        declaredValue: { amountInCents: 250, per: 'POUND' },
        orderComponents: [line({ description: 'Rolls', packagingType: 'hampers', pieceCount: 3 })],
      }),
    );
    expect(request.accessorials).toBeUndefined();
    expect(request.shipmentTotals).not.toHaveProperty('declaredValue');
    expect(request.commodities.handlingUnits[0]!.lineItems[0]!.packagingType).toBe('OTH');
    expect(warnings).toEqual([
      'orderComponents[0].packagingType "hampers" has no eBOL code: written as OTH (other)',
      'accessorial TARP_REQUIRED has no eBOL 2.1 code: left out',
      'APPOINTMENT left out of the eBOL: APTD needs a delivery date and the lane has no estimated delivery',
      'the declared value is per pound: eBOL 2.1 has only a total (shipmentTotals.declaredValue), left out',
    ]);
  });

  it('the appointment day is the local delivery day, also on the West coast where 17:00 is the next day in UTC', () => {
    const { request } = validRequest(shipment({ accessorials: ['APPOINTMENT'], estimatedDeliveryDate: '2026-11-27T01:00:00.000Z' }));
    expect(request.accessorials?.appointmentDetails).toEqual({ delivery: { start: '2026-11-26T00:00:00.000' } });
  });

  it('a cancelled shipment has no eBOL to create', () => {
    const result = ebolRequestForShipment(shipment({ orderStatus: 'CANCELLED', cancelledAt: '2026-11-21T10:00:00.000Z' }), settings);
    expect(result).toEqual({
      ok: false,
      violations: [{ field: 'orderStatus', reason: 'the shipment is cancelled: an eBOL is created for a booked shipment (the eBOL API deletes by PRO)' }],
    });
  });

  it('the closed schema does catch a misspelt or missing field (the validator can fail)', () => {
    const { request } = validRequest(shipment());
    const validate = bolRequestValidator();
    expect(validate({ ...request, payment: { term: 'Prepaid' } })).toBe(false);
    expect(validate({ ...request, origin: { ...request.origin, contact: {} } })).toBe(false);
    expect(validate({ ...request, commodities: { ...request.commodities, handlingUnits: [{ ...request.commodities.handlingUnits[0]!, weight: 1.5 }] } })).toBe(false);
    expect(validate({ ...request, extra: true })).toBe(false);
  });
});
