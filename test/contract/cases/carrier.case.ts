/**
 * Contract: the carrier handoff in both modes: carrier fields on the booking and the BOL, PRO from
 * the carrier's block, the update after booking, pallet labels (SSCCs read back from the barcodes)
 * and the tender files (the 204 parsed back with node-x12, the eBOL validated against the published
 * BOL_Request schema), with their refusals.
 */
import { describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../../src/domain/bolNumber.js';
import { proCheckDigit } from '../../../src/domain/proNumber.js';
import { readPdf } from '../../bol/pdf-reader.js';
import { bolRequestValidator } from '../../edi/ebolSchema.js';
import { el, find, groupsStartingAt, parseX12 } from '../../edi/x12Reader.js';
import { COMPONENT, expectProblem, fields, shipmentRequest, messagesOf } from '../expect.js';
import type { ContractCase } from '../suite.js';
import { createConfirmed } from '../../helpers/fixtures.js';

const HAZMAT_LINE = {
  palletCount: 2,
  poundsWeight: 800,
  dimensions: { length: 48, width: 40, height: 48 },
  description: 'Paint',
  pieceCount: 40,
  packagingType: 'pails',
  hazmat: { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' },
};

const withCarrier = (overrides: Record<string, unknown> = {}) =>
  shipmentRequest({
    refNumber: `CARRIER-${Math.random().toString(36).slice(2, 8)}`,
    orderComponents: [HAZMAT_LINE, { ...COMPONENT, description: 'Brushes' }],
    carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
    freightChargeTerms: { terms: 'COLLECT' },
    cod: { amountInCents: 125_000, feeTerms: 'PREPAID', customerCheckAcceptable: true },
    declaredValue: { amountInCents: 500_000 },
    pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
    fob: 'ORIGIN',
    emergencyContactPhone: '800-424-9300',
    ...overrides,
  });

/** The PRO's check digit by the carrier's MOD7 scheme. */
const validPro = (pro: string) => proCheckDigit('MOD7', pro.slice(0, -1)) === pro.slice(-1);

const contract: ContractCase = (target) => {
  describe('carrier handoff', () => {
    it('books the carrier fields, assigns a PRO from the block and an SSCC per pallet, and prints them on the BOL', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(withCarrier());
      expect(shipment).toMatchObject({
        carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
        freightChargeTerms: { terms: 'COLLECT', billTo: null },
        cod: { amountInCents: 125_000, feeTerms: 'PREPAID', customerCheckAcceptable: true },
        declaredValue: { amountInCents: 500_000, per: 'SHIPMENT' },
        pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
        fob: 'ORIGIN',
        emergencyContactPhone: '800-424-9300',
      });
      expect(shipment.proNumber).toMatch(/^70000\d{4}$/);
      expect(validPro(shipment.proNumber!)).toBe(true);
      expect(shipment.ssccs).toHaveLength(4);
      for (const sscc of shipment.ssccs) expect(gs1CheckDigit(sscc.slice(0, 17))).toBe(Number(sscc[17]));
      expect(new Set(shipment.ssccs).size).toBe(4);
      expect(shipment.orderComponents[0]!.hazmat).toEqual(HAZMAT_LINE.hazmat);

      const pdf = await readPdf((await api.renderBol(shipment.id)).data);
      const text = pdf.pages.map((page) => page.text).join(' ');
      for (const expected of ['Old Dominion Freight Line', 'ODFL', shipment.proNumber!, 'UN1263, Paint, 3, PG III', '800-424-9300', '$1,250.00']) expect(text).toContain(expected);
    });

    it('gives the next booking the next PRO and other SSCCs, never the same', async () => {
      const { api } = target();
      const first = (await api.createShipment(withCarrier())).data;
      const second = (await api.createShipment(withCarrier())).data;
      expect(Number(second.proNumber!.slice(0, -1))).toBe(Number(first.proNumber!.slice(0, -1)) + 1);
      expect(second.ssccs.filter((sscc) => first.ssccs.includes(sscc))).toEqual([]);
    });

    it('refuses a given PRO with a wrong check digit, and a dock that closes before the freight is ready; warns of a window past the cut-off', async () => {
      const { api } = target();
      const wrongPro = await expectProblem(api.createShipment(withCarrier({ proNumber: `70000123${(Number(proCheckDigit('MOD7', '70000123')) + 1) % 7}` })), 400);
      expect(fields(wrongPro)).toEqual(['proNumber']);
      const window = await expectProblem(api.createShipment(withCarrier({ pickupWindow: { readyTime: '15:00', closeTime: '14:59' } })), 400);
      expect(fields(window)).toEqual(['pickupWindow.closeTime']);
      const late = await api.createShipment(withCarrier({ pickupWindow: { readyTime: '15:00', closeTime: '18:00' } }));
      expect(messagesOf(late.warnings).join('\n')).toMatch(/ready at 15:00, at or after Old Dominion Freight Line's pickup cut-off 15:00/);
      const early = await api.createShipment(withCarrier({ pickupWindow: { readyTime: '14:59', closeTime: '18:00' } }));
      expect(messagesOf(early.warnings).join('\n')).not.toMatch(/cut-off/);
      const hazmatWithoutPhone = await expectProblem(api.createShipment(withCarrier({ emergencyContactPhone: null })), 400);
      expect(fields(hazmatWithoutPhone)).toEqual(['emergencyContactPhone']);
    });

    it('updates what the carrier assigns after booking, never the freight, and the reprinted BOL shows it', async () => {
      const { api } = target();
      const { data: booked } = await api.createShipment(withCarrier({ carrier: null, freightChargeTerms: null }));
      expect(booked.proNumber).toBeNull();
      const base = '70000500';
      const pro = `${base}${proCheckDigit('MOD7', base)}`;
      const { data: updated } = await api.updateShipment(booked.id, {
        carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
        proNumber: pro,
        trailerNumber: '53-1187',
        sealNumbers: ['004471', '004472'],
      });
      expect(updated).toMatchObject({ proNumber: pro, trailerNumber: '53-1187', sealNumbers: ['004471', '004472'], orderNumber: booked.orderNumber });
      expect((await api.getShipment(booked.id)).data).toEqual(updated);
      const text = (await readPdf((await api.renderBol(booked.id)).data)).pages.map((page) => page.text).join(' ');
      for (const expected of [pro, '53-1187', '004471', '004472']) expect(text).toContain(expected);

      const freight = await expectProblem(api.updateShipment(booked.id, { orderComponents: [COMPONENT] } as never), 400);
      expect(freight.violations?.[0]?.reason).toMatch(/cannot change after booking/);
      const typo = await expectProblem(api.updateShipment(booked.id, { proNumbr: '1' } as never), 400);
      expect(typo.violations?.[0]?.reason).toMatch(/did you mean proNumber/);
      const badPro = await expectProblem(api.updateShipment(booked.id, { proNumber: `${base}${(Number(proCheckDigit('MOD7', base)) + 1) % 7}` }), 400);
      expect(fields(badPro)).toEqual(['proNumber']);
      // Only what the body names changes: the trailer stays.
      expect((await api.updateShipment(booked.id, { sealNumbers: ['9'] })).data).toMatchObject({ trailerNumber: '53-1187', sealNumbers: ['9'] });
      await api.cancelShipment(booked.id);
      await expectProblem(api.updateShipment(booked.id, { trailerNumber: 'X' }), 409);
      await expectProblem(api.updateShipment('sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', { trailerNumber: 'X' }), 404);
    });

    it('prints a label per pallet whose barcode is its SSCC, in PDF and ZPL; a cancelled shipment gets none', async () => {
      const { api } = target();
      const { data: shipment } = await api.createShipment(withCarrier());
      const pdf = await readPdf((await api.renderLabels(shipment.id)).data, { barcodes: true });
      expect(pdf.pages).toHaveLength(4);
      expect(pdf.barcodes.map((codes) => codes.find((code) => code.startsWith(']C100')))).toEqual(shipment.ssccs.map((sscc) => `]C100${sscc}`));
      expect(pdf.pages[3]!.text).toMatch(/4 of 4/);
      const zpl = new TextDecoder().decode((await api.renderLabels(shipment.id, { format: 'zpl' })).data);
      expect(zpl.match(/\^XA/g)).toHaveLength(4);
      for (const sscc of shipment.ssccs) expect(zpl).toContain(`>;>800${sscc}`);
      // Reprints show the same SSCCs.
      const again = await readPdf((await api.renderLabels(shipment.id)).data, { barcodes: true });
      expect(again.barcodes).toEqual(pdf.barcodes);
      await api.cancelShipment(shipment.id);
      await expectProblem(api.renderLabels(shipment.id), 409);
    });

    it('writes the tender files: a 204 with a control number that never repeats, an eBOL; refuses what the shipment lacks', async () => {
      const { api } = target();
      // A carrier is tendered a confirmed order.
      const { data: shipment } = await createConfirmed(
        api,
        withCarrier({
          pickupAddress: { ...shipmentRequest().pickupAddress, phoneNumber: '312-555-0100' },
          deliveryAddress: { ...shipmentRequest().deliveryAddress, phoneNumber: '212-555-0100' },
          orderComponents: [HAZMAT_LINE, { ...COMPONENT, description: 'Brushes', nmfcCode: '156600-02' }],
        }),
      );
      const first = (await api.createTender(shipment.id, { format: 'x12-204' })).data;
      const second = (await api.createTender(shipment.id, { format: 'x12-204' })).data;
      expect(first.contentType).toBe('application/edi-x12');
      expect(second.controlNumber).toBeGreaterThan(first.controlNumber!);
      // Read back with node-x12 (strict: envelope counts and control numbers), as the carrier would.
      const tender = parseX12(first.content, {
        interchangeControlNumber: first.controlNumber!,
        groupControlNumber: first.controlNumber!,
        transactionSet: '204',
        functionalId: 'SM',
      });
      expect([tender.isa[5]!.trim(), tender.isa[7]!.trim(), tender.gs[1], tender.gs[2]]).toEqual(['ACMESHIP', 'ODFL', 'ACMESHIP', 'ODFL']);
      const b2 = find(tender.body, 'B2');
      expect([el(b2, 2), el(b2, 4), el(b2, 6)]).toEqual(['ODFL', shipment.bolNumber, 'CC']);
      const [pickup] = groupsStartingAt(tender.body, 'S5', 'L3');
      const items = groupsStartingAt(pickup!, 'OID');
      expect(items).toHaveLength(shipment.orderComponents.length);
      items.forEach((segments, index) => {
        const component = shipment.orderComponents[index]!;
        const [oid, l5, at8, lad, lh1] = ['OID', 'L5', 'AT8', 'LAD', 'LH1'].map((tag) => find(segments, tag));
        expect([Number(el(oid, 5)), Number(el(oid, 7))]).toEqual([component.palletCount, component.poundsWeight]);
        expect([el(l5, 1), el(l5, 2), el(l5, 3), el(l5, 9)]).toEqual([String(index + 1), component.description, component.nmfcCode ?? '', component.freightClass]);
        expect([Number(el(at8, 3)), Number(el(at8, 5))]).toEqual([component.poundsWeight, component.palletCount]);
        expect(lad ? Number(el(lad, 2)) : null).toBe(component.pieceCount || null);
        expect(lh1 ? [el(lh1, 3), el(lh1, 10), el(find(segments, 'LH2'), 1), el(find(segments, 'LH3'), 1)] : null).toEqual(
          component.hazmat ? [component.hazmat.unNumber, component.hazmat.packingGroup, component.hazmat.hazardClass, component.hazmat.properShippingName] : null,
        );
      });
      const bill = (await api.createTender(shipment.id, { format: 'x12-211' })).data;
      expect(bill.controlNumber).toBeGreaterThan(second.controlNumber!);
      const billOfLading = parseX12(bill.content, {
        interchangeControlNumber: bill.controlNumber!,
        groupControlNumber: bill.controlNumber!,
        transactionSet: '211',
        functionalId: 'BL',
      });
      expect(groupsStartingAt(billOfLading.body, 'AT1')).toHaveLength(shipment.orderComponents.length);
      const ebol = (await api.createTender(shipment.id, { format: 'ebol' })).data;
      expect(ebol.contentType).toBe('application/json');
      const request = JSON.parse(ebol.content) as unknown;
      const validate = bolRequestValidator();
      expect(validate(request), JSON.stringify(validate.errors)).toBe(true);
      expect(request).toMatchObject({ version: '2.1.0', payment: { terms: 'Collect' }, referenceNumbers: { pro: shipment.proNumber, bol: [shipment.bolNumber] } });
      const withoutCarrier = (await createConfirmed(api, shipmentRequest({ refNumber: null }))).data;
      const refused = await expectProblem(api.createTender(withoutCarrier.id, { format: 'x12-211' }), 409);
      expect(fields(refused)).toEqual(['carrier']);
      await expectProblem(api.createTender(shipment.id, { format: 'x12-999' } as never), 400);
    });
  });
};

export default contract;
