/**
 * Carriers' freight bills as CSV (the layout the README documents): one row per billed freight
 * line; consecutive rows with the same invoice number (else PRO, else BOL number) are one bill,
 * whose bill-level columns may be repeated on every row or given on its first row only (a
 * different value on a later row is an error, as in the shipment import). Pure: text in, bills
 * or every problem found (file, line, column) out.
 *
 * Header names match ignoring case, spaces, `_` and `-` ("PRO Number" = proNumber); a few other
 * names carriers use are understood (PRO, BOL, weight, class, fuel surcharge...); an unknown
 * column is refused with the column it most likely means, so that no figure is silently dropped.
 */
import { parse } from 'csv-parse/sync';
import { didYouMean, normaliseName } from '../domain/didYouMean.js';
import { chargeKindOf, normaliseChargeCode } from './chargeCodes.js';
import {
  MAX_BILLED_POUNDS,
  parseBillDate,
  parseDollars,
  absurdAmountProblem,
  parseFreightClass,
  parsePounds,
  type BillCharge,
  type BillIssue,
  type BillLine,
  type BillsRead,
  type CarrierBill,
} from './bill.js';

type BillColumn = 'invoiceNumber' | 'proNumber' | 'bolNumber' | 'scac' | 'billDate' | 'linehaul' | 'discount' | 'fuel' | 'accessorials' | 'total';
type LineColumn = 'billedWeight' | 'billedClass' | 'description' | 'nmfcCode' | 'pieces';
type Column = BillColumn | LineColumn;

const BILL_COLUMNS: readonly BillColumn[] = ['invoiceNumber', 'proNumber', 'bolNumber', 'scac', 'billDate', 'linehaul', 'discount', 'fuel', 'accessorials', 'total'];
const LINE_COLUMNS: readonly LineColumn[] = ['billedWeight', 'billedClass', 'description', 'nmfcCode', 'pieces'];
export const BILL_CSV_COLUMNS: readonly Column[] = [...BILL_COLUMNS, ...LINE_COLUMNS];
const REQUIRED: readonly Column[] = ['billedWeight', 'billedClass', 'linehaul', 'total'];

/** Other names for the columns, by normalised name. */
const ALIASES: Record<string, Column> = {
  invoice: 'invoiceNumber',
  invoiceno: 'invoiceNumber',
  billnumber: 'invoiceNumber',
  freightbillnumber: 'invoiceNumber',
  pro: 'proNumber',
  prono: 'proNumber',
  bol: 'bolNumber',
  bolno: 'bolNumber',
  billoflading: 'bolNumber',
  carrierscac: 'scac',
  invoicedate: 'billDate',
  date: 'billDate',
  linehaulcharge: 'linehaul',
  freightcharge: 'linehaul',
  fuelsurcharge: 'fuel',
  totalcharges: 'total',
  amountdue: 'total',
  weight: 'billedWeight',
  class: 'billedClass',
  freightclass: 'billedClass',
  nmfc: 'nmfcCode',
  piececount: 'pieces',
};
const BY_NAME = new Map<string, Column>([...BILL_CSV_COLUMNS.map((column): [string, Column] => [normaliseName(column), column]), ...Object.entries(ALIASES)]);

export const BILL_CSV_SAMPLE_HEADER =
  'invoiceNumber,proNumber,bolNumber,scac,billDate,billedWeight,billedClass,description,nmfcCode,pieces,linehaul,discount,fuel,accessorials,total';

