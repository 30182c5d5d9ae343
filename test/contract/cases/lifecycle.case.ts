/**
 * The order's life as published (issue 40, item 3), in both modes and on both stores: a created
 * order is INITIALIZED; confirm makes it CONFIRMED after the published checks, and only from
 * INITIALIZED (the published 400 invalid_state otherwise); the batch extension confirms an item in
 * the unit of work that creates it when asked; a carrier is tendered a confirmed order only.
 */
import { describe, expect, it } from 'vitest';
import { confirmable, DELIVERY_CONTACT, PICKUP_CONTACT } from '../../helpers/fixtures.js';
import { CONSIGNEE, expectProblem, fields, SHIPPER, shipmentRequest } from '../expect.js';
import type { ContractCase } from '../suite.js';

const contract: ContractCase = (target) => {
  describe('the order life', () => {
    it('create -> INITIALIZED -> confirm -> CONFIRMED; confirming again is the published 400 invalid_state; nothing changes by it', async () => {
      const { api } = target();
      const { data: created } = await api.createShipment(confirmable(shipmentRequest({ refNumber: null })));
      expect(created.orderStatus).toBe('INITIALIZED');
      expect((await api.getShipment(created.orderNumber)).data.orderStatus).toBe('INITIALIZED');

      const { data: confirmed } = await api.confirmShipment(created.orderNumber);
      expect(confirmed).toMatchObject({ id: created.id, orderNumber: created.orderNumber, orderStatus: 'CONFIRMED' });
      expect((await api.getShipment(created.id)).data.orderStatus).toBe('CONFIRMED');

      const twice = await expectProblem(api.confirmShipment(created.orderNumber), 400);
      expect(twice.reason).toBe('invalid_state');
      expect(twice.detail).toContain('order is not in INITIALIZED state');
      expect(twice.detail).toContain(`${created.orderNumber} is CONFIRMED`);
      expect((await api.getShipment(created.id)).data).toEqual(confirmed);
    });

    it('confirm names every check an order fails and leaves it INITIALIZED; a cancelled order is not confirmed', async () => {
      const { api } = target();
      // No contact, no phone, no description anywhere: what a request written without them lacks.
      const { data: bare } = await api.createShipment(shipmentRequest({ refNumber: null }));
      const refused = await expectProblem(api.confirmShipment(bare.orderNumber), 400);
      expect(fields(refused)).toEqual(['deliveryAddress.contactPerson', 'deliveryAddress.phoneNumber', 'description', 'pickupAddress.contactPerson', 'pickupAddress.phoneNumber']);
      expect((await api.getShipment(bare.id)).data.orderStatus).toBe('INITIALIZED');

      // The lines' descriptions are the order's when it gives none.
      const { data: described } = await api.createShipment(
        shipmentRequest({
          refNumber: null,
          pickupAddress: { ...SHIPPER, ...PICKUP_CONTACT },
          deliveryAddress: { ...CONSIGNEE, ...DELIVERY_CONTACT },
          orderComponents: [{ palletCount: 1, poundsWeight: 400, dimensions: { length: 48, width: 40, height: 40 }, description: 'Valves' }],
        }),
      );
      expect(described.description).toBe('Valves');
      expect((await api.confirmShipment(described.orderNumber)).data.orderStatus).toBe('CONFIRMED');

      await api.cancelShipment(bare.id, {});
      const cancelled = await expectProblem(api.confirmShipment(bare.orderNumber), 400);
      expect(cancelled.reason).toBe('invalid_state');
      expect(cancelled.detail).toContain('is CANCELLED');
    });

    it('an INITIALIZED order is not tendered (409, confirm it first); its BOL and cancel work', async () => {
      const { api } = target();
      const { data: created } = await api.createShipment(confirmable(shipmentRequest({ refNumber: null })));
      const refused = await expectProblem(api.createTender(created.id, { format: 'x12-204' }), 409);
      expect(refused.detail).toContain(`${created.orderNumber} is INITIALIZED: a carrier is tendered a confirmed order only; confirm it first`);
      const bol = await api.renderBol(created.id, { template: 'standard' });
      expect(new TextDecoder().decode(bol.data.subarray(0, 5))).toBe('%PDF-');
      expect((await api.cancelShipment(created.id, {})).data.orderStatus).toBe('CANCELLED');
    });

    it('the batch extension with confirm: CONFIRMED in the creating unit of work when it passes, else INITIALIZED with NOT_CONFIRMED naming what it lacks', async () => {
      const { api } = target();
      const { data } = await api.createShipments({
        items: [
          { request: confirmable(shipmentRequest({ refNumber: null })), confirm: true },
          { request: shipmentRequest({ refNumber: null }), confirm: true },
          { request: confirmable(shipmentRequest({ refNumber: null })) },
        ],
      });
      const [whole, lacking, unasked] = data.items;
      expect(whole).toMatchObject({ ok: true, data: { orderStatus: 'CONFIRMED' } });
      expect(lacking).toMatchObject({ ok: true, data: { orderStatus: 'INITIALIZED' } });
      expect(unasked).toMatchObject({ ok: true, data: { orderStatus: 'INITIALIZED' } });
      if (!lacking?.ok || !whole?.ok) throw new Error('booked above');
      const notConfirmed = lacking.warnings.filter((warning) => warning.code === 'NOT_CONFIRMED');
      expect(notConfirmed).toHaveLength(1);
      expect(notConfirmed[0]!.message).toContain(`${lacking.data.orderNumber} was created INITIALIZED, not confirmed`);
      expect(notConfirmed[0]!.message).toContain('pickupAddress.contactPerson, pickupAddress.phoneNumber');
      expect(whole.warnings.map((warning) => warning.code)).not.toContain('NOT_CONFIRMED');
      // As stored, not only as answered.
      expect((await api.getShipment(whole.data.id)).data.orderStatus).toBe('CONFIRMED');
      expect((await api.getShipment(lacking.data.id)).data.orderStatus).toBe('INITIALIZED');
    });

    it('a preview asked to confirm names, as the booking would, what an order lacks to be confirmed, and books nothing', async () => {
      const { api } = target();
      const before = (await api.listShipments({ limit: 100 })).data.items.length;
      const { data } = await api.previewShipments({
        items: [
          { request: confirmable(shipmentRequest({ refNumber: null })), confirm: true },
          { request: shipmentRequest({ refNumber: null }), confirm: true },
          { request: shipmentRequest({ refNumber: null }) },
        ],
      });
      const codes = data.items.map((item) => (item.ok ? item.warnings.filter((warning) => warning.code === 'NOT_CONFIRMED').map((warning) => warning.message) : 'refused'));
      expect(codes[0]).toEqual([]);
      expect(codes[1]).toHaveLength(1);
      expect(codes[1]![0]).toContain('would be created INITIALIZED, not confirmed: it lacks pickupAddress.contactPerson, pickupAddress.phoneNumber');
      expect(codes[2]).toEqual([]);
      expect((await api.listShipments({ limit: 100 })).data.items.length).toBe(before);
    });
  });
};

export default contract;
