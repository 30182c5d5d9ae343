/** Contract: the invoice (JSON and PDF on one path) and the shipment list's proNumber / bolNumber filters, in both modes. */
import { describe, expect, it } from 'vitest';
import { expectProblem, fields, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const contract: ContractCase = (target) => {
  describe('invoices', () => {
    it('answers the invoice: lines adding up to the booked price, numbered after the order', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(
        shipmentRequest({ refNumber: 'PO-INV-1', accessorials: ['LIFTGATE_DELIVERY'], freightChargeTerms: { terms: 'COLLECT' } }),
      );
      const { data: invoice, warnings } = await api.getInvoiceDetail(shipment.id);
      expect(messagesOf(warnings)).toEqual([]);
      expect(invoice).toMatchObject({
        invoiceNumber: shipment.orderNumber.replace('SO-', 'INV-'),
        shipmentId: shipment.id,
        invoiceDate: shipment.requiredPickupDate,
        freightChargeTerms: 'COLLECT',
        billTo: { name: shipment.deliveryAddress.name },
        totals: { totalInCents: shipment.totalPriceInCents },
      });
      expect(invoice.lines.reduce((sum, line) => sum + line.amountInCents, 0)).toBe(shipment.totalPriceInCents);
      expect(invoice.lines.map((line) => line.kind)).toEqual(['FREIGHT', 'DISCOUNT', 'FUEL_SURCHARGE', 'ACCESSORIAL']);
    });

    it('answers the invoice as PDF', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: pdf } = await api.renderInvoice(shipment.id);
      expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      expect(pdf.byteLength).toBeGreaterThan(1000);
    });

    it('has no invoice for an unknown or a cancelled shipment (404)', async () => {
      const { api } = target();
      await expectProblem(api.getInvoiceDetail('sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'), 404);
      await expectProblem(api.renderInvoice('sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'), 404);
      const { data: shipment } = await api.createShipment(shipmentRequest());
      await api.cancelShipment(shipment.id, {});
      const problem = await expectProblem(api.getInvoiceDetail(shipment.id), 404);
      expect(problem.detail).toMatch(/was cancelled on \d{4}-\d{2}-\d{2}: it has no invoice$/);
      await expectProblem(api.renderInvoice(shipment.id), 404);
    });
  });

  describe('shipments by carrier keys', () => {
    it('finds shipments by PRO (dashes, spaces and case ignored) and by BOL number, several at once', async () => {
      const { api } = target();
      const a = (await api.createShipment(shipmentRequest({ proNumber: 'CT-7701' }))).data;
      const b = (await api.createShipment(shipmentRequest({ proNumber: 'ct7702' }))).data;
      const c = (await api.createShipment(shipmentRequest())).data;
      const ids = async (query: Record<string, string>) => (await api.listShipments(query)).data.items.map((shipment) => shipment.id).sort();
      expect(await ids({ proNumber: 'ct7701' })).toEqual([a.id]);
      expect(await ids({ proNumber: 'CT-7701,CT 7702,NOPE-1' })).toEqual([a.id, b.id].sort());
      expect(await ids({ bolNumber: `${c.bolNumber},${a.bolNumber}` })).toEqual([a.id, c.id].sort());
      expect(await ids({ proNumber: 'CT7701', bolNumber: b.bolNumber })).toEqual([]);
      expect(await ids({ proNumber: 'NOPE-2' })).toEqual([]);
    });

    it('refuses key lists that are not numbers (400, on the filter)', async () => {
      const { api } = target();
      expect(fields(await expectProblem(api.listShipments({ bolNumber: '123' }), 400))).toEqual(['bolNumber']);
      expect(fields(await expectProblem(api.listShipments({ proNumber: 'A,,B' }), 400))).toEqual(['proNumber']);
      expect(fields(await expectProblem(api.listShipments({ proNumber: Array.from({ length: 101 }, (_, index) => `P${index}`).join(',') }), 400))).toEqual(['proNumber']);
    });
  });
};

export default contract;
