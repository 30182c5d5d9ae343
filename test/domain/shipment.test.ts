import { describe, expect, it } from 'vitest';
import { shipmentRequestSchema, type Quote, type ShipmentRequest } from '../../src/domain/schemas.js';
import { bookedLine, buildShipment, checkShipmentAgainstQuote, quoteRequestForShipment, withNumbers } from '../../src/domain/shipment.js';

const quote: Quote = {
  id: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3P',
  companyId: 'default',
  quotedPriceInCents: 38493,
  quoteExpirationTime: '2026-11-30T12:00:00.000Z',
  transitDays: 3,
  estimatedDeliveryDate: '2026-11-26T22:00:00.000Z',
  requiredPickupDate: '2026-11-23',
  pickupAddress: { zipCode: '60608', countryCode: 'US', city: 'Chicago', state: 'IL' },
  deliveryAddress: { zipCode: '10001', countryCode: 'US', city: 'New York', state: 'NY' },
  miles: 841,
  accessorials: ['LIFTGATE_DELIVERY'],
  orderComponents: [
    {
      palletCount: 2,
      poundsWeight: 1200,
      dimensions: { length: 48, width: 40, height: 48 },
      description: null,
      nmfcCode: null,
      packagingType: null,
      pieceCount: null,
      hazmat: null,
      densityPcf: 11.25,
      freightClass: '92.5',
    },
    {
      palletCount: 1,
      poundsWeight: 300,
      dimensions: { length: 48, width: 40, height: 40 },
      description: null,
      nmfcCode: null,
      packagingType: null,
      pieceCount: null,
      hazmat: null,
      densityPcf: 6.75,
      freightClass: '125',
    },
  ],
  priceBreakdown: { linehaulInCents: 98700, discountInCents: 69090, minimumChargeApplied: false, fuelSurchargeInCents: 8883, accessorialsInCents: [] },
  createdAt: '2026-11-22T12:00:00.000Z',
};

const address = { name: 'Acme DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'il', zipCode: '60608' };

function request(overrides: Record<string, unknown> = {}): ShipmentRequest {
  return shipmentRequestSchema.parse({
    quoteId: quote.id,
    refNumber: 'PO-1',
    pickupAddress: address,
    deliveryAddress: { ...address, name: 'Store 12', city: 'New York', state: 'NY', zipCode: '10001' },
    orderComponents: [
      {
        palletCount: 2,
        poundsWeight: 1200,
        dimensions: { length: 48, width: 40, height: 48 },
        description: 'Machine parts',
        nmfcCode: '161030',
        packagingType: 'crates',
        pieceCount: 10,
      },
      { palletCount: 1, poundsWeight: 300, dimensions: { length: 48, width: 40, height: 40 }, pieceCount: 0 },
    ],
    ...overrides,
  });
}

describe('booking against a quote', () => {
  const before = new Date('2026-11-22T13:00:00Z');

  it('accepts the quoted freight with per-line text added', () => {
    expect(checkShipmentAgainstQuote(request().orderComponents, quote, before)).toEqual({ ok: true });
  });

  it('refuses an expired quote, also at the very instant of expiry', () => {
    for (const now of [new Date(quote.quoteExpirationTime), new Date('2026-12-01T00:00:00Z')]) {
      const check = checkShipmentAgainstQuote(request().orderComponents, quote, now);
      expect(check.ok).toBe(false);
      if (!check.ok) {
        expect(check.reason).toBe('expired');
        expect(check.detail).toContain(quote.id);
      }
    }
  });

  it('refuses a different number of components', () => {
    const components = request().orderComponents.slice(0, 1);
    const check = checkShipmentAgainstQuote(components, quote, before);
    expect(check).toMatchObject({ ok: false, reason: 'mismatch', violations: [{ field: 'orderComponents' }] });
  });

  it('names every field that differs in pallets, weight or dimensions', () => {
    const components = request().orderComponents.map((component, index) =>
      index === 0 ? { ...component, palletCount: 3, dimensions: { ...component.dimensions, height: 50 } } : { ...component, poundsWeight: 301 },
    );
    const check = checkShipmentAgainstQuote(components, quote, before);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.violations.map((violation) => violation.field)).toEqual([
        'orderComponents[0].palletCount',
        'orderComponents[0].dimensions.height',
        'orderComponents[1].poundsWeight',
      ]);
      expect(check.violations[0]!.reason).toBe('quoted 2, sent 3');
    }
  });
});

describe('the shipment record', () => {
  it('takes per-line text from the request and the freight class as quoted', () => {
    const shipment = buildShipment({
      id: 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Q',
      orderNumber: 'SO-000042',
      bolNumber: '06141410000000425',
      ssccs: ['006141410000000016', '006141410000000023', '006141410000000030'],
      request: request(),
      quote,
      now: new Date('2026-11-22T13:00:00Z'),
    });
    expect(shipment.ssccs).toHaveLength(3);
    expect(shipment).toMatchObject({
      orderStatus: 'INITIALIZED',
      refNumber: 'PO-1',
      quoteId: quote.id,
      totalPriceInCents: quote.quotedPriceInCents,
      transitDays: 3,
      estimatedDeliveryDate: quote.estimatedDeliveryDate,
      requiredPickupDate: quote.requiredPickupDate,
      accessorials: ['LIFTGATE_DELIVERY'],
      createdAt: '2026-11-22T13:00:00.000Z',
    });
    expect(shipment.pickupAddress.state).toBe('IL');
    expect(shipment.orderComponents).toEqual([
      expect.objectContaining({ description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10, freightClass: '92.5', densityPcf: 11.25 }),
      expect.objectContaining({ description: null, pieceCount: 0, freightClass: '125' }),
    ]);
  });
});

