/**
 * The dispute pack as PDF: the dispute pages (disputeLayout.ts) followed by the shipment's Bill of
 * Lading, its pages copied as they are. Loads pdf-lib and fontkit: import lazily.
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { Shipment } from '../domain/schemas.js';
import { planToPdf } from '../invoice/pdf.js';
import { loadDocumentFonts } from '../print/fonts.js';
import type { AuditResult } from './audit.js';
import { billName } from './bill.js';
import { layoutDisputePack } from './disputeLayout.js';

export async function renderDisputePack(audit: AuditResult, shipment: Shipment | null, bol: Uint8Array | null): Promise<Uint8Array> {
  const fonts = await loadDocumentFonts();
  const bolDocument = bol ? await PDFDocument.load(bol) : null;
  const plan = layoutDisputePack(audit, shipment, fonts.metrics, bolDocument?.getPageCount() ?? 0);
  const name = billName(audit.bill);
  const doc = await planToPdf(plan, fonts, `dispute ${audit.billKey}`, {
    title: `Dispute of freight bill ${name}`,
    subject: shipment ? `Order ${shipment.orderNumber}, Bill of Lading ${shipment.bolNumber}` : 'No matching shipment',
    author: shipment?.pickupAddress.name ?? 'shipper',
    date: new Date(audit.auditedAt),
  });
  if (bolDocument) {
    const pages = await doc.copyPages(bolDocument, bolDocument.getPageIndices());
    // The BOL keeps its own "Page 1 of 1" (of the BOL); the pack's page number is stamped in its
    // bottom margin (24 pt), so that no page of the pack reads as its only one.
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const total = plan.pages.length + pages.length;
    pages.forEach((page, index) => {
      doc.addPage(page);
      const text = `Dispute pack page ${plan.pages.length + index + 1} of ${total}: the Bill of Lading, attached`;
      page.drawText(text, { x: page.getWidth() - 24 - font.widthOfTextAtSize(text, 7), y: 9, size: 7, font, color: rgb(0.35, 0.35, 0.35) });
    });
  }
  return doc.save();
}
