/**
 * The import key is what a re-import recognises a booked shipment by: its text must stay byte for
 * byte what earlier versions hashed (canonicalJson of the request as written), however it is made.
 */
import { hash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/canonicalJson.js';
import { openCsvFile } from '../../src/import/csvFile.js';
import { DigestTable } from '../../src/import/digestTable.js';
import { importKeyOf } from '../../src/import/importKey.js';
import { groupRows, prepareShipment, type LocationResolver } from '../../src/import/shipmentRows.js';
import { tempDir } from '../helpers/cli.js';

/** The key as earlier versions wrote it (importer.ts before importKey.ts), verbatim: the definition. */
function referenceKey(request: Record<string, unknown>, occurrences: DigestTable, locationNames: WeakMap<object, string>): string {
  const asWritten: Record<string, unknown> = { ...request };
  for (const party of ['shipper', 'consignee']) {
    const address = request[party];
    const name = typeof address === 'object' && address !== null ? locationNames.get(address) : undefined;
    if (name !== undefined) asWritten[party] = { savedLocation: name };
  }
  const components = Array.isArray(request.orderComponents) ? request.orderComponents : [];
  asWritten.orderComponents = components.map((component) => canonicalJson(component)).sort();
  const digest = hash('sha256', canonicalJson(asWritten), 'buffer');
  const occurrence = (occurrences.get(digest)?.[0] ?? 0) + 1;
  occurrences.set(digest, [occurrence]);
  return `shipper-import:v2:${digest.toString('hex')}#${occurrence}`;
}

/**
 * The request as versions before the published wire (issue 40) made it, for referenceKey: the same
 * content in the names of that time (shipper, consignee, pickupDate; street1, postalCode, ... in
 * addresses). A saved shipper or consignee stays the very object, which referenceKey looks its name up by.
 */
const OLD_REQUEST_NAMES: Record<string, string> = { pickupAddress: 'shipper', deliveryAddress: 'consignee', requiredPickupDate: 'pickupDate' };
const OLD_ADDRESS_NAMES: Record<string, string> = { address1: 'street1', address2: 'street2', zipCode: 'postalCode', contactPerson: 'contactName', phoneNumber: 'phone' };
function asBefore(request: Record<string, unknown>, locationNames: WeakMap<object, string>): Record<string, unknown> {
  const oldAddress = (address: unknown): unknown =>
    typeof address !== 'object' || address === null ? address : Object.fromEntries(Object.entries(address).map(([key, value]) => [OLD_ADDRESS_NAMES[key] ?? key, value]));
  const before: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    // A saved shipper or consignee is hashed by its name (a saved bill-to by its content).
    if (key === 'pickupAddress' || key === 'deliveryAddress')
      before[OLD_REQUEST_NAMES[key]!] = typeof value === 'object' && value !== null && locationNames.has(value) ? value : oldAddress(value);
    else if (key === 'freightChargeTerms' && typeof value === 'object' && value !== null && 'billTo' in value) before[key] = { ...value, billTo: oldAddress(value.billTo) };
    else if (key === 'cod' && typeof value === 'object' && value !== null && 'remitTo' in value) before[key] = { ...value, remitTo: oldAddress(value.remitTo) };
    else before[OLD_REQUEST_NAMES[key] ?? key] = value;
  }
  return before;
}

