/**
 * Fuzz of the BOL renderer: shipments booked with random Unicode in every text a BOL prints
 * (names, streets, contacts, descriptions, NMFC codes, packaging, hazardous material names,
 * special instructions, carrier, seals, references, a cancellation reason): all scripts, emoji,
 * combining marks, right-to-left text, control characters. `renderBol` (LocalApi) answers a PDF
 * that pdfjs opens; every printable Latin word of the shipment comes back in its text; nothing
 * is drawn outside the page, neither in the PDF (pdfjs's text positions) nor in the layout's
 * page plan (every line, box, image and barcode). Runs, seeds: see arbitraries.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { createBolRenderer, findBolTemplatesDir } from '../../src/bol/index.js';
import { layoutBol, type DrawOp } from '../../src/bol/layout.js';
import { loadBolTemplate } from '../../src/bol/template.js';
import type { Shipment, ShipmentRequestInput } from '../../src/domain/schemas.js';
import { loadDocumentFonts } from '../../src/print/fonts.js';
import { tempDir } from '../helpers/cli.js';
import { component, makeShipment } from '../bol/fixtures.js';
import { readPdf, type ReadPdf } from '../bol/pdf-reader.js';
import { FUZZ_NOW, fuzzParameters, HOSTILE_WORDS, shipmentRequestArb, Tally, timeoutOf, withUniquePro, type TextOptions } from './arbitraries.js';

const tally = new Tally('bol');
let work: { dir: string; cleanup: () => Promise<void> };
let api: LocalApi;

beforeAll(async () => {
  work = await tempDir('shipper-fuzz-bol-');
  api = new LocalApi({ storeDir: work.dir, now: () => new Date(FUZZ_NOW) });
});
afterAll(async () => {
  tally.flush();
  await work.cleanup();
});

// ---------------------------------------------------------------------------------------------
// Text: Latin words the font prints, among words of every other kind

/** Letters and digits DejaVu Sans prints: ASCII, Latin-1 and Latin Extended-A. */
const LATIN = /^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u017F]$/u;
const latinLetters = [...Array.from({ length: 0x180 }, (_, code) => String.fromCharCode(code)).filter((char) => LATIN.test(char))];

const latinWordArb = fc.string({ unit: fc.constantFrom(...latinLetters), minLength: 1, maxLength: 12 });
const otherWordArb = fc.oneof(
  fc.constantFrom(...HOSTILE_WORDS),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
);
const separatorArb = fc.constantFrom(' ', ' ', ' ', '  ', '\t', '\n', '\u00A0', '\u3000');

/** Words of every kind (two in three Latin) joined by white space, within `max` code units. */
function bolTextArb({ max, required = false }: TextOptions): fc.Arbitrary<string> {
  const words = Math.max(1, Math.min(24, Math.floor(max / 6)));
  const mixed = fc
    .array(fc.tuple(fc.oneof({ weight: 2, arbitrary: latinWordArb }, { weight: 1, arbitrary: otherWordArb }), separatorArb), { minLength: required ? 1 : 0, maxLength: words })
    .map((pairs) => pairs.map(([word, separator]) => `${word}${separator}`).join(''));
  // As long as the field takes, in the widest letters, in one word or many: the most a box must hold.
  const longest = fc.constantFrom('W', 'Ŵ ', 'MW', '😀', 'ﷺ ').map((unit) => unit.repeat(Math.ceil(max / unit.length)));
  return (
    fc
      .oneof({ weight: 6, arbitrary: mixed }, { weight: 1, arbitrary: longest })
      .map((text) => text.slice(0, max))
      // Control characters are refused in a request's text (issue 20, item 4): a valid one has none.
      .map((text) => text.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' '))
      .filter((text) => !/[\uD800-\uDBFF]$/.test(text) && (!required || text.trim().length > 0))
  );
}

/**
 * The Latin words of `text` as the BOL's text must give them back: runs of Latin letters (or of
 * digits) that are graphemes of their own. Letters and digits are apart because a reader orders
 * a line by the Unicode bidirectional algorithm, which may move digits next to right-to-left
 * text ("שלום 0t" reads back "0 םולשt"); a run of letters stays whole and in order.
 */
