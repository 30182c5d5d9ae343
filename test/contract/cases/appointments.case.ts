/** Contract: the published appointments (each stop's requirement, the uploaded documents) and the document links, in both modes and on both stores. */
import { describe, expect, it } from 'vitest';
import { expectProblem, shipmentRequest } from '../expect.js';
import type { ContractCase } from '../suite.js';

const PDF = new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1'));

const contract: ContractCase = (target) => {
  describe('appointments', () => {
    it('replaces a stop’s requirement and answers it merged, by order number', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: before } = await api.getAppointment(shipment.orderNumber, 'PICKUP');
      expect(before).toMatchObject({ appointmentRequired: false, _merged: { fields: { channel: 'NONE' } } });
      const { data: after } = await api.upsertAppointment(shipment.orderNumber, 'PICKUP', {
        channel: 'EMAIL',
        contacts: [{ name: 'Ana', email: 'ana@example.com' }],
        leadTimeHours: 4,
      });
      expect(after).toMatchObject({ channel: 'EMAIL', leadTimeHours: 4, _merged: { fields: { channel: 'ORDER', contacts: 'ORDER', portalUrl: 'NONE' } } });
      expect((await api.getAppointment(shipment.id, 'PICKUP')).data).toEqual(after);
      await expectProblem(api.getAppointment(shipment.orderNumber, 'pickup'), 400);
      await expectProblem(api.upsertAppointment(shipment.orderNumber, 'DELIVERY', { channel: 'FAX' } as never), 400);
      await expectProblem(api.getAppointment('SO-999999', 'PICKUP'), 404);
      await expectProblem(api.getAppointmentPdf(shipment.orderNumber, 'PICKUP'), 404);
    });

    it('stores an uploaded document, refuses what is not one, and deletes (null, twice)', async () => {
      const { api, pastApi } = target();
      // The store behind the API, read directly.
      const store = pastApi(0).store;
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: document } = await api.uploadAppointmentDocument(shipment.orderNumber, 'DELIVERY', 'PACKING_SLIP', {
        filename: 'slip.pdf',
        contentType: 'application/pdf',
        content: PDF,
      });
      expect(document).toMatchObject({ stop: 'DELIVERY', type: 'PACKING_SLIP', filename: 'slip.pdf', sizeBytes: PDF.byteLength, contentType: 'application/pdf' });
      expect((await store.appointmentDocuments.get(shipment.id, 'DELIVERY', 'PACKING_SLIP'))?.content).toEqual(PDF);
      await expectProblem(
        api.uploadAppointmentDocument(shipment.orderNumber, 'DELIVERY', 'CUSTOMER_BOL', { filename: 'x.pdf', contentType: 'application/pdf', content: new Uint8Array([1, 2, 3]) }),
        415,
      );
      await expectProblem(
        api.uploadAppointmentDocument(shipment.orderNumber, 'DELIVERY', 'APPOINTMENT_DOCUMENT', { filename: 'x.pdf', contentType: 'application/pdf', content: PDF }),
        400,
      );
      expect((await api.deleteAppointmentDocument(shipment.orderNumber, 'DELIVERY', 'PACKING_SLIP')).data).toBeNull();
      expect((await api.deleteAppointmentDocument(shipment.orderNumber, 'DELIVERY', 'PACKING_SLIP')).data).toBeNull();
      expect(await store.appointmentDocuments.get(shipment.id, 'DELIVERY', 'PACKING_SLIP')).toBeUndefined();
    });

    it('answers a document link of the order, and refuses a type it does not know', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(shipmentRequest());
      const { data: link } = await api.getDocument(shipment.orderNumber, 'BOL');
      expect(link).toMatchObject({ filename: `bol-${shipment.orderNumber}.pdf`, fileType: 'application/pdf' });
      expect(link.url).toBe(link.downloadLink);
      expect(link.downloadLink).toContain(`/v1/shipper/shipment/${shipment.id}/document/BILL_OF_LADING/download?expires=`);
      await expectProblem(api.getDocument(shipment.orderNumber, 'RECEIPT'), 400);
      await expectProblem(api.getDocument(shipment.orderNumber, 'POD'), 404);
    });
  });
};

export default contract;