/** The delimiter the header line uses most: `,`, `;` or tab. */
function sniffDelimiter(text: string): string {
  const end = text.search(/\r|\n/);
  const header = (end === -1 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  return [',', ';', '\t'].map((delimiter) => ({ delimiter, count: header.split(delimiter).length - 1 })).sort((a, b) => b.count - a.count)[0]!.delimiter;
}

interface Row {
  line: number;
  cells: string[];
}

export function readCsvBills(text: string, file: string): BillsRead {
  const issues: BillIssue[] = [];
  const issue = (line: number, message: string, where?: string) => issues.push({ file, line, message, ...(where ? { where } : {}) });
  let records: string[][];
  try {
    records = parse(text, { delimiter: sniffDelimiter(text), bom: true, relax_column_count: true, trim: true, max_record_size: 64 * 1024 }) as string[][];
  } catch (error) {
    const { lines, message } = error as Error & { lines?: number };
    return { ok: false, issues: [{ file, line: lines ?? 1, message: `not a readable CSV file: ${message}` }] };
  }
  const rows: Row[] = [];
  let nextLine = 1;
  for (const cells of records) {
    rows.push({ line: nextLine, cells });
    nextLine += 1 + cells.reduce((count, cell) => count + (cell.match(/\n/g)?.length ?? 0), 0);
  }
  const data = rows.filter((row) => row.cells.some((cell) => cell !== ''));
  const header = data.shift();
  if (!header) return { ok: false, issues: [{ file, line: 1, message: `the file is empty: a bill CSV has a header row (${BILL_CSV_SAMPLE_HEADER}) and one row per billed line` }] };

  // The header: each cell a known column, once.
  const positions = new Map<Column, number>();
  const written = new Map<Column, string>();
  header.cells.forEach((cell, position) => {
    if (cell === '') return;
    const column = BY_NAME.get(normaliseName(cell));
    if (!column) {
      const meant = didYouMean(cell, [...BILL_CSV_COLUMNS]);
      issue(header.line, `unknown column "${cell}"${meant ? ` (did you mean ${meant}?)` : ''}; the columns are ${BILL_CSV_COLUMNS.join(', ')}`);
      return;
    }
    if (positions.has(column)) issue(header.line, `column "${cell}" is given twice (${written.get(column)} and ${cell})`);
    positions.set(column, position);
    written.set(column, cell);
  });
  const missing = REQUIRED.filter((column) => !positions.has(column));
  if (missing.length > 0) issue(header.line, `missing column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} (a bill CSV has ${BILL_CSV_SAMPLE_HEADER})`);
  if (!positions.has('proNumber') && !positions.has('bolNumber')) issue(header.line, "a bill CSV needs a proNumber or a bolNumber column to find each bill's shipment");
  if (issues.length > 0) return { ok: false, issues };

  const cell = (row: Row, column: Column): string => {
    const position = positions.get(column);
    return position === undefined ? '' : (row.cells[position] ?? '').trim();
  };
  const columnName = (column: Column) => `column ${written.get(column) ?? column}`;

  // Rows into bills: a row continues the bill above when every key it gives (invoice, PRO, BOL
  // number) is that bill's, or when it gives none (bill-level values on the first row only).
  const keysOf = (row: Row) => ({
    invoice: cell(row, 'invoiceNumber').toUpperCase(),
    pro: cell(row, 'proNumber')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, ''),
    bol: cell(row, 'bolNumber'),
  });
  const groups: Row[][] = [];
  let current: { invoice: string; pro: string; bol: string } | undefined;
  for (const row of data) {
    const keys = keysOf(row);
    const given = (['invoice', 'pro', 'bol'] as const).filter((key) => keys[key] !== '');
    if (given.length === 0 && !current) {
      issue(row.line, 'the row names no bill: give its proNumber or bolNumber (or invoiceNumber)', columnName(positions.has('proNumber') ? 'proNumber' : 'bolNumber'));
      continue;
    }
    if (current && given.every((key) => keys[key] === current![key])) {
      groups.at(-1)!.push(row);
      continue;
    }
    groups.push([row]);
    current = keys;
  }

  const bills: CarrierBill[] = [];
  for (const group of groups) {
    const first = group[0]!;
    // Bill-level values: on the first row, or the same on every row that repeats them.
    const billValue = (column: BillColumn): string => {
      const value = cell(first, column);
      for (const row of group.slice(1)) {
        const repeated = cell(row, column);
        if (repeated !== '' && repeated !== value) {
          issue(
            row.line,
            `${JSON.stringify(repeated)} differs from ${JSON.stringify(value)} on line ${first.line} of the same bill; give bill-level values once or repeat them unchanged`,
            columnName(column),
          );
        }
      }
      return value;
    };
    const money = (column: BillColumn, required: boolean): number => {
      const text = billValue(column);
      if (text === '') {
        if (required) issue(first.line, `${column} is required (an amount in dollars, e.g. 1412.94)`, columnName(column));
        return 0;
      }
      const cents = parseDollars(text);
      if (cents === null) issue(first.line, `${column} must be an amount in dollars, e.g. 1412.94 (got ${JSON.stringify(text)})`, columnName(column));
      const absurd = cents === null ? undefined : absurdAmountProblem(cents);
      if (absurd) issue(first.line, `${column}: ${absurd}`, columnName(column));
      return cents ?? 0;
    };

    const proNumber = billValue('proNumber') || null;
    const bolNumber = billValue('bolNumber') || null;
    if (proNumber && !/^[A-Za-z0-9][A-Za-z0-9 -]{0,23}$/.test(proNumber))
      issue(first.line, `${JSON.stringify(proNumber)} is not a PRO number (letters, digits and dashes)`, columnName('proNumber'));
    if (bolNumber && !/^\d{17}$/.test(bolNumber)) issue(first.line, `${JSON.stringify(bolNumber)} is not a BOL number (17 digits)`, columnName('bolNumber'));
    if (!proNumber && !bolNumber)
      issue(first.line, 'the bill names no shipment: give its proNumber or bolNumber', columnName(positions.has('proNumber') ? 'proNumber' : 'bolNumber'));
    const scac = billValue('scac').toUpperCase() || null;
    if (scac && !/^[A-Z]{2,4}$/.test(scac)) issue(first.line, `${JSON.stringify(scac)} is not a SCAC (2 to 4 letters)`, columnName('scac'));
    const dateText = billValue('billDate');
    const billDate = dateText ? parseBillDate(dateText) : null;
    if (dateText && !billDate) issue(first.line, `${JSON.stringify(dateText)} is not a date (YYYY-MM-DD)`, columnName('billDate'));

    const discount = money('discount', false);
    const accessorials: BillCharge[] = [];
    let linehaulExtra = 0;
    let fuelExtra = 0;
    let discountExtra = 0;
    const accessorialText = billValue('accessorials');
    for (const pair of accessorialText
      .split('|')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([A-Za-z0-9_ -]{1,40})\s*[=:]\s*(.+)$/.exec(pair);
      const cents = match ? parseDollars(match[2]!) : null;
      if (!match || cents === null) {
        issue(first.line, `${JSON.stringify(pair)} is not CODE=AMOUNT (e.g. LIFTGATE_DELIVERY=75.00; pairs separated by |)`, columnName('accessorials'));
        continue;
      }
      const absurd = absurdAmountProblem(cents);
      if (absurd) {
        issue(first.line, `${match[1]!.trim()}: ${absurd}`, columnName('accessorials'));
        continue;
      }
      const code = normaliseChargeCode(match[1]!);
      const kind = chargeKindOf(code);
      if (kind === 'fuel') fuelExtra += cents;
      else if (kind === 'discount') discountExtra += Math.abs(cents);
      else if (kind === 'linehaul') linehaulExtra += cents;
      else accessorials.push({ code, description: null, amountInCents: cents });
    }

    const lines: BillLine[] = group.map((row, index) => {
      const weightText = cell(row, 'billedWeight');
      const poundsWeight = parsePounds(weightText);
      if (poundsWeight === null)
        issue(
          row.line,
          `billedWeight must be a weight in pounds above 0 and at most ${MAX_BILLED_POUNDS.toLocaleString('en-US')} (got ${JSON.stringify(weightText)})`,
          columnName('billedWeight'),
        );
      const classText = cell(row, 'billedClass');
      const freightClass = classText === '' ? null : parseFreightClass(classText);
      if (classText !== '' && freightClass === null) issue(row.line, `${JSON.stringify(classText)} is not an NMFC freight class (50 to 500, e.g. 92.5)`, columnName('billedClass'));
      const piecesText = cell(row, 'pieces');
      const pieces = piecesText === '' ? null : /^\d{1,6}$/.test(piecesText) ? Number(piecesText) : NaN;
      if (Number.isNaN(pieces)) issue(row.line, `pieces must be a whole number (got ${JSON.stringify(piecesText)})`, columnName('pieces'));
      return {
        line: index + 1,
        poundsWeight: poundsWeight ?? 0,
        freightClass,
        description: cell(row, 'description') || null,
        nmfcCode: cell(row, 'nmfcCode') || null,
        pieces: Number.isNaN(pieces) ? null : pieces,
      };
    });

    bills.push({
      source: { file, line: first.line, format: 'csv' },
      invoiceNumber: billValue('invoiceNumber') || null,
      proNumber,
      bolNumber,
      scac,
      billDate,
      lines,
      linehaulInCents: money('linehaul', true) + linehaulExtra,
      discountInCents: Math.abs(discount) + discountExtra,
      fuelSurchargeInCents: money('fuel', false) + fuelExtra,
      accessorials,
      totalInCents: money('total', true),
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, bills };
}