function latinWordsOf(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let kind: 'letter' | 'digit' | undefined;
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text.normalize('NFC'))) {
    const next = !LATIN.test(segment) ? undefined : /\d/.test(segment) ? 'digit' : 'letter';
    if (next !== kind && word) {
      words.push(word);
      word = '';
    }
    if (next) word += segment;
    kind = next;
  }
  if (word) words.push(word);
  return words;
}

/** Every text of the shipment the BOL prints in full, as booked (a cancellation reason is cut to fit its stamp). */
function printedTexts(shipment: Shipment): string[] {
  // The emergency number heads the carrier table only when a line is hazardous (49 CFR 172.604).
  const hazardous = shipment.orderComponents.some((component) => component.hazmat);
  // Special instructions beyond 20 lines are cut with an ellipsis (page 1 keeps room for the table).
  const instructions = shipment.specialInstructions;
  const uncut = instructions !== null && instructions.length <= 300 && instructions.split('\n').length <= 8 ? instructions : null;
  const texts: Array<string | null | undefined> = [
    shipment.refNumber,
    uncut,
    hazardous ? shipment.emergencyContactPhone : null,
    shipment.trailerNumber,
    shipment.proNumber,
    shipment.carrier?.name,
    ...shipment.sealNumbers,
  ];
  for (const party of [shipment.pickupAddress, shipment.deliveryAddress, shipment.freightChargeTerms.billTo]) {
    if (party) texts.push(party.name, party.address1, party.address2, party.city, party.contactPerson, party.phoneNumber);
  }
  for (const component of shipment.orderComponents) texts.push(component.description, component.nmfcCode, component.packagingType, component.hazmat?.properShippingName);
  return texts.filter((text): text is string => typeof text === 'string');
}

// ---------------------------------------------------------------------------------------------
// Pages

const SLACK = 0.5;

/** Text items of pdfjs outside the page (rotated ones by the corners of their box). */
function outsideInPdf(pdf: ReadPdf): string[] {
  const outside: string[] = [];
  pdf.pages.forEach((page, index) => {
    for (const item of page.items) {
      const angle = (item.angle * Math.PI) / 180;
      const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
      const corners = [
        [item.x, item.y],
        [item.x + item.width * cos, item.y + item.width * sin],
        [item.x - item.size * sin, item.y + item.size * cos],
        [item.x + item.width * cos - item.size * sin, item.y + item.width * sin + item.size * cos],
      ];
      if (corners.some(([x, y]) => x! < -SLACK || y! < -SLACK || x! > page.width + SLACK || y! > page.height + SLACK)) {
        outside.push(`page ${index + 1}: ${JSON.stringify(item.str.slice(0, 40))} at (${item.x.toFixed(1)}, ${item.y.toFixed(1)}) width ${item.width.toFixed(1)}`);
      }
    }
  });
  return outside;
}

/** Operations of the page plan that reach outside the page. */
function outsideInPlan(ops: readonly DrawOp[], width: number, height: number, widthOf: (text: string, size: number, bold: boolean) => number): string[] {
  const inside = (x: number, y: number) => x >= -SLACK && y >= -SLACK && x <= width + SLACK && y <= height + SLACK;
  const outside: string[] = [];
  for (const op of ops) {
    let ok: boolean;
    switch (op.kind) {
      case 'text':
        // The baseline's start and end, the descenders (0.24 em) and the top of the line.
        ok = inside(op.x, op.y - 0.24 * op.size) && inside(op.x + widthOf(op.text, op.size, op.bold), op.y + op.size);
        break;
      case 'line':
        ok = inside(op.x1, op.y1) && inside(op.x2, op.y2);
        break;
      case 'rect':
      case 'image':
      case 'barcode':
        ok = inside(op.x, op.y) && inside(op.x + op.width, op.y + op.height);
        break;
      case 'stamp': {
        const angle = (op.angle * Math.PI) / 180;
        const length = widthOf(op.text, op.size, true);
        ok = inside(op.x, op.y) && inside(op.x + length * Math.cos(angle), op.y + length * Math.sin(angle));
        break;
      }
    }
    if (!ok) outside.push(JSON.stringify(op).slice(0, 200));
  }
  return outside;
}

