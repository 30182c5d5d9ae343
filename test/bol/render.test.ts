/**
 * End to end: render real PDFs with the shipped templates, write them to a temporary folder, and
 * read them back with pdfjs-dist (text) and ZXing (barcode).
 */
import { mkdtemp, readFile, rm, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBolRenderer, findBolTemplatesDir, REPLACEMENT_CHARACTER, type BolRenderer } from '../../src/bol/index.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { component, describedComponents, LONG_DESCRIPTION, makeShipment, UNICODE_DESCRIPTION } from './fixtures.js';
import { embeddedFontGlyphCounts, readPdf, type PdfPage, type ReadPdf } from './pdf-reader.js';

let outDir: string;
let renderer: BolRenderer;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'bol-render-'));
  renderer = createBolRenderer({ templatesDir: findBolTemplatesDir() });
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** Renders, writes the file like the CLI will, and reads the file back. */
async function renderAndRead(shipment: Shipment, template: string, options: { barcodes?: boolean } = {}): Promise<{ bytes: Uint8Array; pdf: ReadPdf }> {
  const file = join(outDir, `${shipment.id}-${template}-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, await renderer.render(shipment, template));
  const bytes = new Uint8Array(await readFile(file));
  return { bytes, pdf: await readPdf(bytes, options) };
}

const threeComponents = () => [
  component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 }),
  component({ palletCount: 1, poundsWeight: 180, description: 'Glass lamp shades', nmfcCode: '109720-2', packagingType: 'cartons', pieceCount: 0 }),
  component({ palletCount: 3, poundsWeight: 2400 }),
];

/** The line of the carrier table that holds `text`, split into its cells. */
function rowWith(page: PdfPage, text: string): string[] {
  const line = page.lines.find((candidate) => candidate.split(' | ').includes(text));
  expect(line, `a line with the cell "${text}"`).toBeDefined();
  return line!.split(' | ');
}

describe('a single-page BOL', () => {
  let pdf: ReadPdf;
  let bytes: Uint8Array;
  let shipment: Shipment;

  beforeAll(async () => {
    shipment = makeShipment({ serial: 123, components: threeComponents() });
    ({ pdf, bytes } = await renderAndRead(shipment, 'standard', { barcodes: true }));
  });

  it('is one Letter page with the title, the date and "Page 1 of 1"', () => {
    expect(pdf.pages).toHaveLength(1);
    expect([pdf.pages[0]!.width, pdf.pages[0]!.height]).toEqual([612, 792]);
    expect(pdf.pages[0]!.text).toContain('BILL OF LADING');
    expect(pdf.pages[0]!.text).toContain('Date: 2026-11-23');
    expect(pdf.pages[0]!.text).toContain('Page 1 of 1');
  });

  it('prints the BOL number in 12-pt bold and as human-readable barcode text', () => {
    expect(pdf.pages[0]!.items.filter((item) => item.str === '06141410000001231')).toHaveLength(1);
    expect(pdf.pages[0]!.text).toContain('(402) 06141410000001231');
  });

  it('carries a GS1-128 barcode that decodes to AI 402 and the BOL number', () => {
    expect(pdf.barcodes[0]).toEqual([`]C1402${shipment.bolNumber}`]);
  });

  it('prints ship from (with SID#), ship to, special instructions and accessorials', () => {
    const text = pdf.pages[0]!.text;
    for (const expected of ['SHIP FROM', 'Midwest Fixtures Inc.', 'Chicago, IL 60607', 'shp_000123', 'SHIP TO', 'Atlanta Retail Distribution', 'Atlanta, GA 30336']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('THIRD PARTY FREIGHT CHARGES BILL TO');
    expect(text).toContain('Call consignee 1 hour before delivery.');
    expect(text).toContain('Accessorials: Liftgate delivery');
  });

  it('has one carrier-table row per component with its own quantities, packaging, description, NMFC and class', () => {
    const page = pdf.pages[0]!;
    const [first, second, third] = shipment.orderComponents;
    expect(rowWith(page, 'Steel shelving units')).toEqual(['2', 'Pallets', '10', 'crates', '1,200', 'Steel shelving units', '61680-03', first!.freightClass]);
    expect(rowWith(page, 'Glass lamp shades')).toEqual(['1', 'Pallets', '0', 'cartons', '180', 'Glass lamp shades', '109720-2', second!.freightClass]);
    // The bare component: blank optional cells, never "null".
    expect(rowWith(page, '2,400')).toEqual(['3', 'Pallets', '2,400', third!.freightClass]);
    expect(page.text).not.toMatch(/null|undefined|NaN/);
  });

  it('prints the grand totals of handling units, packages and weight', () => {
    const totals = pdf.pages[0]!.lines.filter((line) => line.includes('GRAND TOTAL'));
    expect(totals).toContain('6 | 10 | 3,780 | GRAND TOTAL');
    // The customer order table's total: packages and weight.
    expect(totals).toContain('GRAND TOTAL | 10 | 3,780');
  });

  it('prints the declared value, COD, liability notice, carrier slots and both signature blocks', () => {
    const text = pdf.pages[0]!.text;
    for (const expected of [
      'declared value',
      'COD Amount',
      'Liability limitation',
      '14706(c)(1)(A)',
      'SHIPPER SIGNATURE / DATE',
      'CARRIER SIGNATURE / PICKUP DATE',
      'SCAC:',
      'Pro number:',
      'Trailer number:',
      'Seal number(s):',
      'FREIGHT CHARGE TERMS',
      'Prepaid',
      'Collect',
      '3rd Party',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('sets the document info from the shipment, deterministically', async () => {
    expect(pdf.info).toMatchObject({ Producer: 'shipper', Creator: 'shipper', Title: 'Bill of Lading 06141410000001231', CreationDate: 'D:20261120150405Z' });
    expect(Buffer.from(await renderer.render(shipment, 'standard')).equals(Buffer.from(bytes))).toBe(true);
  });

  it('stays under 80 KB', () => {
    expect(bytes.byteLength).toBeLessThan(80 * 1024);
  });
});

describe('the reference line', () => {
  it('prints "<refNumber> (<order number>)" on the partner template, with its logo and carrier', async () => {
    const { pdf } = await renderAndRead(makeShipment({ refNumber: 'PO-7781' }), 'acme-logistics');
    expect(pdf.pages[0]!.items.map((item) => item.str)).toContain('PO-7781 (SO-000123)');
    expect(pdf.pages[0]!.text).toContain('ACME Logistics Freight Lines');
    expect(pdf.imageCounts).toEqual([2]); // logo and barcode
  });

  it("prints the customer's reference as the customer order number on the standard template, the order number beside it, and marks Pallet/Slip Y", async () => {
    const { pdf } = await renderAndRead(makeShipment({ refNumber: 'PO-7781' }), 'standard');
    const page = pdf.pages[0]!;
    expect(page.text).not.toContain('(SO-000123)');
    expect(page.lines).toContain('PO-7781 | 10 | 1,200 | X | Order: SO-000123');
    // The mark sits under the Y of PALLET/SLIP, not under the N.
    const mark = page.items.find((item) => item.str === 'X')!;
    const [yLabel, nLabel] = ['Y', 'N'].map((label) => page.items.find((item) => item.str === label && Math.abs(item.x - mark.x) < 60)!);
    expect(Math.abs(yLabel!.x - mark.x)).toBeLessThan(Math.abs(nLabel!.x - mark.x));
    expect(pdf.imageCounts).toEqual([1]); // the barcode; no logo
  });

  it('prints the order number as the customer order number when the shipment has no refNumber', async () => {
    const { pdf } = await renderAndRead(makeShipment({ refNumber: null }), 'standard');
    expect(pdf.pages[0]!.lines).toContain('SO-000123 | 10 | 1,200 | X');
  });

  it('prints the booked terms on the partner template: a prepaid booking is not billed to the partner', async () => {
    const { pdf } = await renderAndRead(makeShipment({ refNumber: 'PO-7781' }), 'acme-logistics');
    expect(pdf.pages[0]!.text).not.toContain('Freight Payables');
    const billedTo = {
      name: 'Freight Pay LLC',
      address1: '1 Main St',
      address2: null,
      city: 'Dallas',
      state: 'TX',
      zipCode: '75201',
      countryCode: 'US' as const,
      contactPerson: null,
      phoneNumber: null,
    };
    const thirdParty = await renderAndRead(makeShipment({ extra: { freightChargeTerms: { terms: 'THIRD_PARTY', billTo: billedTo } } }), 'acme-logistics');
    expect(thirdParty.pdf.pages[0]!.text).toContain('Freight Pay LLC');
  });

  it('prints the order number alone on the partner template when there is no refNumber', async () => {
    const { pdf } = await renderAndRead(makeShipment({ refNumber: null }), 'acme-logistics');
    expect(pdf.pages[0]!.items.map((item) => item.str)).toContain('SO-000123');
    expect(pdf.pages[0]!.text).not.toContain('(SO-000123)');
  });
});

describe('a 60-component BOL', () => {
  let pdf: ReadPdf;
  let shipment: Shipment;

  beforeAll(async () => {
    shipment = makeShipment({ serial: 60, components: describedComponents(60) });
    ({ pdf } = await renderAndRead(shipment, 'acme-logistics', { barcodes: true }));
  });

  it('continues on supplement pages, each with "Page N of M", the BOL number, its barcode and the table header', () => {
    const count = pdf.pages.length;
    expect(count).toBeGreaterThanOrEqual(2);
    pdf.pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} of ${count}`);
      expect(page.items.map((item) => item.str)).toContain(shipment.bolNumber);
      expect(page.text).toContain('COMMODITY DESCRIPTION');
      expect(page.text).toContain('NMFC #');
      expect(pdf.barcodes[index]).toEqual([`]C1402${shipment.bolNumber}`]);
      if (index > 0) expect(page.text).toContain('SUPPLEMENT PAGE');
    });
  });

  it('prints every component exactly once, as its own row', () => {
    const rows = pdf.pages.flatMap((page) => page.lines).filter((line) => line.includes('machined brackets'));
    expect(rows).toHaveLength(60);
    shipment.orderComponents.forEach((item, index) => {
      const number = index + 1;
      expect(rows[index]!.split(' | ')).toEqual([
        String(item.palletCount),
        'Pallets',
        String(item.pieceCount),
        item.packagingType,
        String(item.poundsWeight),
        `Line ${number} machined brackets`,
        item.nmfcCode,
        item.freightClass,
      ]);
    });
  });

  it('prints the carrier totals and the signatures on the last page only', () => {
    const last = pdf.pages.length - 1;
    pdf.pages.forEach((page, index) => {
      expect(page.lines.includes('120 | 3,660 | 32,700 | GRAND TOTAL')).toBe(index === last);
      expect(page.text.includes('CARRIER SIGNATURE / PICKUP DATE')).toBe(index === last);
    });
  });
});

