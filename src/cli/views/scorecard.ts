/** How the carrier scorecard looks: a table with a total row, or CSV (one line per carrier and the total). */
import type { CarrierScore, Scorecard } from '../../tracking/scorecard.js';
import type { CsvCell } from '../fileOutput.js';
import { formatCents, formatNumber, type IO } from '../output.js';

const orDash = (value: number | null, suffix = '') => (value === null ? '-' : `${formatNumber(value, 1)}${suffix}`);

export function exceptionsText(exceptions: Readonly<Record<string, number>>): string {
  return (
    Object.entries(exceptions)
      .map(([reason, count]) => `${reason} ×${count}`)
      .join(', ') || '-'
  );
}

function cells(row: CarrierScore): string[] {
  return [
    row.carrier,
    formatNumber(row.shipments),
    formatNumber(row.delivered),
    orDash(row.onTimePercent, ' %'),
    orDash(row.averageDaysLate),
    orDash(row.worstDaysLate),
    row.quotedTransitDays === null ? '-' : `${orDash(row.quotedTransitDays)} / ${orDash(row.actualTransitDays)}`,
    exceptionsText(row.exceptions),
    formatNumber(row.billsDisputed),
    formatCents(row.disputedInCents),
  ];
}

export function printScorecard(io: IO, scorecard: Scorecard): void {
  const rows = [...scorecard.rows.map(cells), cells(scorecard.total).map((cell) => io.color.bold(cell))];
  io.out(
    io.fittedTable(
      ['Carrier', 'Shipments', 'Delivered', 'On time', 'Avg days late', 'Worst', 'Transit quoted / actual', 'Exceptions', 'Disputed bills', 'At stake'],
      rows,
      // The carrier is the row: never cut, it becomes its SCAC only after the lesser columns left
      // (the worst delay, the counts, the disputes, the transit days) and the heads shortened.
      [
        { shrink: [7], min: 14 },
        { drop: 5 },
        { drop: 1 },
        { drop: 8 },
        { replace: 4, cells: rows.map((row) => row[4]!), head: 'Days late' },
        { drop: 6 },
        { shrink: [7], min: 8 },
        { drop: 2 },
        { replace: 0, cells: [...scorecard.rows.map((row) => row.scac ?? row.carrier), rows.at(-1)![0]!] },
      ],
      { ruleBefore: [rows.length - 1] },
    ),
  );
}

export const SCORECARD_CSV_HEADER = [
  'carrier',
  'scac',
  'shipments',
  'delivered',
  'onTime',
  'late',
  'onTimePercent',
  'averageDaysLate',
  'worstDaysLate',
  'quotedTransitDays',
  'actualTransitDays',
  'exceptions',
  'billsDisputed',
  'disputed',
];

export function scorecardCsvRows(scorecard: Scorecard): CsvCell[][] {
  return [...scorecard.rows, scorecard.total].map((row) => [
    row.carrier,
    row.scac,
    row.shipments,
    row.delivered,
    row.onTime,
    row.late,
    row.onTimePercent,
    row.averageDaysLate,
    row.worstDaysLate,
    row.quotedTransitDays,
    row.actualTransitDays,
    Object.entries(row.exceptions)
      .map(([reason, count]) => `${reason}:${count}`)
      .join('; '),
    row.billsDisputed,
    row.disputedInCents / 100,
  ]);
}
