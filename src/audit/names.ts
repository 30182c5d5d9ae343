/** How bills are named and identified; zod-free, so that the CLI's views stay light at start-up. */

interface BillKeys {
  scac: string | null;
  invoiceNumber: string | null;
  proNumber: string | null;
  bolNumber: string | null;
}

/** Identifies one bill across audits: the carrier and its invoice number (else its PRO, else its BOL). */
export function billKeyOf(bill: BillKeys): string {
  const id = bill.invoiceNumber ?? (bill.proNumber ? `PRO ${bill.proNumber}` : `BOL ${bill.bolNumber ?? ''}`);
  return `${(bill.scac ?? '').toUpperCase()}|${id.toUpperCase().replace(/\s+/g, ' ').trim()}`;
}

/** How people name a bill: its invoice number, else its PRO, else its BOL number. */
export function billName(bill: Omit<BillKeys, 'scac'>): string {
  return bill.invoiceNumber ?? (bill.proNumber ? `PRO ${bill.proNumber}` : `BOL ${bill.bolNumber ?? '?'}`);
}
