/**
 * The dispute pack's page plan, PURE: one document per disputed bill, ready to send to the carrier:
 * what is disputed and the amount at stake, the bill's charges beside the quote's breakdown, and
 * every freight line as declared (dimensions, density, class) beside what was billed. The Bill of
 * Lading is attached after these pages by the renderer.
 */
import type { Shipment } from '../domain/schemas.js';
import type { TextMetrics } from '../print/drawOps.js';
import { FlowDocument, type DocumentPlan, type TableRow } from '../invoice/document.js';
import { addressLines, formatQuantity } from '../invoice/layout.js';
import { formatCents } from '../domain/money.js';
import type { AuditResult } from './audit.js';
import { billName } from './bill.js';
import { accessorialsMeantBy } from './chargeCodes.js';

const difference = (billed: number, quoted: number | null) => (quoted === null ? '' : formatCents(billed - quoted));

/** The bill's charges beside the quote's: linehaul, discount, fuel, each accessorial (ordered or not), total. */
export function chargeRows(audit: AuditResult, shipment: Shipment | null): TableRow[] {
  const bill = audit.bill;
  const quoted = shipment?.priceBreakdown ?? null;
  const row = (label: string, billed: number, quotedAmount: number | null, options: Partial<TableRow> = {}): TableRow => ({
    cells: [label, formatCents(billed), quotedAmount === null ? '' : formatCents(quotedAmount), difference(billed, quotedAmount)],
    ...options,
  });
  const rows: TableRow[] = [
    row('Linehaul', bill.linehaulInCents, quoted?.linehaulInCents ?? null),
    row('Discount', 0 - bill.discountInCents, quoted ? 0 - quoted.discountInCents : null),
    row('Fuel surcharge', bill.fuelSurchargeInCents, quoted?.fuelSurchargeInCents ?? null),
  ];
  const ordered = (quoted?.accessorialsInCents ?? []).map((charge) => ({ ...charge, used: false }));
  for (const charge of bill.accessorials) {
    const match = ordered.find((candidate) => !candidate.used && accessorialsMeantBy(charge.code).includes(candidate.code));
    if (match) match.used = true;
    const label = match && match.code !== charge.code ? `${match.code} (billed as ${charge.code})` : `${charge.code}${match || !shipment ? '' : ' (not ordered)'}`;
    rows.push(row(label, charge.amountInCents, match ? match.amountInCents : shipment ? 0 : null, { shaded: !match && shipment !== null }));
  }
  for (const charge of ordered.filter((candidate) => !candidate.used)) rows.push(row(`${charge.code} (not billed)`, 0, charge.amountInCents));
  rows.push(row('Total', bill.totalInCents, shipment?.totalPriceInCents ?? null, { bold: true, ruleAbove: true, shaded: true }));
  return rows;
}

/** Each freight line as declared on the shipment beside the bill's line of the same position. */
export function freightRows(audit: AuditResult, shipment: Shipment | null): TableRow[] {
  const billed = audit.bill.lines;
  const booked = shipment?.orderComponents ?? [];
  const count = Math.max(billed.length, booked.length);
  return Array.from({ length: count }, (_, index) => {
    const component = booked[index];
    const line = billed[index];
    const dims = component ? `${component.dimensions.length}x${component.dimensions.width}x${component.dimensions.height}` : '';
    const differs = component && line && (line.poundsWeight !== component.poundsWeight || (line.freightClass !== null && line.freightClass !== component.freightClass));
    return {
      cells: [
        String(index + 1),
        component?.description ?? line?.description ?? '',
        component?.nmfcCode ?? line?.nmfcCode ?? '',
        component ? String(component.palletCount) : '',
        dims,
        component ? formatQuantity(component.densityPcf) : '',
        component?.freightClass ?? '',
        component ? formatQuantity(component.poundsWeight) : '',
        line?.freightClass ?? '',
        line ? formatQuantity(line.poundsWeight) : '',
      ],
      shaded: Boolean(differs),
    };
  });
}

