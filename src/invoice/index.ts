/**
 * The invoice as PDF, for `shipper invoice ID -o FILE.pdf` and GET .../invoice with Accept:
 * application/pdf. Importing this module loads pdf-lib and fontkit: import it lazily.
 */
import type { Invoice } from '../domain/invoice.js';
import { loadDocumentFonts } from '../print/fonts.js';
import { layoutInvoice, type InvoicePlaces } from './layout.js';
import { planToPdf } from './pdf.js';

export async function renderInvoicePdf(invoice: Invoice, places: InvoicePlaces = {}): Promise<Uint8Array> {
  const fonts = await loadDocumentFonts();
  const plan = layoutInvoice(invoice, fonts.metrics, places);
  const date = new Date(`${invoice.invoiceDate}T12:00:00Z`);
  const doc = await planToPdf(plan, fonts, invoice.invoiceNumber, {
    title: `Invoice ${invoice.invoiceNumber}`,
    subject: `Order ${invoice.orderNumber}, Bill of Lading ${invoice.bolNumber}`,
    author: invoice.shipper.name,
    date,
  });
  return doc.save();
}