describe('importKeyOf', () => {
  const dc = { address1: '1 Main St', name: 'DC One', city: 'Chicago', state: 'IL', zipCode: '60608' };
  const requests: Array<Record<string, unknown>> = [
    {
      refNumber: 'PO-1',
      pickupAddress: { name: 'A', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60608' },
      deliveryAddress: { name: 'B', address1: '2 Main St', city: 'New York', state: 'NY', zipCode: '10001' },
      orderComponents: [
        { palletCount: 1, poundsWeight: 500, dimensions: { length: 48, width: 40, height: 48 }, description: 'Widgets, "boxed"' },
        { palletCount: 2, poundsWeight: 40.5, pieceCount: 3, hazmat: { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'II' } },
      ],
    },
    {
      refNumber: 'PO-2',
      accessorials: ['LIFTGATE_DELIVERY'],
      pickupAddress: dc,
      deliveryAddress: { name: 'Ünïcødé ✓', address1: '2 Main St', city: 'New York', state: 'NY', zipCode: '10001' },
      carrier: { name: 'Old Dominion', scac: 'ODFL' },
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Payer', city: 'Dallas', state: 'TX', zipCode: '75207' } },
      cod: { amountInCents: 30000, feeTerms: 'PREPAID', customerCheckAcceptable: true },
      pickupWindow: { readyTime: '08:00', closeTime: '17:00' },
      requiredPickupDate: '2026-11-27',
      specialInstructions: 'Dock 4\nrear',
      orderComponents: [{ poundsWeight: 1200, palletCount: 1, dimensions: { length: 48, width: undefined, height: 36 }, stackable: false }],
    },
  ];

  it('gives the keys that the version before importKey.ts gave (a re-import of a file it imported recognises its shipments)', () => {
    // Written by that version (commit 2ec190f) for these very requests.
    const occurrences = new DigestTable();
    const names = new WeakMap<object, string>([[dc, 'dc one']]);
    expect([...requests, requests[0]!].map((request) => importKeyOf(request, occurrences, names))).toEqual([
      'shipper-import:v2:c8df76f4d3e8fef4cdf3faf72b5179fd40fdf854f83da1f53303face4009ded1#1',
      'shipper-import:v2:26774fc4204a948f3e1de136468d75b7a6acc987d8165eb01722fbf30f506503#1',
      'shipper-import:v2:c8df76f4d3e8fef4cdf3faf72b5179fd40fdf854f83da1f53303face4009ded1#2',
    ]);
  });

  it('is the definition for requests of any shape (no components, a key out of order, a saved location, no plain data)', () => {
    const names = new WeakMap<object, string>([[dc, 'dc one']]);
    const odd: Array<Record<string, unknown>> = [
      { refNumber: 'X' },
      { zeta: 1, orderComponents: 'not a list', alpha: { b: 1, a: 2 } },
      { pickupAddress: dc, deliveryAddress: dc, orderComponents: [{ b: 1, a: 2 }, { a: 1 }] },
      { requiredPickupDate: new Date(0), orderComponents: [{ weight: new Number(3) }] },
      // Addresses with none of the fields that say "address" (no ZIP, no street): still in their old names.
      { pickupAddress: { name: 'A', phoneNumber: '312-555-0000' }, deliveryAddress: { contactPerson: 'Bob', address2: 'Suite 5' }, orderComponents: [] },
      { freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Payer', phoneNumber: '1' } }, cod: { amountInCents: 1, remitTo: { name: 'R', contactPerson: 'C' } } },
    ];
    const [mine, theirs] = [new DigestTable(), new DigestTable()];
    for (const request of [...odd, ...requests, ...odd]) expect(importKeyOf(request, mine, names)).toBe(referenceKey(asBefore(request, names), theirs, names));
  });

  describe('of the requests a file makes', () => {
    let work: { dir: string; cleanup: () => Promise<void> };
    beforeEach(async () => {
      work = await tempDir('shipper-import-key-');
    });
    afterEach(() => work.cleanup());

    it('is the definition, and prepareShipment keys its objects in sorted order (their own JSON is their canonical text)', async () => {
      const header =
        'refNumber,pickupDate,accessorials,specialInstructions,carrierName,scac,proNumber,freightTerms,declaredValue,codAmount,codFeeTerms,codCustomerCheck,readyTime,closeTime,fob,masterBol,emergencyPhone,shipper,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,shipperPhone,consigneeName,consigneeStreet1,consigneeStreet2,consigneeCity,consigneeState,consigneePostalCode,consigneeContactName,billTo,billToName,billToCity,billToState,billToPostalCode,palletCount,poundsWeight,pieceCount,length,width,height,description,nmfcCode,packagingType,stackable,unNumber,properShippingName,hazardClass,packingGroup';
      const rows = [
        'PO-1,2026-11-27,liftgate delivery|inside-delivery,"Call ""first""",,ODFL,12345678,3rd party,$1250.50,300,prepaid,yes,8:00 AM,17:00,origin,yes,800-555-0100,,Shipper 1,2100 S Halsted St,Chicago,IL,2134,312-555-0000,"Consignee, 1",1 Penn Plaza,Suite 5,New York,NY,10001,Bob,Billing HQ,,,,,2,"1,200",3,48,40,36,"Widgets, boxed",161030,pallets,no,UN1263,Paint,3,PG II',
        'PO-1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,1,500,,48,,,Parts,,crates,yes,,,,',
        'PO-2,11/30/2026,,,Estes,,,collect,2.50/lb,,,,0800,5:00 PM,,no,,DC1,,,,,,,Consignee 2,1 Penn Plaza,,New York,NY,10001,,,Payer,Dallas,TX,75207,1,40.5,,48,40,48.5,"Line ""A""",,,,,,,',
        'PO-3,,,,,,,,,,,,,,,,,DC1,,,,,,,Consignee 3,1 Penn Plaza,,New York,NY,10001,,,,,,,1,500,,,,,Parts,,,,,,,',
      ];
      const file = join(work.dir, 'orders.csv');
      await writeFile(file, `${header}\r\n${rows.join('\r\n')}\r\n`);
      const saved: Record<string, Record<string, unknown>> = {
        dc1: { name: 'DC One', address1: '1 Main St', city: 'Chicago', state: 'IL', zipCode: '60608' },
        'billing hq': { zipCode: '10001', name: 'HQ', city: 'New York', state: 'NY', address1: '1 Penn Plaza' },
      };
      const names = new WeakMap<object, string>();
      const locations: LocationResolver = {
        resolve: async (name) => {
          const address = saved[name.toLowerCase()];
          if (!address) return undefined;
          const copy = Object.fromEntries(Object.entries(address).sort(([a], [b]) => (a < b ? -1 : 1)));
          names.set(copy, name.toLowerCase());
          return copy;
        },
      };
      const reading = await openCsvFile(file);
      const [mine, theirs] = [new DigestTable(), new DigestTable()];
      let prepared = 0;
      for await (const group of groupRows(reading.rows, reading.header)) {
        const shipment = await prepareShipment(group, reading.header, locations, { todayAt: () => '2026-11-20' });
        expect(shipment.ok).toBe(true);
        if (!shipment.ok) continue;
        prepared++;
        const { request } = shipment;
        for (const component of request.orderComponents as unknown[]) expect(JSON.stringify(component)).toBe(canonicalJson(component));
        for (const key of Object.keys(request).filter((name) => name !== 'orderComponents')) expect(JSON.stringify(request[key])).toBe(canonicalJson(request[key]));
        expect(importKeyOf(request, mine, names)).toBe(referenceKey(asBefore(request, names), theirs, names));
      }
      expect(prepared).toBe(3);
    });
  });
});
