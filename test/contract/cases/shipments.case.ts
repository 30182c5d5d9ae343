/** Contract: shipments (POST, GET, list) and booking against a quote, SPEC 3. */
import { describe, expect, it } from 'vitest';
import { DOCUMENTATION_PREFIX_WARNING } from '../../../src/domain/bolNumber.js';
import { COMPONENT, expectProblem, fields, quoteRequest, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const contract: ContractCase = (target) => {
  describe('shipments', () => {
    it('books a quote: the quoted price, class, transit and the per-line fields of the shipment', async () => {
      const { api } = target();
      const { data: quote } = await api.createLaneQuote(quoteRequest());
      const { data: shipment, warnings } = await api.createShipment(
        shipmentRequest({
          quoteId: quote.id,
          refNumber: 'PO-4711',
          orderComponents: [{ ...COMPONENT, description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 12 }],
        }),
      );
      // No warning but the one a store without its own GS1 company prefix earns.
      expect(messagesOf(warnings)).toEqual([DOCUMENTATION_PREFIX_WARNING]);
      // Created as published: INITIALIZED until confirmed (lifecycle.case.ts).
      expect(shipment).toMatchObject({
        orderStatus: 'INITIALIZED',
        quoteId: quote.id,
        refNumber: 'PO-4711',
        totalPriceInCents: quote.quotedPriceInCents,
        transitDays: quote.transitDays,
        estimatedDeliveryDate: quote.estimatedDeliveryDate,
        requiredPickupDate: quote.requiredPickupDate,
      });
      expect(shipment.id).toMatch(/^sh_[0-9A-Z]{26}$/);
      expect(shipment.orderNumber).toMatch(/^SO-\d{6,}$/);
      expect(shipment.bolNumber).toMatch(/^\d{17}$/);
      expect(shipment.orderComponents[0]).toMatchObject({ description: 'Machine parts', pieceCount: 12, freightClass: quote.orderComponents[0]!.freightClass });
    });

    it('quotes first when the request names no quote', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: quote } = await api.getQuote(shipment.quoteId);
      expect(quote.pickupAddress.zipCode).toBe('60601');
      expect(quote.deliveryAddress.zipCode).toBe('10001');
      expect(shipment.totalPriceInCents).toBe(quote.quotedPriceInCents);
    });

    it('answers GET and the list with the booked shipments, newest first', async () => {
      const { api } = target();
      const a = (await api.createShipment(shipmentRequest({ refNumber: 'A' }))).data;
      const b = (await api.createShipment(shipmentRequest({ refNumber: 'B' }))).data;
      expect((await api.getShipment(a.id)).data).toEqual(a);
      const page = await api.listShipments({ limit: 2 });
      expect(page.data.items.map((shipment) => shipment.id)).toEqual([b.id, a.id]);
      expect(Number(b.orderNumber.slice(3))).toBeGreaterThan(Number(a.orderNumber.slice(3)));
      await expectProblem(api.getShipment('sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z'), 404);
    });

    it('finds a shipment by its order number, however it is typed; an unknown one is an empty page, a malformed one a 400', async () => {
      const { api } = target();
      const booked = (await api.createShipment(shipmentRequest({ refNumber: 'BY-ORDER' }))).data;
      const serial = Number(booked.orderNumber.slice(3));
      for (const typed of [booked.orderNumber, booked.orderNumber.toLowerCase(), `SO${serial}`, `so-${String(serial).padStart(9, '0')}`, ` ${booked.orderNumber} `]) {
        const { data: page } = await api.listShipments({ orderNumber: typed });
        expect(
          page.items.map((shipment) => shipment.id),
          typed,
        ).toEqual([booked.id]);
      }
      // With another filter that the shipment does not pass: nothing.
      expect((await api.listShipments({ orderNumber: booked.orderNumber, orderStatus: 'CANCELLED' })).data.items).toEqual([]);
      expect((await api.listShipments({ orderNumber: `SO-${serial + 1000}` })).data.items).toEqual([]);
      for (const bad of ['SO-', 'SO-12a', '123', 'SO-1234567890123456']) {
        const problem = await expectProblem(api.listShipments({ orderNumber: bad }), 400);
        expect(fields(problem)).toEqual(['orderNumber']);
      }
    });

    it('refuses components that differ from the quote (400 quote_mismatch, with the fields) and an unknown quote (404)', async () => {
      const { api } = target();
      const { data: quote } = await api.createLaneQuote(quoteRequest());
      const problem = await expectProblem(
        api.createShipment(shipmentRequest({ quoteId: quote.id, orderComponents: [{ ...COMPONENT, poundsWeight: 1300, dimensions: { length: 48, width: 40, height: 50 } }] })),
        400,
      );
      expect(problem.reason).toBe('quote_mismatch');
      expect(fields(problem)).toEqual(['orderComponents[0].dimensions.height', 'orderComponents[0].poundsWeight']);
      await expectProblem(api.createShipment(shipmentRequest({ quoteId: 'qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z' })), 404);
    });

    it('refuses an expired quote with 400 quote_expired, as published', async () => {
      // Made 8 days ago for pickup today: its lifetime (48 hours, the published 2 days) ended before its pickup day.
      const { data: old } = await target()
        .pastApi(8 * 24 * 3600 * 1000)
        .createLaneQuote(quoteRequest({ requiredPickupDate: '2026-11-23' }));
      expect(Date.parse(old.quoteExpirationTime) - Date.parse(old.createdAt)).toBe(48 * 3600 * 1000);
      const problem = await expectProblem(target().api.createShipment(shipmentRequest({ quoteId: old.id })), 400);
      expect(problem.detail).toMatch(/expired/);
      expect(problem.reason).toBe('quote_expired');
    });

    it('refuses with 400 a quote whose pickup day has passed, naming the day and the way out, and answers it EXPIRED', async () => {
      // Made last Wednesday afternoon for Thursday: valid through Thursday at the origin (before its week), gone by Monday.
      const { data: old } = await target()
        .pastApi(5 * 24 * 3600 * 1000 - 3 * 3600 * 1000)
        .createLaneQuote(quoteRequest());
      expect(old.requiredPickupDate).toBe('2026-11-19');
      expect(old.quoteExpirationTime).toBe('2026-11-20T05:59:59.999Z');
      const problem = await expectProblem(target().api.createShipment(shipmentRequest({ quoteId: old.id })), 400);
      expect(problem.detail).toContain(`quote ${old.id} is for pickup on 2026-11-19, which has passed (today is 2026-11-23 at the origin)`);
      expect(problem.detail).toContain(`shipper ship --quote ${old.id} --requote`);
      expect(problem.violations).toEqual([{ field: 'quoteId', reason: 'its pickup day 2026-11-19 has passed' }]);
      expect((await target().api.getQuote(old.id)).data.status).toBe('EXPIRED');
      const open = (await target().api.createLaneQuote(quoteRequest())).data;
      expect((await target().api.getQuote(open.id)).data.status).toBe('OPEN');
    });

    it('refuses freightClass on a shipment and reports shipper, consignee and component fields together', async () => {
      const problem = await expectProblem(
        target().api.createShipment(
          shipmentRequest({
            pickupAddress: { name: '' },
            deliveryAddress: { ...shipmentRequest().deliveryAddress, state: 'New York' },
            orderComponents: [{ ...COMPONENT, freightClass: '85', pieceCount: 1.5 }],
          }),
        ),
        400,
      );
      expect(fields(problem)).toEqual(
        expect.arrayContaining(['deliveryAddress.state', 'orderComponents[0].freightClass', 'orderComponents[0].pieceCount', 'pickupAddress.name', 'pickupAddress.zipCode']),
      );
    });

    it('books once for the same Idempotency-Key, even when the calls race', async () => {
      const { api } = target();
      const key = `ship-${target().mode}-${Date.now()}`;
      const request = shipmentRequest({ refNumber: 'RACE' });
      const results = await Promise.all([api.createShipment(request, { idempotencyKey: key }), api.createShipment(request, { idempotencyKey: key })]);
      expect(results[1].data).toEqual(results[0].data);
      // Exactly one of the racing calls booked; the other got the booking back as a replay.
      expect(results.map((result) => result.replayed).sort()).toEqual([false, true]);
      const again = await api.createShipment(request, { idempotencyKey: key });
      expect(again.data.orderNumber).toBe(results[0].data.orderNumber);
      expect(again.replayed).toBe(true);
    });
  });
};

export default contract;
