/**
 * The invoice PDF read back with pdfjs (test/bol/pdf-reader.ts): every figure of the invoice where
 * a reader finds it, long invoices on several pages with the header repeated, any text printable.
 */
import { describe, expect, it } from 'vitest';
import { buildInvoice, tariffLinehaulWeights, type Invoice } from '../../src/domain/invoice.js';
import { renderInvoicePdf } from '../../src/invoice/index.js';
import { layoutInvoice } from '../../src/invoice/layout.js';
import { loadDocumentFonts } from '../../src/print/fonts.js';
import { readPdf } from '../bol/pdf-reader.js';
import { MACHINE_PARTS, pricedShipment, SPARE_BELTS, TARIFF } from '../audit/fixtures.js';

const invoiceOf = (shipment: ReturnType<typeof pricedShipment>): Invoice =>
  buildInvoice(shipment, {
    linehaulWeights: tariffLinehaulWeights(shipment.orderComponents, shipment.miles, TARIFF),
    accessorialDescriptions: { LIFTGATE_DELIVERY: 'Liftgate at delivery' },
  });

describe('invoice PDF', () => {
  it('reads back with the number, dates, parties, one row per component and the charges adding up to the total', async () => {
    const invoice = invoiceOf(pricedShipment());
    const pdf = await readPdf(await renderInvoicePdf(invoice));
    expect(pdf.pages).toHaveLength(1);
    expect(pdf.info.Title).toBe('Invoice INV-000001');
    const { lines, text } = pdf.pages[0]!;
    expect(lines[0]).toBe('FREIGHT INVOICE');
    expect(lines).toContain('INV-000001 | 2026-11-19 | SO-000001 | PO-4471');
    expect(lines).toContain('06141410000000012 | 7204801 | Roadrunner Freight (RRFT) | Prepaid');
    expect(lines).toContain('Acme Machine Co | Acme Machine Co | Peach Supply Co');
    expect(lines).toContain('1 | Machine parts | 161030 | 92.5 | 2 | 10 | 1,200 | $987.00');
    expect(lines).toContain('2 | Spare belts | 175 | 1 | 300 | $425.94');
    expect(lines).toContain('Discount 70% | -$989.06');
    expect(lines).toContain('Fuel surcharge 30% | $127.16');
    expect(lines).toContain('Liftgate at delivery | $75.00');
    expect(lines).toContain('Total | 3 | 10 | 1,500 | $626.04');
    expect(text).toContain('Page 1 of 1');
  });

  it('leaves the total of pieces empty when no line gives its pieces (never a false 0)', async () => {
    const invoice = invoiceOf(pricedShipment({ components: [{ ...SPARE_BELTS, poundsWeight: 1200 }, SPARE_BELTS] }));
    expect(invoice.totals.pieceCount).toBe(0);
    const { lines } = (await readPdf(await renderInvoicePdf(invoice))).pages[0]!;
    expect(lines).toContain('Total | 2 | 1,500 | $' + (invoice.totals.totalInCents / 100).toFixed(2));
  });

  it('continues a 60-line invoice on further pages, the table header on each, the total once at the end', async () => {
    const components = Array.from({ length: 60 }, (_, index) => ({ ...MACHINE_PARTS, palletCount: 1, poundsWeight: 700, description: `Line ${index + 1} steel brackets` }));
    const invoice = invoiceOf(pricedShipment({ components }));
    const pdf = await readPdf(await renderInvoicePdf(invoice));
    expect(pdf.pages.length).toBeGreaterThan(1);
    const count = pdf.pages.length;
    pdf.pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} of ${count}`);
      expect(page.lines.some((line) => line.startsWith('# | DESCRIPTION'))).toBe(true);
    });
    for (let number = 1; number <= 60; number++)
      expect(pdf.pages.some((page) => page.lines.some((line) => line.startsWith(`${number} | Line ${number} steel brackets`)))).toBe(true);
    const totals = pdf.pages.flatMap((page) => page.lines.filter((line) => line.startsWith('Total |')));
    expect(totals).toEqual([`Total | 60 | 600 | 42,000 | ${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(invoice.totals.totalInCents / 100)}`]);
    expect(pdf.pages[1]!.lines[0]).toBe('Invoice INV-000001 (continued)');
  });

  it('prints any description: accents and Cyrillic as written, what the font lacks as a mark, never a crash', async () => {
    const invoice = invoiceOf(pricedShipment({ components: [{ ...MACHINE_PARTS, description: 'Crème brûlée molds, Жёлтый ящик 日本製 🚚' }] }));
    const pdf = await readPdf(await renderInvoicePdf(invoice));
    expect(pdf.pages[0]!.text).toContain('Crème brûlée molds, Жёлтый ящик');
    expect(pdf.pages[0]!.text).toContain('\uFFFD');
  });

  it('the same invoice renders to the same bytes', async () => {
    const invoice = invoiceOf(pricedShipment());
    expect(Buffer.from(await renderInvoicePdf(invoice)).equals(Buffer.from(await renderInvoicePdf(invoice)))).toBe(true);
  });

  it('keeps every text inside the page', async () => {
    const { metrics } = await loadDocumentFonts();
    const long = 'W'.repeat(200);
    const invoice = invoiceOf(pricedShipment({ components: [{ ...MACHINE_PARTS, description: long, nmfcCode: '1234567890123456789012345678901' }] }));
    const plan = layoutInvoice({ ...invoice, refNumber: long, billTo: { ...invoice.billTo, name: long } }, metrics);
    for (const ops of plan.pages) {
      for (const op of ops) {
        if (op.kind !== 'text') continue;
        expect(op.x).toBeGreaterThanOrEqual(35);
        expect(op.x + metrics.widthOf(op.text, op.size, op.bold)).toBeLessThanOrEqual(612 - 35);
      }
    }
  });
});
