/**
 * The dispute pack as PDF: the dispute pages (disputeLayout.ts) followed by the shipment's Bill of
 * Lading, its pages copied as they are. Loads pdf-lib and fontkit: import lazily.
 */
import { PDFDocument } from 'pdf-lib';
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
    author: shipment?.shipper.name ?? 'shipper',
    date: new Date(audit.auditedAt),
  });
  if (bolDocument) {
    const pages = await doc.copyPages(bolDocument, bolDocument.getPageIndices());
    for (const page of pages) doc.addPage(page);
  }
  return doc.save();
}