// ---------------------------------------------------------------------------------------------

/** Every text at its longest in the widest letters, without a space to break at: what a page must hold at most. */
const longestTextArb = ({ max }: TextOptions) =>
  fc.constantFrom('W', 'MW', '😀', 'Ŵ ').map(
    (unit) =>
      unit
        .repeat(Math.ceil(max / unit.length))
        .slice(0, max)
        .trim() || 'W',
  );

const bolShipmentArb = fc.record({
  request: fc.oneof(
    { weight: 5, arbitrary: shipmentRequestArb({ text: bolTextArb, maxLines: 4 }) },
    { weight: 1, arbitrary: shipmentRequestArb({ text: longestTextArb, maxLines: 2 }) },
  ),
  template: fc.constantFrom('standard', 'acme-logistics'),
  cancelReason: fc.option(bolTextArb({ max: 500 }), { nil: undefined, freq: 5 }),
});

describe('counterexamples the properties found (kept as plain examples)', () => {
  it('keeps a character in the PDF text that an earlier document met only as part of another glyph (ı after í)', async () => {
    // Before: after a BOL with "María", the dotless i of a later BOL extracted as "`" (bold) or
    // nothing: fontkit had cached its glyph, met inside í, without code points, and the ToUnicode
    // map was built from them. The page showed "ı0 Acme", its text said "`0 Acme".
    const renderer = createBolRenderer({ templatesDir: findBolTemplatesDir() });
    const names = ['María José', 'ı0 Acme Kış', 'Ĳssel ŀ', 'ı0 Acme Kış'];
    for (const name of names) {
      const pdf = await readPdf(await renderer.render(makeShipment({ consigneeName: name, components: [component({ description: `${name} regular` })] }), 'standard'));
      expect(pdf.pages[0]!.items.map((item) => item.str)).toEqual(expect.arrayContaining([name, `${name} regular`]));
    }
  });
});

describe('counterexamples the properties found (kept as plain examples): every field at its longest', () => {
  it('keeps page 1 on the page: the special instructions give up lines to the longest addresses', async () => {
    // Before: with every text at its limit in unbroken W's, page 1's header ran 120 pt below the
    // bottom of the page, taking the carrier table's head with it.
    const w = (length: number) => 'W'.repeat(length);
    const address = (zipCode: string, city: string, state: string) => ({
      name: w(100),
      address1: w(100),
      address2: w(100),
      city,
      state,
      zipCode,
      contactPerson: w(100),
      // A phone is E.164 once read: 12 characters for a US number, not 32 of anything.
      phoneNumber: '+13125550100',
    });
    const request = {
      refNumber: w(64),
      pickupAddress: address('60601', 'Chicago', 'IL'),
      deliveryAddress: address('10001', 'New York', 'NY'),
      specialInstructions: w(1000),
      accessorials: [
        'LIFTGATE_PICKUP',
        'LIFTGATE_DELIVERY',
        'RESIDENTIAL_PICKUP',
        'RESIDENTIAL_DELIVERY',
        'INSIDE_PICKUP',
        'INSIDE_DELIVERY',
        'LIMITED_ACCESS_PICKUP',
        'LIMITED_ACCESS_DELIVERY',
        'APPOINTMENT',
        'NOTIFY_BEFORE_DELIVERY',
      ],
      orderComponents: [
        {
          palletCount: 1,
          poundsWeight: 100,
          dimensions: { length: 40, width: 40, height: 40 },
          description: w(256),
          nmfcCode: w(32),
          packagingType: w(32),
          hazmat: { unNumber: 'UN1203', properShippingName: w(200), hazardClass: '3' },
        },
      ],
      carrier: { name: w(100), scac: 'ABCD' },
      proNumber: 'A'.repeat(20),
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: address('30303', 'Atlanta', 'GA') },
      pickupWindow: { readyTime: '08:00', closeTime: '17:00' },
      emergencyContactPhone: w(32),
      trailerNumber: w(32),
      sealNumbers: Array<string>(10).fill(w(32)),
    };
    const shipment = (await api.createShipment(request as ShipmentRequestInput)).data;
    const fonts = await loadDocumentFonts();
    for (const template of ['standard', 'acme-logistics']) {
      const plan = layoutBol(shipment, (await loadBolTemplate(template, findBolTemplatesDir())).spec, fonts.metrics);
      for (const page of plan.pages) expect(outsideInPlan(page.ops, plan.pageWidth, plan.pageHeight, fonts.metrics.widthOf)).toEqual([]);
      const pdf = await readPdf((await api.renderBol(shipment.id, { template })).data);
      expect(outsideInPdf(pdf)).toEqual([]);
      // The names are whole; the instructions end cut, with an ellipsis.
      const text = pdf.pages[0]!.items.map((item) => item.str).join('');
      expect(text.split(w(100)).length).toBeGreaterThan(1);
      expect(pdf.pages[0]!.items.some((item) => /^W+…$/.test(item.str))).toBe(true);
    }
  });
});

