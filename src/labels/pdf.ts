/**
 * Pallet labels as PDF: one 4 x 6 in page per label, executed from the label plan with the shared
 * document font and barcode images (src/print). Loads pdf-lib, fontkit and bwip-js: import lazily.
 */
import { rgb, type RGB } from 'pdf-lib';
import type { Shipment } from '../domain/schemas.js';
import type { ColorRole } from '../print/drawOps.js';
import type { LoadedFonts } from '../print/fonts.js';
import { createPdfDocument, documentDateOf, drawPage, embedBarcodes, setDocumentInfo } from '../print/pdf.js';
import type { LabelLayout } from './layout.js';

/** Labels are printed in black on white. */
const BLACK = rgb(0, 0, 0);
const PALETTE: Record<ColorRole, RGB> = { text: BLACK, accent: BLACK, headerFill: rgb(0.9, 0.9, 0.9), headerText: BLACK, rule: BLACK, stamp: BLACK };

export async function renderLabelsPdf(shipment: Shipment, layout: LabelLayout, fonts: LoadedFonts): Promise<Uint8Array> {
  const { doc, regular, bold } = await createPdfDocument(fonts, `labels ${shipment.bolNumber}`);
  const barcodes = await embedBarcodes(
    doc,
    layout.labels.flatMap((label) => label.ops),
  );
  for (const label of layout.labels) {
    const page = doc.addPage([layout.pageWidth, layout.pageHeight]);
    drawPage(page, label.ops, { regular, bold, barcodes, logo: null, palette: PALETTE });
  }
  setDocumentInfo(doc, {
    title: `Pallet labels ${shipment.orderNumber}`,
    subject: `Bill of Lading ${shipment.bolNumber}, ${layout.labels.length} handling unit(s)`,
    author: shipment.pickupAddress.name,
    date: documentDateOf(shipment),
  });
  return doc.save();
}
