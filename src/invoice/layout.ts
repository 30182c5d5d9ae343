/**
 * The invoice's page plan, PURE: references, bill-to / ship from / ship to, the charges table (one
 * row per order component with its share of the linehaul, then discount, fuel surcharge and each
 * accessorial) and the total, which is the booked price. Long invoices continue on further pages.
 */
import { piecesKnown, type Invoice } from '../domain/invoice.js';
import { formatCents } from '../domain/money.js';
import type { Address } from '../domain/schemas.js';
import { placeDateOf } from '../domain/dates.js';
import type { TextMetrics } from '../print/drawOps.js';
import { FlowDocument, type DocumentPlan, type TableColumn, type TableRow } from './document.js';

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const formatQuantity = (value: number | null): string => (value === null ? '' : number.format(value));

/** An address as the lines of its box: name, street, city line, contact. */
export function addressLines(address: Address): string[] {
  const contact = [address.contactPerson, address.phoneNumber].filter(Boolean).join(', ');
  return [address.name, address.address1, address.address2 ?? '', `${address.city}, ${address.state} ${address.zipCode}`, contact].filter((line) => line !== '');
}

const TERMS: Record<Invoice['freightChargeTerms'], string> = { PREPAID: 'Prepaid', COLLECT: 'Collect', THIRD_PARTY: 'Third party' };

export const INVOICE_COLUMNS: readonly TableColumn[] = [
  { label: '#', width: 22, align: 'center' },
  { label: 'Description', width: 0, wrap: true },
  { label: 'NMFC', width: 62 },
  { label: 'Class', width: 36, align: 'center' },
  { label: 'Pallets', width: 40, align: 'right' },
  { label: 'Pieces', width: 40, align: 'right' },
  { label: 'Weight (lb)', width: 58, align: 'right' },
  { label: 'Amount', width: 72, align: 'right' },
];

export function invoiceRows(invoice: Invoice): TableRow[] {
  const rows: TableRow[] = invoice.lines.map((line) =>
    line.kind === 'FREIGHT'
      ? {
          cells: [
            String((line.componentIndex ?? 0) + 1),
            line.description ?? 'Freight',
            line.nmfcCode ?? '',
            line.freightClass ?? '',
            formatQuantity(line.palletCount),
            formatQuantity(line.pieceCount),
            formatQuantity(line.poundsWeight),
            formatCents(line.amountInCents),
          ],
        }
      : { cells: ['', line.description ?? line.kind, '', '', '', '', '', formatCents(line.amountInCents)] },
  );
  const { totals } = invoice;
  rows.push({
    cells: [
      '',
      'Total',
      '',
      '',
      formatQuantity(totals.palletCount),
      piecesKnown(invoice) ? formatQuantity(totals.pieceCount) : '',
      formatQuantity(totals.poundsWeight),
      formatCents(totals.totalInCents),
    ],
    bold: true,
    ruleAbove: true,
    shaded: true,
  });
  return rows;
}

/** IANA time zones of the shipment's ends: each date prints as the date where it happens. */
export interface InvoicePlaces {
  /** The shipper's: where the freight was booked. */
  originTimeZone?: string | null;
  /** The consignee's: where it is delivered. */
  destinationTimeZone?: string | null;
}

export function layoutInvoice(invoice: Invoice, metrics: TextMetrics, places: InvoicePlaces = {}): DocumentPlan {
  const document = new FlowDocument(metrics, 'FREIGHT INVOICE', `Invoice ${invoice.invoiceNumber} (continued)`);
  document.fields([
    ['Invoice number', invoice.invoiceNumber],
    ['Invoice date', invoice.invoiceDate],
    ['Order number', invoice.orderNumber],
    ['Reference', invoice.refNumber ?? ''],
    ['BOL number', invoice.bolNumber],
    ['PRO number', invoice.proNumber ?? ''],
    ['Carrier', invoice.carrier ? `${invoice.carrier.name} (${invoice.carrier.scac})` : ''],
    ['Freight terms', TERMS[invoice.freightChargeTerms]],
    ['Pickup date', invoice.pickupDate],
    ['Estimated delivery', invoice.estimatedDeliveryDate ? placeDateOf(invoice.estimatedDeliveryDate, places.destinationTimeZone) : 'no coverage'],
    ['Distance', `${number.format(invoice.miles)} mi`],
    ['Amount due', formatCents(invoice.totals.totalInCents)],
  ]);
  document.boxes([
    { title: 'Bill to', lines: addressLines(invoice.billTo), boldFirst: true },
    { title: 'Ship from', lines: addressLines(invoice.shipper), boldFirst: true },
    { title: 'Ship to', lines: addressLines(invoice.consignee), boldFirst: true },
  ]);
  document.heading('Charges');
  document.table(INVOICE_COLUMNS, invoiceRows(invoice));
  const notes = [
    `Linehaul ${formatCents(invoice.totals.linehaulInCents)} is shared among the freight lines in proportion to each line's weight and class rate on this lane.`,
    invoice.minimumChargeApplied ? 'The minimum charge applies: it replaces the discounted linehaul.' : '',
    `Quote ${invoice.quoteId}, booked ${placeDateOf(invoice.bookedAt, places.originTimeZone)}.`,
  ].filter(Boolean);
  document.paragraph(notes.join(' '), { size: 7 });
  return document.finish(`${invoice.invoiceNumber} · ${invoice.orderNumber} · BOL ${invoice.bolNumber}`);
}