describe('text the font may not have', () => {
  it('prints accents, ß and Cyrillic as they are and CJK and emoji as a visible replacement mark', async () => {
    const shipment = makeShipment({
      components: [component({ description: UNICODE_DESCRIPTION, packagingType: 'Kartons ä', nmfcCode: '№ 42' })],
      consigneeName: 'Société Générale Жилстрой 東京',
      specialInstructions: 'Fragile \u{1F468}\u200D\u{1F469}\u200D\u{1F467} handle with care\tplease\r\nsecond line',
    });
    const { pdf } = await renderAndRead(shipment, 'standard');
    const text = pdf.pages[0]!.text;
    expect(text).toContain('Café crème brûlée glassware, Größe XL, Жёлтый ящик,');
    // 日本製 is three graphemes and the truck one: four marks, never empty boxes or NULs.
    expect(text.match(new RegExp(REPLACEMENT_CHARACTER, 'g'))!.length).toBeGreaterThanOrEqual(4);
    expect(text).toContain('Société Générale Жилстрой');
    expect(text).not.toContain('\u0000');
    // A family emoji (5 code points) is one mark; the tab is a space; the line break is kept.
    expect(text).toContain(`Fragile ${REPLACEMENT_CHARACTER} handle with care please`);
    expect(pdf.pages[0]!.lines).toContain('second line');
    expect(text).toContain('№ 42');
  });

  it('embeds the glyphs each document draws, even when an earlier document had a smaller set', async () => {
    const ascii = await renderer.render(makeShipment({ serial: 901 }), 'standard');
    const cyrillic = await renderer.render(makeShipment({ serial: 902, components: [component({ description: 'Жёлтый ящик щёток, ЭЮЯ ФЦЧ' })] }), 'standard');
    const asciiAgain = await renderer.render(makeShipment({ serial: 903 }), 'standard');
    const asciiCounts = await embeddedFontGlyphCounts(ascii);
    const cyrillicCounts = await embeddedFontGlyphCounts(cyrillic);
    expect(Object.keys(cyrillicCounts).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    // 17 distinct Cyrillic letters (plus the parts of composite glyphs such as й) in the regular face.
    expect(cyrillicCounts['DejaVuSans']! - asciiCounts['DejaVuSans']!).toBeGreaterThanOrEqual(17);
    expect(await embeddedFontGlyphCounts(asciiAgain)).toEqual(asciiCounts);
  });

  it('wraps a 256-character description inside its cell', async () => {
    const { pdf } = await renderAndRead(makeShipment({ components: [component({ description: LONG_DESCRIPTION, nmfcCode: '61680' })] }), 'standard');
    const page = pdf.pages[0]!;
    const words = new Set(LONG_DESCRIPTION.split(' ').slice(0, 3));
    const first = page.items.find((item) => [...words].every((word) => item.str.includes(word)))!;
    expect(first).toBeDefined();
    // The description's lines: the items that start at the same x, from its first line down.
    const lines = page.items.filter((item) => Math.abs(item.x - first.x) < 0.5 && item.y <= first.y && first.y - item.y < 80);
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(
      lines
        .map((item) => item.str)
        .join('')
        .replaceAll(' ', ''),
    ).toBe(LONG_DESCRIPTION.replaceAll(' ', ''));
    // The NMFC cell to the right of the description stays where it is: nothing overflowed into it.
    const nmfc = page.items.find((item) => item.str === '61680')!;
    expect(nmfc.x).toBeGreaterThan(first.x + 200);
  });
});

describe('the renderer', () => {
  it('renders many shipments at once with one set of fonts and templates', async () => {
    const shipments = Array.from({ length: 24 }, (_, index) => makeShipment({ serial: 5000 + index, components: threeComponents() }));
    const pdfs = await Promise.all(shipments.map((shipment, index) => renderer.render(shipment, index % 2 ? 'standard' : 'acme-logistics')));
    const read = await Promise.all(pdfs.map((bytes) => readPdf(bytes)));
    read.forEach((pdf, index) => expect(pdf.pages[0]!.items.map((item) => item.str)).toContain(shipments[index]!.bolNumber));
  });

  it('lists its templates', async () => {
    expect((await renderer.templates()).map((template) => template.name)).toEqual(['acme-logistics', 'standard']);
  });

  it('rejects an unknown template with the known names, and recovers once the template exists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bol-renderer-'));
    try {
      await copyFile(join(findBolTemplatesDir(), 'standard.json'), join(dir, 'standard.json'));
      const own = createBolRenderer({ templatesDir: dir });
      await expect(own.render(makeShipment(), 'custom')).rejects.toThrow('unknown BOL template "custom"; known templates: standard');
      await mkdir(join(dir, 'assets'));
      await copyFile(join(findBolTemplatesDir(), 'assets', 'acme-logistics.png'), join(dir, 'assets', 'logo.png'));
      await writeFile(
        join(dir, 'custom.json'),
        JSON.stringify({ description: 'custom A4', pageSize: 'a4', referenceFormat: 'ref-with-order-number', logo: { path: 'assets/logo.png' } }),
      );
      const pdf = await readPdf(await own.render(makeShipment({ refNumber: 'X-1' }), 'custom'));
      expect([pdf.pages[0]!.width, pdf.pages[0]!.height].map(Math.round)).toEqual([595, 842]);
      expect(pdf.pages[0]!.text).toContain('X-1 (SO-000123)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('renders a 500-component BOL with every row', async () => {
    const shipment = makeShipment({ components: describedComponents(500) });
    const pdf = await readPdf(await renderer.render(shipment, 'standard'));
    expect(pdf.pages.length).toBeGreaterThan(10);
    const rows = pdf.pages.flatMap((page) => page.lines).filter((line) => line.includes('machined brackets'));
    expect(rows).toHaveLength(500);
    expect(pdf.pages[pdf.pages.length - 1]!.text).toContain(`Page ${pdf.pages.length} of ${pdf.pages.length}`);
  });
});