describe('BOLs of random Unicode', () => {
  it(
    'render as a PDF that pdfjs opens, print every Latin word, and draw nothing outside the page',
    async () => {
      const fonts = await loadDocumentFonts();
      const templates = { standard: await loadBolTemplate('standard', findBolTemplatesDir()), 'acme-logistics': await loadBolTemplate('acme-logistics', findBolTemplatesDir()) };
      await fc.assert(
        fc.asyncProperty(bolShipmentArb, async ({ request, template, cancelReason }) => {
          tally.add('bol');
          // A PRO names one shipment of its carrier: the run (and its shrinking) books many, each with its own.
          let shipment: Shipment = (await api.createShipment(withUniquePro(request) as ShipmentRequestInput)).data;
          if (cancelReason !== undefined) {
            tally.add('cancelled bol');
            shipment = (await api.cancelShipment(shipment.id, { reason: cancelReason.trim().slice(0, 500) })).data;
          }
          const bytes = (await api.renderBol(shipment.id, { template })).data;
          expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
          const pdf = await readPdf(bytes);
          tally.add('bol pages', pdf.pages.length);
          expect(pdf.pages.length).toBeGreaterThan(0);

          const extracted = pdf.pages
            .flatMap((page) => page.items.map((item) => item.str))
            .join('')
            .normalize('NFKC')
            .replace(/\s+/g, '');
          const missing = printedTexts(shipment)
            .flatMap(latinWordsOf)
            .filter((word) => !extracted.includes(word.normalize('NFKC')));
          if (missing.length > 0 && process.env.SHIPPER_FUZZ_DUMP) {
            const { writeFileSync } = await import('node:fs');
            writeFileSync(`${process.env.SHIPPER_FUZZ_DUMP}.pdf`, bytes);
            writeFileSync(
              process.env.SHIPPER_FUZZ_DUMP,
              JSON.stringify(
                { request, template, cancelReason, missing, items: pdf.pages.map((page) => page.items.map((item) => [item.str, Math.round(item.x), Math.round(item.y)])) },
                null,
                1,
              ),
            );
          }
          expect(missing, `Latin words missing from the PDF's text`).toEqual([]);

          expect(outsideInPdf(pdf)).toEqual([]);
          const plan = layoutBol(shipment, templates[template].spec, fonts.metrics);
          expect(plan.pages).toHaveLength(pdf.pages.length);
          for (const page of plan.pages) expect(outsideInPlan(page.ops, plan.pageWidth, plan.pageHeight, fonts.metrics.widthOf)).toEqual([]);
        }),
        fuzzParameters(15),
      );
    },
    timeoutOf(10_000),
  );
});