describe('bookedLine', () => {
  /** What buildShipment wrote before bookedLine: the request's line spread, then its stackable from the quote, density and class. */
  const spread = (component: ShipmentRequest['orderComponents'][number], quoted: Quote['orderComponents'][number]) => ({
    ...component,
    ...(component.stackable === undefined && quoted.stackable !== undefined ? { stackable: quoted.stackable } : {}),
    densityPcf: quoted.densityPcf,
    freightClass: quoted.freightClass,
  });
  it.each([
    ['said nowhere', undefined, undefined],
    ['said at booking', false, undefined],
    ['said on the quote only', undefined, true],
    ['said on both (the booking wins)', false, true],
  ])('is the line spread as before, key for key, stackable %s', (_case, atBooking, onQuote) => {
    const component = request({
      orderComponents: [
        {
          palletCount: 2,
          poundsWeight: 1200,
          dimensions: { length: 48, width: 40, height: 48 },
          description: 'Machine parts',
          ...(atBooking === undefined ? {} : { stackable: atBooking }),
        },
      ],
    }).orderComponents[0]!;
    const quoted = onQuote === undefined ? quote.orderComponents[0]! : { ...quote.orderComponents[0]!, stackable: onQuote };
    const line = bookedLine(component, quoted);
    expect(Object.keys(line)).toEqual(Object.keys(spread(component, quoted)));
    expect(JSON.stringify(line)).toBe(JSON.stringify(spread(component, quoted)));
  });
});

describe('withNumbers', () => {
  const carrierQuote: Quote = {
    ...quote,
    orderComponents: [{ ...quote.orderComponents[0]!, stackable: true }, quote.orderComponents[1]!],
    pricedBy: { kind: 'TARIFF', tariff: 'Shipper LTL', version: '2026-01-01' },
    carrier: { scac: 'SPLX', name: 'Splendid Express' },
  };
  it.each([
    ['no PRO given, one from the carrier block', request(), quote, 'SPLX1000'],
    ['no PRO given, none assigned', request(), quote, undefined],
    ['a PRO given by the request (it wins)', request({ proNumber: '4711', carrier: { name: 'Splendid', scac: 'SPLX' } }), quote, 'SPLX1002'],
    ["a quote naming its pricing and carrier, a line's stackable said on the quote", request(), carrierQuote, 'SPLX1001'],
  ])('gives the record buildShipment gives with the numbers, key for key: %s', (_case, shipmentRequest, onQuote, proNumber) => {
    const provisional = buildShipment({
      id: 'sh_00000000000000000000000000',
      orderNumber: 'SO-000000',
      bolNumber: '00000000000000000',
      ssccs: [],
      request: shipmentRequest,
      quote: onQuote,
      now: new Date('2026-11-22T13:00:00Z'),
    });
    const numbers = {
      id: 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Q',
      orderNumber: 'SO-000042',
      bolNumber: '06141410000000425',
      ssccs: ['006141410000000016', '006141410000000023'],
      proNumber,
    };
    const named = { ...onQuote, id: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Q' };
    const now = new Date('2026-11-22T13:00:05Z');
    expect(JSON.stringify(withNumbers(provisional, { ...numbers, quoteId: named.id, now }))).toBe(
      JSON.stringify(buildShipment({ ...numbers, request: shipmentRequest, quote: named, now })),
    );
  });
});

describe('quote-first booking', () => {
  it('quotes on the lane from the shipper to the consignee', () => {
    const quoteRequest = quoteRequestForShipment(request({ quoteId: undefined, requiredPickupDate: '2026-11-24', accessorials: ['APPOINTMENT'] }));
    expect(quoteRequest).toMatchObject({
      pickupAddress: { zipCode: '60608', countryCode: 'US' },
      deliveryAddress: { zipCode: '10001', countryCode: 'US' },
      requiredPickupDate: '2026-11-24',
      accessorials: ['APPOINTMENT'],
    });
    expect(quoteRequest.orderComponents).toHaveLength(2);
  });
});

describe('the shipment request schema', () => {
  it('refuses freightClass on a component and reports every violation at once', () => {
    const result = shipmentRequestSchema.safeParse({
      pickupAddress: { ...address, zipCode: '6060' },
      deliveryAddress: { name: '' },
      orderComponents: [{ palletCount: 1, poundsWeight: 100, dimensions: { length: 48, width: 40, height: 40 }, freightClass: '70', pieceCount: -1, description: 'x'.repeat(257) }],
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'pickupAddress.zipCode',
        'deliveryAddress.name',
        'deliveryAddress.address1',
        'orderComponents.0.freightClass',
        'orderComponents.0.pieceCount',
        'orderComponents.0.description',
      ]),
    );
  });

  it('accepts pieceCount 0 and the limits exactly: 256, 32 and 32 characters', () => {
    const parsed = shipmentRequestSchema.safeParse({
      pickupAddress: address,
      deliveryAddress: address,
      orderComponents: [
        {
          palletCount: 1,
          poundsWeight: 100,
          dimensions: { length: 48, width: 40, height: 40 },
          pieceCount: 0,
          description: 'd'.repeat(256),
          nmfcCode: 'n'.repeat(32),
          packagingType: 'p'.repeat(32),
        },
      ],
    });
    expect(parsed.success).toBe(true);
  });
});
