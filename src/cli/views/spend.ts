/** How the spend report looks: a table with a total row, or CSV (one line per group and the total). */
import type { SpendReport, SpendRow } from '../../audit/spend.js';

/** As in audit/spend.ts (not imported: this view stays light at start-up). */
const NO_SHIPMENT_GROUP = '(no shipment)';
import { dollarsText } from '../../domain/money.js';
import type { CsvCell } from '../fileOutput.js';
import { formatCents, formatNumber, type IO } from '../output.js';

const GROUP_TITLES: Record<SpendReport['by'], string> = { lane: 'Lane', carrier: 'Carrier', month: 'Month' };

function cells(row: SpendRow): string[] {
  // Bills without a shipment have nothing booked: blank, not zero.
  const booked = row.group === NO_SHIPMENT_GROUP ? ['-', '-', '-'] : [formatNumber(row.shipments), formatNumber(row.poundsWeight), formatCents(row.quotedInCents)];
  return [row.group, ...booked, formatNumber(row.bills), formatCents(row.billedInCents), formatCents(row.disputedInCents)];
}

export function printSpend(io: IO, report: SpendReport): void {
  const rows = [...report.rows.map(cells), cells(report.total).map((cell) => io.color.bold(cell))];
  // The group (a lane can be long) gives way first, then bills and weight leave; amounts never shrink.
  io.out(
    io.fittedTable(
      [GROUP_TITLES[report.by], 'Shipments', 'Weight (lb)', 'Quoted', 'Bills', 'Billed', 'Disputed'],
      rows,
      [{ shrink: [0], min: 20 }, { drop: 4 }, { drop: 2 }, { shrink: [0], min: 10 }],
      {
        ruleBefore: [rows.length - 1],
      },
    ),
  );
}

export const SPEND_CSV_HEADER = ['group', 'shipments', 'poundsWeight', 'quoted', 'bills', 'billed', 'disputed'];

export function spendCsvRows(report: SpendReport): CsvCell[][] {
  return [...report.rows, report.total].map((row) => [
    row.group,
    row.shipments,
    row.poundsWeight,
    dollarsText(row.quotedInCents),
    row.bills,
    dollarsText(row.billedInCents),
    dollarsText(row.disputedInCents),
  ]);
}
