/**
 * Contract: the batches behind `shipper import` in both modes. Locally LocalApi books a batch
 * itself; remotely the batch extensions carry it (RemoteApi falls back to one POST per shipment
 * with its Idempotency-Key on servers without them). Both must give the same outcomes, item by
 * item and in order.
 */
import { describe, expect, it } from 'vitest';
import type { BatchOutcome } from '../../../src/api/types.js';
import type { Shipment } from '../../../src/domain/schemas.js';
import { shipmentRequest } from '../expect.js';
import type { ContractCase } from '../suite.js';

function booked(outcome: BatchOutcome<Shipment> | undefined) {
  if (!outcome?.ok) throw new Error(`expected a booking, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function rejected(outcome: BatchOutcome<Shipment> | undefined) {
  if (!outcome || outcome.ok) throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const contract: ContractCase = (target) => {
  describe('batch booking (import)', () => {
    it('books the valid items, answers each invalid one with its problem, and recognises a re-import', async () => {
      const { api, mode } = target();
      const run = `${mode}-${Date.now()}`;
      const items = [
        { request: shipmentRequest({ refNumber: 'BATCH-1' }), idempotencyKey: `${run}-1` },
        {
          request: shipmentRequest({
            refNumber: 'BATCH-2',
            orderComponents: [{ palletCount: 0, poundsWeight: 10, dimensions: { length: 48, width: 40, height: 48 }, freightClass: '70' }],
          }),
          idempotencyKey: `${run}-2`,
        },
        {
          request: shipmentRequest({ refNumber: 'BATCH-3', deliveryAddress: { name: 'Nowhere', address1: '1 Main St', city: 'X', state: 'NY', zipCode: '00000' } }),
          idempotencyKey: `${run}-3`,
        },
        { request: shipmentRequest({ refNumber: 'BATCH-4' }), idempotencyKey: `${run}-4` },
      ];
      const first = (await api.createShipments({ items })).data.items;
      expect(first.map((outcome) => outcome.ok)).toEqual([true, false, false, true]);
      const [booked1, booked4] = [booked(first[0]), booked(first[3])];
      const [invalid, unknownZip] = [rejected(first[1]), rejected(first[2])];
      expect([booked1.replayed, booked4.replayed]).toEqual([false, false]);
      expect(booked1.data.refNumber).toBe('BATCH-1');
      expect(booked1.data.orderNumber).not.toBe(booked4.data.orderNumber);
      expect(invalid.problem.status).toBe(400);
      expect((invalid.problem.violations ?? []).map((violation) => violation.field)).toEqual(
        expect.arrayContaining(['orderComponents[0].palletCount', 'orderComponents[0].freightClass']),
      );
      expect(unknownZip.problem.violations?.map((violation) => violation.field)).toEqual(['deliveryAddress.zipCode']);

      // The same keys again: the same shipments come back, marked replayed; nothing new is booked.
      const again = (await api.createShipments({ items: [items[0]!, items[3]!] })).data.items;
      expect(again.map((outcome) => (outcome.ok ? [outcome.data.id, outcome.replayed] : null))).toEqual([
        [booked1.data.id, true],
        [booked4.data.id, true],
      ]);
      const { data: page } = await api.listShipments({ limit: 500 });
      expect(page.items.filter((shipment) => shipment.refNumber?.startsWith('BATCH-'))).toHaveLength(2);
    });

    it('prices a batch for --dry-run without booking anything', async () => {
      const { api } = target();
      const before = (await api.listShipments({ limit: 500 })).data.items.length;
      const outcomes = (await api.previewShipments({ items: [{ request: shipmentRequest({ refNumber: 'DRY-1' }) }, { request: shipmentRequest({ orderComponents: [] }) }] })).data
        .items;
      expect(outcomes[0]!.ok && outcomes[0]!.data.quotedPriceInCents).toBeGreaterThan(0);
      expect(outcomes[1]!.ok).toBe(false);
      expect((await api.listShipments({ limit: 500 })).data.items.length).toBe(before);
    });
  });
};

export default contract;
