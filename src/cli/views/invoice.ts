/** How an invoice looks to people (`shipper invoice ID`). */
import { piecesKnown, type Invoice } from '../../domain/invoice.js';
import type { Address } from '../../domain/schemas.js';
import { formatCents, formatDate, formatNumber, type IO } from '../output.js';

const TERMS: Record<Invoice['freightChargeTerms'], string> = { PREPAID: 'prepaid', COLLECT: 'collect', THIRD_PARTY: 'third party' };

function addressLine(address: Address): string {
  return [address.name, address.address1, address.address2, `${address.city}, ${address.state} ${address.zipCode}`].filter(Boolean).join(', ');
}

export function printInvoice(io: IO, invoice: Invoice): void {
  const c = io.color;
  io.out(`${c.bold('Invoice')} ${c.bold(invoice.invoiceNumber)}  ${invoice.orderNumber}  dated ${formatDate(invoice.invoiceDate)}`);
  io.field(`  Bill to      ${addressLine(invoice.billTo)} (${TERMS[invoice.freightChargeTerms]})`, 15);
  io.out(`  Lane         ${invoice.shipper.city}, ${invoice.shipper.state} → ${invoice.consignee.city}, ${invoice.consignee.state} (${formatNumber(invoice.miles)} mi)`);
  io.out(
    `  BOL number   ${invoice.bolNumber}${invoice.proNumber ? `   PRO ${invoice.proNumber}` : ''}${invoice.carrier ? `   ${invoice.carrier.name} (${invoice.carrier.scac})` : ''}`,
  );
  if (invoice.refNumber) io.out(`  Reference    ${invoice.refNumber}`);
  io.out('');
  const rows = invoice.lines.map((line) =>
    line.kind === 'FREIGHT'
      ? [
          (line.componentIndex ?? 0) + 1,
          line.description ?? 'Freight',
          line.nmfcCode ?? '',
          line.freightClass ?? '',
          line.palletCount ?? '',
          line.pieceCount ?? '',
          formatNumber(line.poundsWeight ?? 0),
          formatCents(line.amountInCents),
        ]
      : ['', line.description ?? line.kind, '', '', '', '', '', formatCents(line.amountInCents)],
  );
  const { totals } = invoice;
  rows.push([
    '',
    c.bold('Total'),
    '',
    '',
    totals.palletCount,
    piecesKnown(invoice) ? totals.pieceCount : '',
    formatNumber(totals.poundsWeight),
    c.bold(formatCents(totals.totalInCents)),
  ]);
  // The description gives way first, then pieces and NMFC leave (the PDF has them); amounts never shrink.
  io.out(
    io.fittedTable(
      ['#', 'Description', 'NMFC', 'Class', 'Pallets', 'Pieces', 'Weight (lb)', 'Amount'],
      rows,
      [{ shrink: [1], min: 20 }, { drop: 5 }, { drop: 2 }, { shrink: [1], min: 10 }],
      {
        ruleBefore: [rows.length - 1],
      },
    ),
  );
  if (invoice.minimumChargeApplied) io.out(c.dim('  The minimum charge applies: it replaces the discounted linehaul.'));
}
