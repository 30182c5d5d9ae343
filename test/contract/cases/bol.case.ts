/** Contract: Bills of Lading (GET .../bol, bol-templates) in both modes. */
import { describe, expect, it } from 'vitest';
import { expectProblem, fields, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';

const contract: ContractCase = (target) => {
  describe('bills of lading', () => {
    it('lists the shipped templates', async () => {
      const {
        data: { items: templates },
      } = await target().api.listBolTemplates();
      expect(templates.map((template) => template.name)).toEqual(expect.arrayContaining(['standard', 'acme-logistics']));
      for (const template of templates) expect(template.description).toMatch(/\S/);
    });

    it('renders a shipment’s BOL as a PDF with each template', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest({ refNumber: 'PO-BOL-1' }));
      for (const template of [undefined, 'acme-logistics']) {
        const { data: pdf, warnings } = await api.renderBol(shipment.id, { template });
        expect(messagesOf(warnings)).toEqual([]);
        expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
        expect(pdf.byteLength).toBeGreaterThan(1000);
      }
    });

    it('answers 404 for an unknown shipment and 400 for an unknown template', async () => {
      const { api } = target();
      await expectProblem(api.renderBol('sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'), 404);
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const problem = await expectProblem(api.renderBol(shipment.id, { template: 'no-such-template' }), 400);
      expect(fields(problem)).toEqual(['template']);
    });
  });
};

export default contract;
