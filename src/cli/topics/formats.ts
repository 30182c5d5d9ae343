/** `shipper help formats`: the files shipper reads and writes, with the command and the standard of each. */
import { BILL_FORMATS } from '../../audit/bill.js';
import { TENDER_FORMATS } from '../../edi/tender.js';
import { termList } from './wrap.js';

export const FILE_FORMATS: ReadonlyArray<{ term: string; text: string }> = [
  { term: 'CSV shipments (read)', text: 'shipper import, shipper check: UTF-8/UTF-16/Windows-1252, BOM, CRLF, `;` delimiter, quoted newlines (shipper help csv-columns)' },
  { term: 'reject CSV (write)', text: 'import --skip-invalid: the rejected rows as they were, with a reason column; imports as it is once fixed' },
  { term: 'tariff JSON (read)', text: '--tariff FILE: rates per hundredweight by class, distance band and weight break (templates/tariff/default.json)' },
  { term: 'BOL PDF (write)', text: 'shipper bol: VICS layout, GS1-128 barcode of the BOL number (AI 402), supplement pages; templates/bol/<name>.json' },
  { term: 'label PDF, ZPL (write)', text: 'shipper labels: 4x6 in GS1 logistic labels with SSCC-18 barcodes, as PDF or ZPL for 203 dpi printers' },
  { term: 'tender files (write)', text: `shipper tender --format ${TENDER_FORMATS.join('|')}: NMFTA eBOL 2.1 JSON, X12 4010 204 (motor carrier load tender), 211 (BOL)` },
  { term: 'invoice PDF, JSON (write)', text: 'shipper invoice: what the shipment costs, from what priced its quote' },
  {
    term: 'carrier bills (read)',
    text: `shipper audit FILE... (${BILL_FORMATS.join(' or ')}, told apart by their content): a bill CSV (templates/audit/bills-sample.csv) or X12 4010 210 freight invoices`,
  },
  { term: 'dispute pack PDF (write)', text: 'shipper audit --dispute-dir: one PDF per disputed bill, with the quote, the bill and each finding' },
  { term: 'spend CSV (write)', text: 'shipper report spend --csv: money in dollars to 2 decimals' },
  { term: 'list CSV (write)', text: 'shipper quote list --csv, shipment list --csv: every match, formula-safe for spreadsheets' },
  { term: 'OpenAPI 3.1 (write)', text: 'shipper openapi, GET /api-docs/shipper-v1: generated from the same zod schemas the engine validates with' },
];

export function formatsHelp(width = 100): string {
  const out = ['Files shipper reads and writes:', '', ...termList(FILE_FORMATS, width), '', 'Example:', '  $ shipper tender SO-000123 --format x12-204 -o tender.edi'];
  return `${out.join('\n')}\n`;
}