describe('the carrier handoff fields, read back from the PDF', () => {
  const gasoline = { unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' as const };
  const billTo = {
    name: 'ACME Payables',
    address1: 'PO Box 4410',
    address2: null,
    city: 'Columbus',
    state: 'OH',
    zipCode: '43216',
    countryCode: 'US' as const,
    contactPerson: null,
    phoneNumber: '614-555-0100',
  };
  const loaded = () =>
    makeShipment({
      serial: 321,
      components: [
        component({ palletCount: 2, poundsWeight: 1200, description: 'Steel shelving units', nmfcCode: '61680-03', packagingType: 'crates', pieceCount: 10 }),
        component({ palletCount: 1, poundsWeight: 400, description: 'Gasoline in 55 gal drums', nmfcCode: '51560', packagingType: 'drums', pieceCount: 4, hazmat: gasoline }),
      ],
      extra: {
        carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
        proNumber: '0123456789',
        trailerNumber: 'TR-4471',
        sealNumbers: ['SL-001', 'SL-002'],
        freightChargeTerms: { terms: 'THIRD_PARTY', billTo },
        declaredValue: { amountInCents: 125_000, per: 'SHIPMENT' },
        cod: { amountInCents: 50_000, feeTerms: 'PREPAID', customerCheckAcceptable: true },
        pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
        fob: 'ORIGIN',
        masterBol: true,
        emergencyContactPhone: '800-424-9300',
      },
    });
  let pdf: ReadPdf;
  let shipment: Shipment;

  beforeAll(async () => {
    shipment = loaded();
    ({ pdf } = await renderAndRead(shipment, 'standard', { barcodes: true }));
  });

  it('prints each carrier field on the line of its label, compared with the shipment', () => {
    const lines = pdf.pages[0]!.lines;
    const slot = (label: string) => lines.flatMap((line) => line.split(' | ')).indexOf(label);
    const cellsAfter = (label: string) => {
      const line = lines.find((candidate) => candidate.split(' | ').includes(label));
      expect(line, `a line with "${label}"`).toBeDefined();
      const cells = line!.split(' | ');
      return cells[cells.indexOf(label) + 1];
    };
    expect(slot('Carrier name:')).toBeGreaterThan(-1);
    expect(cellsAfter('Carrier name:')).toBe(shipment.carrier!.name);
    expect(cellsAfter('SCAC:')).toBe(shipment.carrier!.scac);
    expect(cellsAfter('Pro number:')).toBe(shipment.proNumber);
    expect(cellsAfter('Trailer number:')).toBe(shipment.trailerNumber);
    expect(cellsAfter('Seal number(s):')).toBe(shipment.sealNumbers.join(', '));
    // Label and amount are both bold body text: pdfjs reads them as one run.
    expect(lines).toContain('COD Amount: $500.00');
    expect(pdf.pages[0]!.items.find((item) => item.str === shipment.proNumber)!.size).toBeCloseTo(12, 5);
  });

  it('prints the third-party bill-to, the declared value sentence, the pickup window and the emergency number', () => {
    const text = pdf.pages[0]!.text;
    for (const expected of [
      'ACME Payables',
      'PO Box 4410',
      'Columbus, OH 43216',
      'Phone: 614-555-0100',
      'Pickup window: ready 08:00, dock closes 16:30',
      '800-424-9300',
      'EMERGENCY RESPONSE TELEPHONE NUMBER',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text.replace(/\s+/g, ' ')).toContain('not exceeding $1,250.00 per shipment');
  });

  it('marks the hazardous row X in the H.M. column with the basic description first, and leaves the other row unmarked', () => {
    const page = pdf.pages[0]!;
    expect(rowWith(page, '400')).toEqual(['1', 'Pallets', '4', 'drums', '400', 'X', 'UN1203, Gasoline, 3, PG II', '51560', shipment.orderComponents[1]!.freightClass]);
    const basic = page.lines.indexOf(rowWith(page, '400').join(' | '));
    expect(page.lines[basic + 1]).toBe('Gasoline in 55 gal drums');
    expect(rowWith(page, 'Steel shelving units')).not.toContain('X');
  });

  it('carries the SCAC/PRO barcode beside the BOL barcode, both decoding to what is printed, in the same bytes on every render', async () => {
    expect(pdf.barcodes[0]).toEqual([`]C1402${shipment.bolNumber}`, 'ODFL0123456789']);
    expect(pdf.pages[0]!.text).toContain('ODFL0123456789');
    const [first, second] = await Promise.all([renderer.render(shipment, 'standard'), renderer.render(shipment, 'standard')]);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });

  it('prints a VOID stamp, rotated along the diagonal, on every page of a cancelled shipment, the text underneath still readable', async () => {
    const cancelled = makeShipment({
      serial: 61,
      components: describedComponents(60),
      extra: {
        ...loaded(),
        id: 'shp_000061',
        orderNumber: 'SO-000061',
        bolNumber: makeShipment({ serial: 61 }).bolNumber,
        orderComponents: describedComponents(60),
        orderStatus: 'CANCELLED',
        cancelledAt: '2026-11-21T10:00:00.000Z',
        cancellationReason: 'order withdrawn',
      },
    });
    const { pdf: voided } = await renderAndRead(cancelled, 'acme-logistics', { barcodes: true });
    expect(voided.pages.length).toBeGreaterThanOrEqual(2);
    const diagonal = (Math.atan2(792, 612) * 180) / Math.PI;
    voided.pages.forEach((page, index) => {
      const stamp = page.items.find((item) => item.str === 'VOID');
      expect(stamp, `VOID on page ${index + 1}`).toBeDefined();
      expect(stamp!.angle).toBeCloseTo(diagonal, 0);
      expect(stamp!.size).toBeGreaterThan(150);
      expect(page.items.some((item) => item.str === 'CANCELLED 2026-11-21: order withdrawn' && Math.abs(item.angle - diagonal) < 1)).toBe(true);
      // Underneath: the BOL number, the rows and the barcode are all still there.
      expect(page.items.map((item) => item.str)).toContain(cancelled.bolNumber);
      expect(voided.barcodes[index]![0]).toBe(`]C1402${cancelled.bolNumber}`);
    });
    // Also plain, horizontal text on every page: searchable as any text (issue 20, item 21).
    voided.pages.forEach((page, index) => {
      const plain = page.items.find((item) => item.str === 'VOID: this bill of lading is cancelled (2026-11-21)');
      expect(plain, `plain VOID on page ${index + 1}`).toBeDefined();
      expect(plain!.angle).toBeCloseTo(0, 5);
      expect(page.lines[0]).toBe('VOID: this bill of lading is cancelled (2026-11-21)');
    });
    const rows = voided.pages.flatMap((page) => page.lines).filter((line) => line.includes('machined brackets'));
    expect(rows).toHaveLength(60);
    expect(pdf.pages[0]!.items.some((item) => item.str === 'VOID')).toBe(false);
    expect(pdf.pages[0]!.text).not.toContain('VOID');
  });

  it('prints 40 hazardous lines over several pages, each with its X and basic description, and the emergency number on every page', async () => {
    const many = makeShipment({
      serial: 40,
      components: Array.from({ length: 40 }, (_, index) =>
        component({ palletCount: 1, poundsWeight: 300 + index, description: `Drum lot ${index + 1}`, nmfcCode: '51560', packagingType: 'drums', pieceCount: 4, hazmat: gasoline }),
      ),
      extra: { emergencyContactPhone: '800-424-9300' },
    });
    const { pdf: read } = await renderAndRead(many, 'standard');
    expect(read.pages.length).toBeGreaterThanOrEqual(2);
    for (const page of read.pages) expect(page.text).toContain('EMERGENCY RESPONSE TELEPHONE NUMBER (HAZARDOUS MATERIALS): 800-424-9300');
    const lines = read.pages.flatMap((page) => page.lines);
    const rows = lines.flatMap((line, index) => (line.includes('UN1203, Gasoline, 3, PG II') ? [[line, lines[index + 1]] as const] : []));
    expect(rows).toHaveLength(40);
    rows.forEach(([row, next], index) => {
      expect(row.split(' | ')).toEqual(['1', 'Pallets', '4', 'drums', String(300 + index), 'X', 'UN1203, Gasoline, 3, PG II', '51560', many.orderComponents[index]!.freightClass]);
      expect(next).toBe(`Drum lot ${index + 1}`);
    });
  });
});

describe('absurd carrier fields in the PDF', () => {
  it('prints a 100-character carrier name, a 20-character PRO and 10 seals of 32 characters whole, inside the carrier box', async () => {
    const name = 'Transcontinental Consolidated Less-Than-Truckload Freight Lines of the Greater Midwestern Region Inc';
    const pro = 'WWWWWWWWWW0123456789';
    const seals = Array.from({ length: 10 }, (_, index) => `SEAL-${String(index).padStart(2, '0')}-${'W'.repeat(24)}`);
    expect([name.length, pro.length, seals.every((seal) => seal.length === 32)]).toEqual([100, 20, true]);
    const shipment = makeShipment({ serial: 999, extra: { carrier: { name, scac: 'TCLF' }, proNumber: pro, sealNumbers: seals, trailerNumber: 'T'.repeat(32) } });
    const { pdf } = await renderAndRead(shipment, 'standard', { barcodes: true });
    const page = pdf.pages[0]!;
    const joined = page.items
      .map((item) => item.str)
      .join('')
      .replaceAll(' ', '');
    expect(joined).toContain(name.replaceAll(' ', ''));
    expect(joined).toContain(seals.join(',').replaceAll(' ', ''));
    expect(joined).toContain('T'.repeat(32));
    // The PRO shrinks below 12 pt to stay on one line rather than wrap.
    const proItem = page.items.find((item) => item.str === pro);
    expect(proItem).toBeDefined();
    expect(proItem!.size).toBeLessThan(12);
    // Everything of the carrier box stays right of the column divider and left of the margin.
    const divider = 24 + Math.round(564 * 0.54);
    const carrierLabel = page.items.find((item) => item.str.startsWith('Carrier name:'))!;
    expect(carrierLabel.x).toBeGreaterThan(divider);
    for (const item of page.items.filter((candidate) => candidate.x > divider && Math.abs(candidate.angle) < 0.5)) expect(item.x + item.width).toBeLessThanOrEqual(612 - 24 + 0.01);
    expect(pdf.barcodes[0]).toEqual([`]C1402${shipment.bolNumber}`, `TCLF${pro}`]);
  });
});
