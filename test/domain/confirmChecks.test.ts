import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confirmViolations, E164_PATTERN, type ConfirmAddress, type ConfirmOrder } from '../../src/domain/confirmChecks.js';
import { publishedLimits } from '../../src/domain/publishedLimits.js';

const published = JSON.parse(readFileSync(new URL('../../reference/oway-shipper-api.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: { Address: { properties: { phoneNumber: { pattern: string } } } } };
};

const address = (overrides: Partial<ConfirmAddress> = {}): ConfirmAddress => ({
  name: 'Fairgrounds Distribution Center',
  address1: '1531 Junipero Avenue',
  zipCode: '90804',
  contactPerson: 'Mike Johnson',
  phoneNumber: '+18087857650',
  ...overrides,
});

const order = (overrides: Partial<ConfirmOrder> = {}): ConfirmOrder => ({
  quoteId: '507f1f77bcf86cd799439013',
  pickupAddress: address(),
  deliveryAddress: address({ name: 'Acme Retail', zipCode: '60601', phoneNumber: '+13125550100' }),
  description: 'Electronics - fragile',
  orderComponents: [{ palletCount: 2, poundsWeight: 1000, dimensions: { length: 48, width: 40, height: 60 } }],
  ...overrides,
});

const fields = (value: ConfirmOrder) => confirmViolations(value).map((item) => item.field);

describe('confirm checks', () => {
  it('a complete order passes (times absent: their defaults)', () => {
    expect(confirmViolations(order())).toEqual([]);
  });

  it('the E.164 pattern is the published one', () => {
    expect(E164_PATTERN.source).toBe(published.components.schemas.Address.properties.phoneNumber.pattern);
  });

  describe('the prerequisite: a quote', () => {
    it.each([undefined, null, '', '  '])('quoteId %j is a violation', (quoteId) => {
      expect(confirmViolations(order({ quoteId }))).toEqual([{ field: 'quoteId', reason: 'the order has no quote: confirming needs the quote it was created from (quoteId)' }]);
    });
  });

  describe('both addresses', () => {
    it.each(['name', 'address1', 'zipCode', 'contactPerson', 'phoneNumber'] as const)('%s is required on each', (key) => {
      for (const value of [undefined, null, '', ' \t']) {
        expect(fields(order({ pickupAddress: address({ [key]: value }) }))).toEqual([`pickupAddress.${key}`]);
        expect(fields(order({ deliveryAddress: address({ [key]: value }) }))).toEqual([`deliveryAddress.${key}`]);
      }
      expect(confirmViolations(order({ pickupAddress: address({ [key]: undefined }) }))[0]?.reason).toMatch(new RegExp(`^${key} is required \\(.+\\)$`));
    });

    it('a missing address is one violation on its path', () => {
      expect(confirmViolations(order({ deliveryAddress: undefined }))).toEqual([{ field: 'deliveryAddress', reason: 'deliveryAddress is required' }]);
      expect(fields(order({ pickupAddress: null }))).toEqual(['pickupAddress']);
    });

    it('every field of both addresses missing: each named', () => {
      expect(fields(order({ pickupAddress: {}, deliveryAddress: {} }))).toEqual(
        ['pickupAddress', 'deliveryAddress'].flatMap((stop) => ['name', 'address1', 'zipCode', 'contactPerson', 'phoneNumber'].map((key) => `${stop}.${key}`)),
      );
    });

    it.each(['9080', '908044', 'ABCDE', '90804-12'])('zipCode %j is not a ZIP code', (zipCode) => {
      expect(confirmViolations(order({ pickupAddress: address({ zipCode }) }))).toEqual([
        { field: 'pickupAddress.zipCode', reason: `zipCode ${JSON.stringify(zipCode)} is not a 5-digit ZIP code` },
      ]);
    });

    it.each(['312-555-0100', '13125550100', '+0125550100', '+1 312 555 0100', '+1234567890123456', '+1'])('phoneNumber %j is not E.164', (phoneNumber) => {
      expect(confirmViolations(order({ deliveryAddress: address({ phoneNumber }) }))).toEqual([
        { field: 'deliveryAddress.phoneNumber', reason: `phoneNumber ${JSON.stringify(phoneNumber)} is not in E.164 format (a + and the country code, e.g. +13125550100)` },
      ]);
    });

    it.each(['+13125550100', '+442079460958', '+12', '+123456789012345'])('phoneNumber %j is E.164 (the pattern only: phone.ts judged it when it was read)', (phoneNumber) => {
      expect(confirmViolations(order({ deliveryAddress: address({ phoneNumber }) }))).toEqual([]);
    });

    it('times given must be HH:mm; their order is not the published check', () => {
      expect(confirmViolations(order({ pickupAddress: address({ openTime: '8am', closeTime: '24:00' }) }))).toEqual([
        { field: 'pickupAddress.openTime', reason: 'openTime "8am" is not a time of day written HH:mm, 00:00 to 23:59 (e.g. 10:00)' },
        { field: 'pickupAddress.closeTime', reason: 'closeTime "24:00" is not a time of day written HH:mm, 00:00 to 23:59 (e.g. 16:00)' },
      ]);
      expect(confirmViolations(order({ deliveryAddress: address({ openTime: '7:00', closeTime: '15:30' }) }))).toEqual([]);
      expect(confirmViolations(order({ deliveryAddress: address({ openTime: '17:00', closeTime: '09:00' }) }))).toEqual([]);
    });
  });

  describe('the order', () => {
    it.each([undefined, null, '', '   '])('description %j is empty', (description) => {
      expect(confirmViolations(order({ description }))).toEqual([{ field: 'description', reason: 'description must not be empty (what the shipment holds)' }]);
    });

    it('no components: no pallets', () => {
      expect(fields(order({ orderComponents: [] }))).toEqual(['orderComponents']);
      expect(fields(order({ orderComponents: undefined }))).toEqual(['orderComponents']);
    });

    it('51 pallets in all pass, 52 do not', () => {
      const line = (palletCount: number) => ({ palletCount, poundsWeight: palletCount * 100, dimensions: { length: 48, width: 40, height: 48 } });
      expect(confirmViolations(order({ orderComponents: [line(50), line(1)] }))).toEqual([]);
      expect(confirmViolations(order({ orderComponents: [line(50), line(2)] }))).toEqual([
        { field: 'orderComponents', reason: 'the order components have 52 pallets together; an order has at most 51 pallets' },
      ]);
    });
  });

  describe('each component', () => {
    it('palletCount at least 1, named on its index', () => {
      expect(
        fields(
          order({
            orderComponents: [
              { palletCount: 1, poundsWeight: 100 },
              { palletCount: 0, poundsWeight: 100 },
            ],
          }),
        ),
      ).toEqual(['orderComponents[1].palletCount']);
    });

    it('1 to 2,500 lb per pallet, poundsWeight being the component’s total: 5,000 lb on 2 pallets passes, on 1 it does not', () => {
      expect(confirmViolations(order({ orderComponents: [{ palletCount: 2, poundsWeight: 5000 }] }))).toEqual([]);
      expect(fields(order({ orderComponents: [{ palletCount: 1, poundsWeight: 5000 }] }))).toEqual(['orderComponents[0].poundsWeight']);
    });

    it('a pallet beyond 95x95x96 in is refused; beyond the standard size it is only charged (no violation)', () => {
      expect(fields(order({ orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 96, width: 48, height: 48 } }] }))).toEqual([
        'orderComponents[0].dimensions',
      ]);
      expect(confirmViolations(order({ orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 90, width: 48, height: 48 } }] }))).toEqual([]);
    });

    it('a liftgate at either stop holds every pallet to 62x62x94 in', () => {
      const big = { orderComponents: [{ palletCount: 1, poundsWeight: 500, dimensions: { length: 70, width: 48, height: 60 } }] };
      expect(confirmViolations(order(big))).toEqual([]);
      expect(fields(order({ ...big, pickupAddress: address({ liftgateRequired: true }) }))).toEqual(['orderComponents[0].dimensions']);
      expect(fields(order({ ...big, deliveryAddress: address({ liftgateRequired: true }) }))).toEqual(['orderComponents[0].dimensions']);
      expect(fields(order({ ...big, deliveryAddress: address({ liftgateRequired: false }) }))).toEqual([]);
    });

    it('dimensions not given are the default pallet: no violation', () => {
      expect(confirmViolations(order({ orderComponents: [{ palletCount: 1, poundsWeight: 500 }] }))).toEqual([]);
    });
  });

  it('every violation at once, in the order of the published list', () => {
    expect(
      fields({
        pickupAddress: address({ phoneNumber: '312-555-0100' }),
        deliveryAddress: address({ contactPerson: '' }),
        orderComponents: [
          { palletCount: 0, poundsWeight: 10 },
          { palletCount: 1, poundsWeight: 3000, dimensions: { length: 100, width: 40, height: 40 } },
        ],
      }),
    ).toEqual([
      'quoteId',
      'pickupAddress.phoneNumber',
      'deliveryAddress.contactPerson',
      'description',
      'orderComponents[0].palletCount',
      'orderComponents[1].poundsWeight',
      'orderComponents[1].dimensions',
    ]);
  });

  it('by the caller’s limits', () => {
    expect(fields(order({ orderComponents: [{ palletCount: 1, poundsWeight: 2000 }] }))).toEqual([]);
    expect(
      confirmViolations(order({ orderComponents: [{ palletCount: 1, poundsWeight: 2000 }] }), publishedLimits({ maxPoundsPerPallet: 1500 })).map((item) => item.field),
    ).toEqual(['orderComponents[0].poundsWeight']);
  });

  it("the order's weight per pallet (the published totalPoundsWeight rule) holds whenever every component's does", () => {
    const component = fc.record({ palletCount: fc.integer({ min: 1, max: 10 }), perPallet: fc.integer({ min: 1, max: 2500 }) });
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 5 }), (lines) => {
        const orderComponents = lines.map(({ palletCount, perPallet }) => ({ palletCount, poundsWeight: palletCount * perPallet }));
        expect(confirmViolations(order({ orderComponents }))).toEqual([]);
        const pallets = orderComponents.reduce((sum, item) => sum + item.palletCount, 0);
        const pounds = orderComponents.reduce((sum, item) => sum + item.poundsWeight, 0);
        expect(pounds).toBeGreaterThanOrEqual(pallets);
        expect(pounds).toBeLessThanOrEqual(2500 * pallets);
      }),
      { numRuns: 300 },
    );
  });

  it('every violation names a path of the published request', () => {
    const text = fc.option(fc.constantFrom('', ' ', 'x', '90804', '+13125550100', '312-555-0100', '10:00', '25:00'), { nil: undefined });
    const anAddress = fc.option(
      fc.record({
        name: text,
        address1: text,
        zipCode: text,
        contactPerson: text,
        phoneNumber: text,
        openTime: text,
        closeTime: text,
        liftgateRequired: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { nil: undefined },
    );
    const aComponent = fc.record({
      palletCount: fc.integer({ min: -1, max: 60 }),
      poundsWeight: fc.integer({ min: -1, max: 200_000 }),
      dimensions: fc.option(fc.record({ length: fc.integer({ min: 0, max: 120 }), width: fc.integer({ min: 0, max: 120 }), height: fc.integer({ min: 0, max: 120 }) }), {
        nil: undefined,
      }),
    });
    const path =
      /^(quoteId|description|orderComponents|(pickupAddress|deliveryAddress)(\.(name|address1|zipCode|contactPerson|phoneNumber|openTime|closeTime))?|orderComponents\[\d+\]\.(palletCount|poundsWeight|dimensions))$/;
    fc.assert(
      fc.property(
        fc.record({ quoteId: text, description: text, pickupAddress: anAddress, deliveryAddress: anAddress, orderComponents: fc.array(aComponent, { maxLength: 4 }) }),
        (value) => {
          for (const violation of confirmViolations(value)) {
            expect(violation.field).toMatch(path);
            expect(violation.reason.length).toBeGreaterThan(10);
            const index = /^orderComponents\[(\d+)\]/.exec(violation.field)?.[1];
            if (index !== undefined) expect(Number(index)).toBeLessThan(value.orderComponents.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
