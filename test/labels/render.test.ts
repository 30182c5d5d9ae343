/**
 * End to end: pallet labels rendered as PDF and as ZPL, read back with real decoders: pdfjs for
 * the text, ZXing for every label's barcode, and for ZPL a small reader of the commands whose
 * ^BC field data is turned into Code 128 codewords as the ZPL manual defines them, drawn by
 * bwip-js and decoded by ZXing.
 */
import bwipjs from 'bwip-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ssccFor, ssccHumanReadable } from '../../src/domain/sscc.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { LabelError, renderLabels, ZPL_LABEL_DOTS } from '../../src/labels/index.js';
import { component, makeShipment } from '../bol/fixtures.js';
import { decodeCode128Luminance, readPdf, type ReadPdf } from '../bol/pdf-reader.js';

const PREFIX = '0614141';
const paint = { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' as const };

function labelledShipment(): Shipment {
  return makeShipment({
    serial: 77,
    components: [
      component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', packagingType: 'crates', pieceCount: 10 }),
      component({ palletCount: 1, poundsWeight: 400, description: 'Paint in 5 gal pails', packagingType: 'pails', pieceCount: 24, hazmat: paint }),
      component({ palletCount: 2, poundsWeight: 900 }),
    ],
    extra: { carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' }, proNumber: '0123456789', emergencyContactPhone: '800-424-9300' },
  });
}
const ssccsFor = (count: number) => Array.from({ length: count }, (_, index) => ssccFor(PREFIX, 500 + index));

// ---------------------------------------------------------------------------------------------
// A ZPL reader for the tests: formats, commands, field data with ^FH escapes undone.

interface ZplField {
  origin: [number, number];
  command: string;
  params: string;
  data: string;
}
interface ZplLabel {
  commands: Array<[string, string]>;
  fields: ZplField[];
}

function readZpl(zpl: string): ZplLabel[] {
  const formats = zpl.split('^XZ').filter((part) => part.trim() !== '');
  return formats.map((format) => {
    expect(format.trimStart().startsWith('^XA'), 'each format starts with ^XA').toBe(true);
    const commands = format
      .split('^')
      .slice(1)
      .map((part): [string, string] => [part.slice(0, 2), part.slice(2).replace(/\n$/, '')]);
    const fields: ZplField[] = [];
    let origin: [number, number] = [0, 0];
    let command = '';
    let params = '';
    let hex = false;
    let block = false;
    for (const [name, rest] of commands) {
      if (name === 'FO') origin = rest.split(',').map(Number) as [number, number];
      else if (name === 'FH') hex = true;
      else if (name === 'FB') block = true;
      else if (name === 'FD') {
        let data = rest;
        if (block) data = data.replace(/\\\\/g, '\\');
        if (hex) data = decodeHex(data);
        fields.push({ origin, command, params, data });
      } else if (name === 'FS') [command, params, hex, block] = ['', '', false, false];
      else if (name !== 'FX') [command, params] = [name, rest];
    }
    return { commands, fields };
  });
}

/** ^FH data: `_XX` is one byte; bytes are UTF-8 under ^CI28. */
function decodeHex(data: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < data.length; index++) {
    if (data[index] === '_') {
      bytes.push(Number.parseInt(data.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(...Buffer.from(data[index]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * ^BC field data to Code 128 codewords by the ZPL manual's invocation table: `>;` is Start Code C
 * (105), `>8` is FNC1 (102), and in subset C every two digits are one codeword (00-99).
 */
function zplCode128Codewords(data: string): number[] {
  expect(data.startsWith('>;'), 'subset C from the start').toBe(true);
  const codewords = [105];
  let rest = data.slice(2);
  while (rest) {
    if (rest.startsWith('>8')) {
      codewords.push(102);
      rest = rest.slice(2);
    } else {
      expect(rest).toMatch(/^\d\d/);
      codewords.push(Number(rest.slice(0, 2)));
      rest = rest.slice(2);
    }
  }
  return codewords;
}

/** Draws the codewords with bwip-js (raw codeword mode adds check and stop) and reads them with ZXing. */
function decodeCodewords(codewords: number[]): string | null {
  const [symbol] = bwipjs.raw('code128', codewords.map((codeword) => `^${String(codeword).padStart(3, '0')}`).join(''), 'raw') as Array<{ sbs: number[] }>;
  const modules = symbol!.sbs.flatMap((width, index) => Array<number>(width).fill(index % 2 === 0 ? 0 : 255));
  const quiet = 20;
  const width = modules.length * 2 + 2 * quiet;
  const height = 12;
  const luminance = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < height; y++) modules.forEach((value, x) => luminance.fill(value, y * width + quiet + 2 * x, y * width + quiet + 2 * x + 2));
  return decodeCode128Luminance(luminance, width, height);
}

// ---------------------------------------------------------------------------------------------

describe('pallet labels as PDF', () => {
  let shipment: Shipment;
  let ssccs: string[];
  let pdf: ReadPdf;

  beforeAll(async () => {
    shipment = labelledShipment();
    ssccs = ssccsFor(5);
    pdf = await readPdf(await renderLabels(shipment, ssccs, 'pdf', { companyPrefix: PREFIX }), { barcodes: true });
  });

  it('is one 4 x 6 in page per handling unit', () => {
    expect(pdf.pages).toHaveLength(5);
    for (const page of pdf.pages) expect([page.width, page.height]).toEqual([288, 432]);
  });

  it("decodes every label's barcode to GS1-128 AI (00) and that label's SSCC, check digit included", () => {
    expect(pdf.barcodes).toEqual(ssccs.map((sscc) => [`]C100${sscc}`]));
  });

  it('prints the fields of the shipment on every label, and "pallet n of N" with the SSCC text grouped as GS1 prints it', () => {
    pdf.pages.forEach((page, index) => {
      const items = page.items.map((item) => item.str);
      for (const expected of [
        shipment.pickupAddress.name,
        shipment.deliveryAddress.name,
        `${shipment.deliveryAddress.city}, ${shipment.deliveryAddress.state} ${shipment.deliveryAddress.zipCode}`,
        shipment.refNumber,
        shipment.orderNumber,
        shipment.bolNumber,
        shipment.proNumber,
        `${shipment.carrier!.name} (${shipment.carrier!.scac})`,
        `${index + 1} of 5`,
        ssccHumanReadable(ssccs[index]!, PREFIX),
      ]) {
        expect(items, `label ${index + 1}`).toContain(expected);
      }
    });
    expect(ssccHumanReadable(ssccs[0]!, PREFIX)).toBe(`(00) 0 0614141 000000500 ${ssccs[0]!.at(-1)}`);
  });

  it("prints each pallet's line, with the hazardous basic description on the paint pallet", () => {
    const contents = pdf.pages.map((page) => page.lines.find((line) => line.startsWith('CONTENTS:')));
    expect(contents).toEqual([
      'CONTENTS: LINE 1 OF 3, PALLET 1 OF ITS 2',
      'CONTENTS: LINE 1 OF 3, PALLET 2 OF ITS 2',
      'CONTENTS: LINE 2 OF 3, ITS ONLY PALLET',
      'CONTENTS: LINE 3 OF 3, PALLET 1 OF ITS 2',
      'CONTENTS: LINE 3 OF 3, PALLET 2 OF ITS 2',
    ]);
    expect(pdf.pages[2]!.lines).toEqual(expect.arrayContaining(['UN1263, Paint, 3, PG III', 'Paint in 5 gal pails']));
    expect(pdf.pages[0]!.text).not.toContain('UN1263');
  });

  it('is the same bytes on reprint', async () => {
    const again = await renderLabels(shipment, ssccs, 'pdf', { companyPrefix: PREFIX });
    const first = await renderLabels(shipment, ssccs, 'pdf', { companyPrefix: PREFIX });
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  });

  it('refuses a cancelled shipment and SSCCs that do not match the handling units', async () => {
    await expect(renderLabels({ ...shipment, orderStatus: 'CANCELLED' }, ssccs, 'pdf')).rejects.toThrow(LabelError);
    await expect(renderLabels(shipment, ssccs.slice(1), 'zpl')).rejects.toThrow('has 5 handling unit(s) and needs as many SSCCs; got 4');
  });
});

describe('pallet labels as ZPL', () => {
  let shipment: Shipment;
  let ssccs: string[];
  let zpl: string;
  let labels: ZplLabel[];

  beforeAll(async () => {
    shipment = labelledShipment();
    ssccs = ssccsFor(5);
    zpl = new TextDecoder().decode(await renderLabels(shipment, ssccs, 'zpl', { companyPrefix: PREFIX }));
    labels = readZpl(zpl);
  });

  it('is one ^XA...^XZ format per handling unit, 203 dpi 4 x 6 in (^PW812, ^LL1218), UTF-8 (^CI28)', () => {
    expect(labels).toHaveLength(5);
    expect(ZPL_LABEL_DOTS).toEqual({ width: 812, height: 1218 });
    for (const label of labels) {
      const names = label.commands.map(([name]) => name);
      expect(names.slice(0, 5)).toEqual(['XA', 'CI', 'PW', 'LL', 'LH']);
      expect(label.commands.slice(1, 4)).toEqual([
        ['CI', '28'],
        ['PW', '812'],
        ['LL', '1218'],
      ]);
    }
  });

  it('encodes each SSCC as ^BC in subset C behind FNC1, which decodes to GS1-128 (00) and the SSCC', () => {
    labels.forEach((label, index) => {
      const barcodes = label.fields.filter((field) => field.command === 'BC');
      expect(barcodes).toHaveLength(1);
      const [barcode] = barcodes;
      expect(barcode!.params).toBe('N,260,N,N,N');
      expect(barcode!.data).toBe(`>;>800${ssccs[index]}`);
      expect(label.commands).toContainEqual(['BY', '4']);
      const codewords = zplCode128Codewords(barcode!.data);
      expect(codewords.slice(0, 3)).toEqual([105, 102, 0]);
      expect(decodeCodewords(codewords)).toBe(`]C100${ssccs[index]}`);
      // Centred with room for the quiet zones: 156 modules of 4 dots.
      const [x] = barcode!.origin;
      expect(x).toBe((812 - 624) / 2);
    });
  });

  it('prints the same fields as the PDF, every text inside the label', () => {
    labels.forEach((label, index) => {
      const texts = label.fields.filter((field) => field.command === 'A0').map((field) => field.data);
      for (const expected of [
        shipment.pickupAddress.name,
        shipment.deliveryAddress.name,
        shipment.orderNumber,
        shipment.bolNumber,
        shipment.proNumber,
        `${index + 1} of 5`,
        ssccHumanReadable(ssccs[index]!, PREFIX),
      ]) {
        expect(texts, `label ${index + 1}`).toContain(expected);
      }
      for (const field of label.fields) {
        expect(field.origin[0]).toBeGreaterThanOrEqual(0);
        expect(field.origin[0]).toBeLessThan(812);
        expect(field.origin[1]).toBeGreaterThanOrEqual(0);
        expect(field.origin[1]).toBeLessThan(1218);
      }
    });
  });

  it('escapes ^, ~, _ and \\ in the data and writes other text as UTF-8', async () => {
    const tricky = makeShipment({ consigneeName: 'A^B~C_D\\E Жёлтый', refNumber: 'PO^XZ~JA' });
    const read = readZpl(new TextDecoder().decode(await renderLabels(tricky, ssccsFor(2), 'zpl')));
    expect(read).toHaveLength(2);
    const texts = read[0]!.fields.map((field) => field.data);
    expect(texts).toContain('A^B~C_D\\E Жёлтый');
    expect(texts).toContain('PO^XZ~JA');
    expect(new TextDecoder().decode(await renderLabels(tricky, ssccsFor(2), 'zpl'))).not.toMatch(/\^FD[^\n]*[~]/);
  });
});
