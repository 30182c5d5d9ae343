/**
 * How an audit of carriers' bills looks: to people, one row per finding grouped by bill (a bill
 * without findings is one OK row); to scripts, CSV with one line per finding (or OK bill).
 */
import type { AuditResult } from '../../audit/audit.js';
import { billName } from '../../audit/names.js';
import { dollarsText } from '../../domain/money.js';
import type { CsvCell } from '../fileOutput.js';
import { formatCents, plural, type IO } from '../output.js';
import { displayWidth, fitTable } from '../tableLayout.js';

export interface AuditSummary {
  bills: number;
  disputed: number;
  unmatched: number;
  quotedInCents: number;
  billedInCents: number;
  disputedInCents: number;
}

export function summarise(results: readonly AuditResult[]): AuditSummary {
  return {
    bills: results.length,
    disputed: results.filter((result) => result.status === 'DISPUTED').length,
    unmatched: results.filter((result) => result.findings.some((finding) => finding.code === 'UNMATCHED')).length,
    // Each shipment's quote once, however many bills it has.
    quotedInCents: [...new Map(results.flatMap((result) => (result.shipment ? [[result.shipment.id, result.shipment.quotedPriceInCents] as const] : []))).values()].reduce(
      (sum, cents) => sum + cents,
      0,
    ),
    billedInCents: results.reduce((sum, result) => sum + result.billedInCents, 0),
    disputedInCents: results.reduce((sum, result) => sum + result.disputedInCents, 0),
  };
}

export function summaryLine(summary: AuditSummary): string {
  const disputed = summary.disputed === 0 ? 'none disputed' : `${summary.disputed} disputed, ${formatCents(summary.disputedInCents)} at stake`;
  return `${plural(summary.bills, 'bill')} audited: ${disputed} (billed ${formatCents(summary.billedInCents)}, quoted ${formatCents(summary.quotedInCents)})`;
}

export function printAudit(io: IO, results: readonly AuditResult[]): void {
  const head = ['Bill', 'PRO', 'Order', 'Quoted', 'Billed', 'Check', 'At stake', 'Detail'];
  const rows: string[][] = [];
  const starts: number[] = [];
  for (const result of results) {
    starts.push(rows.length);
    // Measured as they will be written (io.escaped): a bill's control characters take the room of their escapes.
    const bill = [
      billName(result.bill),
      result.bill.proNumber ?? '',
      result.shipment?.orderNumber ?? '-',
      result.quotedInCents === null ? '-' : formatCents(result.quotedInCents),
      formatCents(result.billedInCents),
    ].map((cell) => io.escaped(cell));
    if (result.findings.length === 0) rows.push([...bill, io.color.green('OK'), '', 'as quoted']);
    result.findings.forEach((finding, index) => {
      rows.push([...(index === 0 ? bill : ['', '', '', '', '']), io.color.red(finding.code), formatCents(finding.amountInCents), finding.message].map((cell) => io.escaped(cell)));
    });
  }
  // A rule between bills only where a bill has several rows.
  const ruleBefore = rows.length > results.length ? starts.slice(1) : [];
  // Piped output keeps whole cells. On a terminal the detail gives way first (to 40 columns), then
  // the PRO and quoted columns leave.
  const fitted = io.isStdoutTTY ? fitTable(head, rows, io.terminalWidth, [{ shrink: [7] }, { drop: 1 }, { drop: 3 }], 40) : { head, rows, colWidths: undefined };
  const detailWidth = fitted.colWidths ? fitted.colWidths.at(-1)! - 2 : Infinity;
  if (rows.every((row) => displayWidth(row[7]!) <= detailWidth)) {
    io.out(io.table(fitted.head, fitted.rows, { ruleBefore, ...(fitted.colWidths ? { colWidths: fitted.colWidths } : {}) }));
    return;
  }
  // Too narrow for the whole detail (80 columns): the table without it, then each finding's detail
  // on lines of its own under it, whole (wrapped, never cut).
  const short = fitTable(
    head.slice(0, -1),
    rows.map((row) => row.slice(0, -1)),
    io.terminalWidth,
    [{ drop: 1 }, { drop: 3 }],
  );
  io.out(io.table(short.head, short.rows, { ruleBefore, ...(short.colWidths ? { colWidths: short.colWidths } : {}) }));
  for (const result of results) {
    for (const finding of result.findings) io.field(`  ${billName(result.bill)} ${finding.code}: ${finding.message}`, 4);
  }
}

export const AUDIT_CSV_HEADER = [
  'file',
  'line',
  'invoiceNumber',
  'proNumber',
  'bolNumber',
  'scac',
  'orderNumber',
  'shipmentId',
  'matchedBy',
  'quoted',
  'billed',
  'check',
  'atStake',
  'detail',
];

/** Dollars to 2 decimals, as the spend CSV writes them. */
const dollarsOf = (cents: number | null): string | null => (cents === null ? null : dollarsText(cents));

export function auditCsvRows(results: readonly AuditResult[]): CsvCell[][] {
  return results.flatMap((result) => {
    const bill: CsvCell[] = [
      result.bill.source.file,
      result.bill.source.line,
      result.bill.invoiceNumber,
      result.bill.proNumber,
      result.bill.bolNumber,
      result.bill.scac,
      result.shipment?.orderNumber ?? null,
      result.shipment?.id ?? null,
      result.matchedBy,
      dollarsOf(result.quotedInCents),
      dollarsOf(result.billedInCents),
    ];
    if (result.findings.length === 0) return [[...bill, 'OK', dollarsText(0), 'as quoted']];
    return result.findings.map((finding) => [...bill, finding.code, dollarsOf(finding.amountInCents), finding.message]);
  });
}
