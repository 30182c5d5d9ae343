/**
 * Contract: booked once and reversible (issue 12) over the API in both modes: a quote booked once
 * (409 naming the order, rebookQuote, Idempotency-Key replays), duplicate references (a warning in
 * the answer, REFUSE), cancelling (status, instant, reason and its bounds, twice, unknown ids, list
 * filters, a reference free again, numbers never given out again).
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENTATION_PREFIX_WARNING } from '../../../src/domain/bolNumber.js';
import type { Shipment } from '../../../src/domain/schemas.js';
import { expectProblem, fields, quoteRequest, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const serial = (shipment: Shipment) => Number(shipment.orderNumber.slice(3));
const bolSerial = (shipment: Shipment) => Number(shipment.bolNumber.slice(7, 16));

const contract: ContractCase = (target) => {
  describe('booked once', () => {
    it('books a quote once: 409 naming the order, an Idempotency-Key retry is still a replay, rebookQuote books it again on purpose', async () => {
      const { api, mode } = target();
      const { data: quote } = await api.createLaneQuote(quoteRequest());
      const key = `once-${mode}-${quote.id}`;
      const first = await api.createShipment(shipmentRequest({ quoteId: quote.id }), { idempotencyKey: key });
      expect(first.replayed).toBe(false);

      const problem = await expectProblem(api.createShipment(shipmentRequest({ quoteId: quote.id })), 409);
      expect(problem.detail).toContain(`quote ${quote.id} is already booked as ${first.data.orderNumber}`);
      expect(fields(problem)).toEqual(['quoteId']);
      // Another key is another booking: refused the same way.
      await expectProblem(api.createShipment(shipmentRequest({ quoteId: quote.id }), { idempotencyKey: `${key}-other` }), 409);

      // The same key and body: the booking comes back, not a 409.
      const retry = await api.createShipment(shipmentRequest({ quoteId: quote.id }), { idempotencyKey: key });
      expect(retry.replayed).toBe(true);
      expect(retry.data).toEqual(first.data);

      const { data: booked } = await api.getQuote(quote.id);
      expect(booked.status).toBe('BOOKED');
      expect(booked.bookings?.map((booking) => booking.orderNumber)).toEqual([first.data.orderNumber]);

      const again = await api.createShipment(shipmentRequest({ quoteId: quote.id, rebookQuote: true }));
      expect(again.data.quoteId).toBe(quote.id);
      expect(serial(again.data)).toBeGreaterThan(serial(first.data));
      // rebookQuote: false is the default, refused again naming both.
      const both = await expectProblem(api.createShipment(shipmentRequest({ quoteId: quote.id, rebookQuote: false })), 409);
      expect(both.detail).toContain(`already booked as ${first.data.orderNumber}, ${again.data.orderNumber}`);
    });

    it('counts the quote a booking quoted first on: booking that quote again is a 409 naming the shipment', async () => {
      const { api } = target();
      const { data: first } = await api.createShipment(shipmentRequest());
      const problem = await expectProblem(api.createShipment(shipmentRequest({ quoteId: first.quoteId })), 409);
      expect(problem.detail).toContain(`quote ${first.quoteId} is already booked as ${first.orderNumber}`);
      const { data: again } = await api.createShipment(shipmentRequest({ quoteId: first.quoteId, rebookQuote: true }));
      expect((await api.getQuote(first.quoteId)).data.bookings?.map((booking) => booking.orderNumber)).toEqual([first.orderNumber, again.orderNumber]);
      // Once both are cancelled the quote is free.
      await api.cancelShipment(first.id, {});
      await api.cancelShipment(again.id, {});
      const { data: third } = await api.createShipment(shipmentRequest({ quoteId: first.quoteId }));
      expect(third.quoteId).toBe(first.quoteId);
    });

    it('refuses the second booking of one quote within a batch, naming the item', async () => {
      const { api } = target();
      const { data: quote } = await api.createLaneQuote(quoteRequest());
      const { data } = await api.createShipments({ items: [{ request: shipmentRequest({ quoteId: quote.id }) }, { request: shipmentRequest({ quoteId: quote.id }) }] });
      expect(data.items[0]!.ok).toBe(true);
      const second = data.items[1]!;
      expect(second.ok).toBe(false);
      if (!second.ok) {
        expect(second.problem.status).toBe(409);
        expect(second.problem.detail).toContain(`quote ${quote.id} is already booked by item 1 of this batch`);
      }
    });

    it('warns in the answer when an active shipment has the reference (case and spaces ignored); REFUSE is a 409 naming it', async () => {
      const { api, mode } = target();
      const ref = `PO-ONCE-${mode}-${Date.now()}`;
      const first = await api.createShipment(shipmentRequest({ refNumber: ref }));
      expect(messagesOf(first.warnings)).toEqual([DOCUMENTATION_PREFIX_WARNING]);
      const second = await api.createShipment(shipmentRequest({ refNumber: ` ${ref.toLowerCase()}` }));
      expect(messagesOf(second.warnings)).toContain(
        `refNumber ${ref.toLowerCase()} is already booked as ${first.data.orderNumber}; this is another shipment with the same reference`,
      );
      const refused = await expectProblem(api.createShipment(shipmentRequest({ refNumber: ref, duplicateRefNumber: 'REFUSE' })), 409);
      expect(refused.detail).toBe(`refNumber ${ref} is already booked as ${first.data.orderNumber}, ${second.data.orderNumber}`);
      expect(fields(refused)).toEqual(['refNumber']);
    });
  });

  describe('cancel', () => {
    it('INITIALIZED -> CANCELLED with the instant and the trimmed reason; twice answers the same; the numbers stay taken', async () => {
      const { api, mode } = target();
      const ref = `CXL-${mode}-${Date.now()}`;
      const { data: booked } = await api.createShipment(shipmentRequest({ refNumber: ref }));
      expect(booked).toMatchObject({ orderStatus: 'INITIALIZED', cancelledAt: null, cancellationReason: null });
      const { data: cancelled } = await api.cancelShipment(booked.id, { reason: '  customer cancelled the order  ' });
      expect(cancelled).toEqual({
        ...booked,
        orderStatus: 'CANCELLED',
        cancelledAt: expect.stringMatching(/^2026-11-23T15:/),
        cancellationReason: 'customer cancelled the order',
        updatedAt: cancelled.cancelledAt,
      });
      expect(cancelled.cancelledAt).toMatch(/^2026-11-23T15:/);
      expect((await api.getShipment(booked.id)).data).toEqual(cancelled);
      // Twice: the cancelled shipment again, its reason and instant unchanged.
      expect((await api.cancelShipment(booked.id, { reason: 'another reason' })).data).toEqual(cancelled);
      expect((await api.cancelShipment(booked.id)).data).toEqual(cancelled);

      // Its reference may be booked again, even under REFUSE, without a warning about it.
      const rebooked = await api.createShipment(shipmentRequest({ refNumber: ref, duplicateRefNumber: 'REFUSE' }));
      expect(messagesOf(rebooked.warnings)).toEqual([DOCUMENTATION_PREFIX_WARNING]);
      // Its order and BOL numbers are never given out again.
      expect(serial(rebooked.data)).toBeGreaterThan(serial(cancelled));
      expect(bolSerial(rebooked.data)).toBeGreaterThan(bolSerial(cancelled));

      const listed = async (query: Record<string, string>) => (await api.listShipments({ refNumber: ref, ...query })).data.items.map((shipment) => shipment.id);
      expect(await listed({})).toEqual([rebooked.data.id, booked.id]);
      expect(await listed({ orderStatus: 'CANCELLED' })).toEqual([booked.id]);
      expect(await listed({ orderStatus: 'INITIALIZED' })).toEqual([rebooked.data.id]);
      await expectProblem(api.listShipments({ orderStatus: 'VOID' } as never), 400);
    });

    it('a cancelled quote booking frees the quote: OPEN again with its bookings listed', async () => {
      const { api } = target();
      const { data: quote } = await api.createLaneQuote(quoteRequest());
      const { data: shipment } = await api.createShipment(shipmentRequest({ quoteId: quote.id }));
      await api.cancelShipment(shipment.id, {});
      const { data: free } = await api.getQuote(quote.id);
      expect(free.status).toBe('OPEN');
      expect(free.bookings).toEqual([expect.objectContaining({ orderNumber: shipment.orderNumber, orderStatus: 'CANCELLED' })]);
      const { data: again } = await api.createShipment(shipmentRequest({ quoteId: quote.id }));
      expect(serial(again)).toBeGreaterThan(serial(shipment));
    });

    it('reason: 500 characters is the most, 501 a 400 on reason; unknown fields are refused; unknown and malformed ids are 404', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const tooLong = await expectProblem(api.cancelShipment(shipment.id, { reason: 'x'.repeat(501) }), 400);
      expect(fields(tooLong)).toEqual(['reason']);
      expect(fields(await expectProblem(api.cancelShipment(shipment.id, { reason: 7 } as never), 400))).toEqual(['reason']);
      expect(fields(await expectProblem(api.cancelShipment(shipment.id, { reson: 'typo' } as never), 400))).toEqual(['reson']);
      // Nothing was cancelled by the refused calls.
      expect((await api.getShipment(shipment.id)).data.orderStatus).toBe('INITIALIZED');
      const { data: cancelled } = await api.cancelShipment(shipment.id, { reason: 'y'.repeat(500) });
      expect(cancelled.cancellationReason).toHaveLength(500);
      await expectProblem(api.cancelShipment('sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z', {}), 404);
      // An order number names the shipment as its id does (the published paths are by order number); one never given out is 404, and so is what is neither.
      await expectProblem(api.cancelShipment('SO-999999', {}), 404);
      await expectProblem(api.cancelShipment('SO-00A001', {}), 404);
      expect((await api.cancelShipment(cancelled.orderNumber, {})).data).toEqual(cancelled);
    });

    it('a body of JSON null, a null reason or a reason of spaces: cancelled without a reason', async () => {
      const { api } = target();
      for (const body of [null, { reason: null }, { reason: '   ' }, {}]) {
        const { data: shipment } = await api.createShipment(shipmentRequest());
        const { data: cancelled } = await api.cancelShipment(shipment.id, body as never);
        expect(cancelled, JSON.stringify(body)).toMatchObject({ orderStatus: 'CANCELLED', cancellationReason: null });
      }
    });
  });
};

export default contract;
