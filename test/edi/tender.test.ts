/** The one entry point the CLI command and the HTTP route call. */
import { describe, expect, it } from 'vitest';
import { ebolSettingsSchema } from '../../src/edi/settings.js';
import { tenderFile, TENDER_FORMATS } from '../../src/edi/tender.js';
import { readX12Interchange } from '../../src/edi/x12.js';
import { bolRequestValidator } from './ebolSchema.js';
import { CREATED_AT, minimalShipment, shipment, x12Settings } from './fixtures.js';

const CONTROL = { interchangeControlNumber: 1, groupControlNumber: 1 };

describe('tenderFile', () => {
  it('writes each format with its media type and a file name from the BOL number', () => {
    const source = shipment();
    const files = TENDER_FORMATS.map((format) =>
      tenderFile(
        format === 'ebol'
          ? { format, shipment: source, settings: ebolSettingsSchema.parse({}) }
          : { format, shipment: source, settings: x12Settings(), control: CONTROL, createdAt: CREATED_AT },
      ),
    );
    expect(files.map((file) => (file.ok ? [file.document.contentType, file.document.fileName] : file.violations))).toEqual([
      ['application/json', '06141410000001231.ebol.json'],
      ['application/edi-x12', '06141410000001231.204.edi'],
      ['application/edi-x12', '06141410000001231.211.edi'],
    ]);
    const [ebol, tender, bill] = files.map((file) => (file.ok ? file.document.body : ''));
    expect(bolRequestValidator()(JSON.parse(ebol!))).toBe(true);
    expect(ebol!.endsWith('}\n')).toBe(true);
    for (const [body, id] of [
      [tender, '204'],
      [bill, '211'],
    ] as const) {
      const read = readX12Interchange(body!);
      expect(read.ok && read.interchange.groups[0]!.transactionSets[0]!.st.elements[0]).toBe(id);
    }
  });

  it('passes the violations through: nothing is written', () => {
    const result = tenderFile({ format: 'x12-211', shipment: minimalShipment(), settings: x12Settings(), control: CONTROL, createdAt: CREATED_AT });
    expect(result).toEqual({ ok: false, violations: [{ field: 'carrier', reason: "a 211 bill of lading names the carrier: set the shipment's carrier (name and SCAC) first" }] });
  });
});
