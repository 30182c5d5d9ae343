/**
 * Contract: what is booked is exactly what was meant (issue 11), in both modes. Exact classes on
 * density boundaries, freight limits and the beyond-LTL warning, unknown fields refused with a
 * did-you-mean, addresses that agree with their ZIP, ETAs in the destination's real zone. A refused
 * request books nothing and spends no order number.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENTATION_PREFIX_WARNING } from '../../../src/domain/bolNumber.js';
import { CONSIGNEE, COMPONENT, expectProblem, quoteRequest, SHIPPER, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const orderSerial = (orderNumber: string) => Number(orderNumber.slice(3));

const contract: ContractCase = (target) => {
  describe('booking integrity', () => {
    it('classes 1,000 lb on one 48x48x50 pallet (exactly 15 pcf) as 70 and shows 15 pcf', async () => {
      const { data: quote } = await target().api.createLaneQuote(
        quoteRequest({ orderComponents: [{ palletCount: 1, poundsWeight: 1000, dimensions: { length: 48, width: 48, height: 50 } }] }),
      );
      expect(quote.orderComponents[0]).toMatchObject({ densityPcf: 15, freightClass: '70' });
      const { data: below } = await target().api.createLaneQuote(
        quoteRequest({ orderComponents: [{ palletCount: 1, poundsWeight: 999.9, dimensions: { length: 48, width: 48, height: 50 } }] }),
      );
      expect(below.orderComponents[0]).toMatchObject({ densityPcf: 14.99, freightClass: '85' });
    });

    it('refuses absurd numbers with the limit in the message, and books nothing for them', async () => {
      const { api } = target();
      const before = (await api.createShipment(shipmentRequest({ refNumber: 'LIMITS-BEFORE' }))).data;
      const problem = await expectProblem(
        api.createShipment(
          shipmentRequest({
            orderComponents: [
              { palletCount: 1, poundsWeight: 1e308, dimensions: { length: 48, width: 40, height: 5e-324 } },
              { palletCount: 61, poundsWeight: 1e15, dimensions: { length: 637, width: 103, height: 111 }, pieceCount: 100_000 },
            ],
          }),
        ),
        400,
      );
      expect(problem.violations).toEqual([
        { field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer)' },
        { field: 'orderComponents[0].dimensions.height', reason: 'height must be at least 1 in' },
        { field: 'orderComponents[1].palletCount', reason: 'palletCount must be at most 60 (a 53 ft trailer holds 60 pallets double-stacked)' },
        { field: 'orderComponents[1].poundsWeight', reason: 'poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer)' },
        { field: 'orderComponents[1].dimensions.length', reason: 'length must be at most 636 in (the inside length of a 53 ft trailer)' },
        { field: 'orderComponents[1].dimensions.width', reason: "width must be at most 102 in (a trailer's width; give the longer side as length)" },
        { field: 'orderComponents[1].dimensions.height', reason: 'height must be at most 110 in (the inside height of a 53 ft trailer)' },
        { field: 'orderComponents[1].pieceCount', reason: 'pieceCount must be at most 99,999' },
      ]);
      await expectProblem(api.createLaneQuote(quoteRequest({ orderComponents: [{ ...COMPONENT, poundsWeight: 45_000.01 }] })), 400);
      // No order number was spent on the refused booking.
      const after = (await api.createShipment(shipmentRequest({ refNumber: 'LIMITS-AFTER' }))).data;
      expect(orderSerial(after.orderNumber)).toBe(orderSerial(before.orderNumber) + 1);
    });

    it('quotes and books freight beyond standard LTL with a warning that names volume LTL or truckload', async () => {
      const { api } = target();
      const heavy = [{ palletCount: 14, poundsWeight: 21_000, dimensions: { length: 48, width: 40, height: 48 } }];
      const { data: quote, warnings } = await api.createLaneQuote(quoteRequest({ orderComponents: heavy }));
      expect(Number.isSafeInteger(quote.quotedPriceInCents)).toBe(true);
      expect(messagesOf(warnings)).toEqual([
        'beyond standard LTL: 14 pallets (standard LTL takes up to 12); 21,000 lb (standard LTL takes up to 20,000 lb). Carriers move such freight as volume LTL or truckload: ask for a volume LTL or truckload quote; this price is from the LTL tariff',
      ]);
      const booked = await api.createShipment(shipmentRequest({ quoteId: quote.id, orderComponents: heavy }));
      expect(messagesOf(booked.warnings)).toEqual([...messagesOf(warnings), DOCUMENTATION_PREFIX_WARNING]);
      // A unit longer than the published largest pallet (95x95x96 in) is refused before it is ever beyond LTL.
      const long = await expectProblem(
        api.createLaneQuote(quoteRequest({ orderComponents: [{ palletCount: 1, poundsWeight: 900, dimensions: { length: 144, width: 48, height: 40 } }] })),
        400,
      );
      expect(long.violations).toEqual([{ field: 'orderComponents[0].dimensions', reason: expect.stringContaining('beyond 95x95x96 in') }]);
      // On the edges: no warning.
      const edge = await api.createLaneQuote(quoteRequest({ orderComponents: [{ palletCount: 12, poundsWeight: 20_000, dimensions: { length: 48, width: 40, height: 48 } }] }));
      expect(messagesOf(edge.warnings)).toEqual([]);
    });

    it('refuses unknown fields on their own paths with a did-you-mean, and books nothing', async () => {
      const { api } = target();
      const quoteProblem = await expectProblem(
        api.createLaneQuote({ ...quoteRequest({ orderComponents: [{ ...COMPONENT, descripton: 'Pumps' }] }), accesorials: ['LIFTGATE_DELIVERY'] } as never),
        400,
      );
      expect(quoteProblem.violations).toEqual(
        expect.arrayContaining([
          { field: 'accesorials', reason: 'unknown field accesorials (did you mean accessorials?)' },
          { field: 'orderComponents[0].descripton', reason: 'unknown field descripton (did you mean description?)' },
        ]),
      );
      expect(quoteProblem.violations).toHaveLength(2);
      const shipmentProblem = await expectProblem(api.createShipment(shipmentRequest({ pickupAddress: { ...SHIPPER, zipcode: '60601' }, refnumber: 'PO-1' })), 400);
      expect(shipmentProblem.violations).toEqual(
        expect.arrayContaining([
          { field: 'pickupAddress.zipcode', reason: 'unknown field zipcode (did you mean zipCode?)' },
          { field: 'refnumber', reason: 'unknown field refnumber (did you mean refNumber?)' },
        ]),
      );
      const transitProblem = await expectProblem(api.transitTimes({ origin: { zipCode: '60601' }, destinations: [{ zipCode: '10001', contry: 'US' }] } as never), 400);
      expect(transitProblem.violations).toEqual([{ field: 'destinations[0].contry', reason: 'unknown field contry (did you mean countryCode?)' }]);
    });

    it('refuses a state that contradicts the ZIP, warns about another city, accepts both states of a ZIP on a state line', async () => {
      const { api } = target();
      const problem = await expectProblem(api.createShipment(shipmentRequest({ deliveryAddress: { ...CONSIGNEE, city: 'Chicago', state: 'IL' } })), 400);
      expect(problem.violations).toEqual([{ field: 'deliveryAddress.state', reason: 'IL does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP' }]);
      const otherCity = await api.createShipment(shipmentRequest({ deliveryAddress: { ...CONSIGNEE, city: 'Manhattan' } }));
      expect(messagesOf(otherCity.warnings)).toEqual([
        'Manhattan is not the USPS city of ZIP 10001 (New York, NY); check the address, carriers route by the ZIP (deliveryAddress.city)',
        DOCUMENTATION_PREFIX_WARNING,
      ]);
      // Spelling variants of the same city are no warning: "St. Louis" is "Saint Louis".
      const spelled = await api.createShipment(shipmentRequest({ deliveryAddress: { ...CONSIGNEE, city: 'St. Louis', state: 'mo', zipCode: '63101' } }));
      expect(messagesOf(spelled.warnings)).toEqual([DOCUMENTATION_PREFIX_WARNING]);
      // Texhoma straddles the Oklahoma-Texas line: its ZIP takes either state.
      for (const state of ['OK', 'TX']) {
        const booked = await api.createShipment(shipmentRequest({ deliveryAddress: { ...CONSIGNEE, city: 'Texhoma', state, zipCode: '73949' } }));
        expect(booked.data.deliveryAddress.state).toBe(state);
      }
      await expectProblem(api.createShipment(shipmentRequest({ deliveryAddress: { ...CONSIGNEE, city: 'Texhoma', state: 'NM', zipCode: '73949' } })), 400);
      // The third party billed is an address on the BOL and the invoice too.
      const billTo = (address: Record<string, string>) =>
        shipmentRequest({ freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { ...SHIPPER, name: 'Acme Payables', ...address } } } as never);
      const wrongBillTo = await expectProblem(api.createShipment(billTo({ city: 'Chicago', state: 'IL', zipCode: '10001' })), 400);
      expect(wrongBillTo.violations).toEqual([
        { field: 'freightChargeTerms.billTo.state', reason: 'IL does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP' },
      ]);
      const otherBillToCity = await api.createShipment(billTo({ city: 'Brooklyn', state: 'NY', zipCode: '10001' }));
      expect(messagesOf(otherBillToCity.warnings)).toEqual([
        'Brooklyn is not the USPS city of ZIP 10001 (New York, NY); check the address, carriers route by the ZIP (freightChargeTerms.billTo.city)',
        DOCUMENTATION_PREFIX_WARNING,
      ]);
    });

    it('checks addresses in batches and previews item by item', async () => {
      const { api, mode } = target();
      const wrongState = shipmentRequest({ pickupAddress: { ...SHIPPER, state: 'WI' } });
      const preview = (await api.previewShipments({ items: [{ request: shipmentRequest() }, { request: wrongState }] })).data.items;
      expect(preview.map((outcome) => outcome.ok)).toEqual([true, false]);
      expect(preview[1]!.ok === false && preview[1]!.problem.violations).toEqual([
        { field: 'pickupAddress.state', reason: 'WI does not match ZIP 60601, which is in Chicago, IL; correct the state or the ZIP' },
      ]);
      const booked = (await api.createShipments({ items: [{ request: wrongState, idempotencyKey: `${mode}-integrity-${Date.now()}` }] })).data.items;
      expect(booked[0]!.ok).toBe(false);
    });

    it('promises a summer ETA on the Hopi Reservation at 17:00 Arizona time (MST), not Navajo daylight time', async () => {
      const { data: quote } = await target().api.createLaneQuote({
        pickupAddress: { zipCode: '86001' },
        deliveryAddress: { zipCode: '86039' },
        requiredPickupDate: '2027-07-13',
        orderComponents: [COMPONENT],
      });
      expect(quote.transitDays).toBe(1);
      expect(quote.estimatedDeliveryDate).toBe('2027-07-15T00:00:00.000Z');
    });
  });
};

export default contract;
