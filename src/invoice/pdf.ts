/**
 * Executes a flowing document's page plan (document.ts) into a PDF with the shared document font
 * (src/print): the invoice and the dispute pack. Loads pdf-lib and fontkit: import lazily.
 */
import { rgb, type PDFDocument, type RGB } from 'pdf-lib';
import type { ColorRole } from '../print/drawOps.js';
import type { LoadedFonts } from '../print/fonts.js';
import { createPdfDocument, drawPage, embedBarcodes, setDocumentInfo, type DocumentInfo } from '../print/pdf.js';
import type { DocumentPlan } from './document.js';

const BLACK = rgb(0, 0, 0);
export const DOCUMENT_PALETTE: Record<ColorRole, RGB> = {
  text: BLACK,
  accent: rgb(0.1, 0.2, 0.4),
  headerFill: rgb(0.9, 0.91, 0.94),
  headerText: BLACK,
  rule: rgb(0.55, 0.55, 0.55),
  stamp: rgb(0.82, 0.01, 0.11),
};

/** A document of the plan's pages; `seed` names its font subsets (the same document, the same bytes). */
export async function planToPdf(plan: DocumentPlan, fonts: LoadedFonts, seed: string, info: DocumentInfo): Promise<PDFDocument> {
  const { doc, regular, bold } = await createPdfDocument(fonts, seed);
  const barcodes = await embedBarcodes(doc, plan.pages.flat());
  for (const ops of plan.pages) drawPage(doc.addPage([plan.pageWidth, plan.pageHeight]), ops, { regular, bold, barcodes, logo: null, palette: DOCUMENT_PALETTE });
  setDocumentInfo(doc, info);
  return doc;
}