export function layoutDisputePack(audit: AuditResult, shipment: Shipment | null, metrics: TextMetrics, bolPages: number): DocumentPlan {
  const bill = audit.bill;
  const name = billName(bill);
  const document = new FlowDocument(metrics, 'FREIGHT BILL DISPUTE', `Dispute of freight bill ${name} (continued)`);
  const carrier = shipment?.carrier ? `${shipment.carrier.name} (${shipment.carrier.scac})` : (bill.scac ?? '');
  document.fields([
    ['Freight bill', bill.invoiceNumber ?? ''],
    ['PRO number', bill.proNumber ?? shipment?.proNumber ?? ''],
    ['BOL number', bill.bolNumber ?? shipment?.bolNumber ?? ''],
    ['Bill date', bill.billDate ?? ''],
    ['Carrier', carrier],
    ['Our order', shipment ? shipment.orderNumber : 'none found'],
    ['Reference', shipment?.refNumber ?? ''],
    ['Pickup date', shipment?.requiredPickupDate ?? ''],
    ['Amount billed', formatCents(audit.billedInCents)],
    ['Amount quoted', audit.quotedInCents === null ? '-' : formatCents(audit.quotedInCents)],
    ['Amount disputed', formatCents(audit.disputedInCents)],
    ['Bill read from', `${bill.source.file.split(/[\\/]/).pop()} line ${bill.source.line}`],
  ]);
  if (shipment) {
    document.boxes([
      { title: 'Ship from', lines: addressLines(shipment.pickupAddress), boldFirst: true },
      { title: 'Ship to', lines: addressLines(shipment.deliveryAddress), boldFirst: true },
    ]);
  }
  document.heading('What we dispute');
  document.table(
    [
      { label: 'Check', width: 78 },
      { label: 'At stake', width: 70, align: 'right' },
      { label: 'Detail', width: 0, wrap: true },
    ],
    [
      ...audit.findings.map((finding) => ({ cells: [finding.code, formatCents(finding.amountInCents), finding.message] })),
      { cells: ['Total', formatCents(audit.disputedInCents), ''], bold: true, ruleAbove: true, shaded: true },
    ],
  );
  document.heading(shipment ? 'Charges: billed and quoted' : 'Charges billed');
  document.table(
    [
      { label: 'Charge', width: 0 },
      { label: 'Billed', width: 80, align: 'right' },
      { label: 'Quoted', width: 80, align: 'right' },
      { label: 'Difference', width: 80, align: 'right' },
    ],
    chargeRows(audit, shipment),
  );
  document.heading(shipment ? 'Freight: declared on the bill of lading and billed' : 'Freight billed');
  document.table(
    [
      { label: '#', width: 20, align: 'center' },
      { label: 'Description', width: 0, wrap: true },
      { label: 'NMFC', width: 46 },
      { label: 'Pallets', width: 42, align: 'right' },
      { label: 'Dims (in, each)', width: 54, align: 'center' },
      { label: 'Density (pcf)', width: 44, align: 'right' },
      { label: 'Class (BOL)', width: 38, align: 'center' },
      { label: 'Weight (BOL, lb)', width: 50, align: 'right' },
      { label: 'Class billed', width: 38, align: 'center' },
      { label: 'Weight billed (lb)', width: 50, align: 'right' },
    ],
    freightRows(audit, shipment),
  );
  document.paragraph(
    shipment
      ? `The freight class of each line is computed from its declared weight and dimensions (density = weight / cubic feet of its pallets) on the NMFC 13-subprovision scale, as quoted and printed on the bill of lading${bolPages > 0 ? `, attached on the ${bolPages === 1 ? 'next page' : `next ${bolPages} pages`}` : ''}. Please correct the bill to the amounts quoted, or send the weight or inspection certificate that supports it.`
      : "We have no shipment under this bill's PRO or bill of lading number. Please send the signed bill of lading and the delivery receipt that support it, or cancel the bill.",
    { size: 7.5 },
  );
  // The pack is one file: its pages count the BOL attached after them ("Page 1 of 2").
  return document.finish(`Dispute of ${name}${shipment ? ` · ${shipment.orderNumber} · BOL ${shipment.bolNumber}` : ''}`, bolPages);
}
