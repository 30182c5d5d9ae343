/** `shipper import FILE.csv [--dry-run] [--skip-invalid] [--rejects PATH] [--encoding NAME]`: batch shipments from CSV. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ADDRESS_FIELD_ALIASES, ADDRESS_FIELDS, COLUMN_ALIASES, PARTY_ALIASES, REFUSED_HEADERS } from '../../import/columns.js';
import type { CsvEncoding } from '../../import/csvFile.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import type { ImportCommandOptions } from './importRun.js';
import { offering } from '../optionParsers.js';

/** The names --encoding takes, and the spellings people write for them (Latin-1 is read as Windows-1252, its superset in practice). */
const ENCODING_SPELLINGS: Record<string, CsvEncoding> = {
  utf8: 'utf8',
  'utf-8': 'utf8',
  utf16le: 'utf16le',
  'utf-16le': 'utf16le',
  utf16be: 'utf16be',
  'utf-16be': 'utf16be',
  'windows-1252': 'windows-1252',
  windows1252: 'windows-1252',
  cp1252: 'windows-1252',
  latin1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
};

export function parseEncoding(value: string): CsvEncoding {
  const encoding = ENCODING_SPELLINGS[value.trim().toLowerCase()];
  if (!encoding) throw new InvalidArgumentError('must be utf8, utf16le, utf16be or windows-1252');
  return encoding;
}

export async function runImport(ctx: CommandContext, file: string, options: ImportCommandOptions): Promise<void> {
  // csv-parse and the importer load only when an import runs: start-up of other commands stays fast.
  const { runImport: run } = await import('./importRun.js');
  return run(ctx, file, options);
}

/** The alias table of columns.ts as help text, wrapped to `width`. */
export function columnNamesHelp(width = 100): string {
  const wrap = (head: string, text: string) => {
    const lines: string[] = [];
    let line = head;
    for (const word of text.split(' ')) {
      if (line.length + 1 + word.length > width && line.trim() !== '') {
        lines.push(line);
        line = ' '.repeat(head.length) + word;
      } else line = line.length === 0 || line.endsWith(' ') ? line + word : `${line} ${word}`;
    }
    lines.push(line);
    return lines.join('\n');
  };
  const pad = 22;
  const rows = COLUMN_ALIASES.map(({ column, aliases }) => wrap(`  ${column.padEnd(pad)}`, aliases.join(', ')));
  const partyRows = (['shipper', 'consignee', 'billTo'] as const).map((party) => wrap(`  ${`${party}...`.padEnd(pad)}`, `${PARTY_ALIASES[party].join(', ')}, then a field`));
  const fieldRows = ADDRESS_FIELDS.map((field) => wrap(`    ${field.padEnd(pad - 2)}`, ADDRESS_FIELD_ALIASES[field].join(', ')));
  const refused = REFUSED_HEADERS.slice(0, 8).map(({ names, message }) => wrap('  ', `${names.join(', ')}: ${message}`));
  return [
    'Column names (case, spaces and punctuation ignored) and the names exports use for them:',
    ...rows,
    '  Addresses: a party, then a field (Ship To Zip = consigneeZipCode, Shipper Name = shipperName;',
    '  a bill-to makes the freight terms third party unless freightTerms says otherwise):',
    ...partyRows,
    ...fieldRows,
    '  Units: Weight (lbs), Length (in) are read; other units, e.g. Weight (kg), are refused.',
    'Refused rather than guessed, each with what to write instead:',
    ...refused,
    "  Zip, City, Name... without a party: the shipper's or the consignee's?",
  ].join('\n');
}

export function registerImportCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('import <file>')
    .description('book shipments in batch from a CSV file: one row per order component, rows grouped by refNumber or shipmentKey')
    .option('--dry-run', 'check and price every shipment, book nothing')
    .option('--skip-invalid', 'book the valid shipments; write the rejected rows to a reject file (default: any invalid row imports nothing)')
    .option(
      '--no-confirm',
      'create every order INITIALIZED (default: each is confirmed; one without what confirm needs, a contact and phone, is created INITIALIZED with a NOT_CONFIRMED warning)',
    )
    .option('--allow-duplicate-ref', 'book rows whose refNumber a booked shipment already has (default: refused, naming its order number)')
    .option('--rejects <path>', 'write rejected rows, with a reason column, here (default with --skip-invalid: FILE.rejected.csv beside FILE)')
    .addOption(
      offering(new Option('--encoding <name>', 'read the file in this encoding: utf8, utf16le, utf16be or windows-1252 (default: detected)').argParser(parseEncoding), [
        'utf8',
        'utf16le',
        'utf16be',
        'windows-1252',
      ]),
    )
    .option('--print', "print each booked shipment's BOL and labels, in file order, after the booking (a re-run of the same file prints only what did not print)")
    .option('--printer <name>', 'with --print: the printer of both (default: print.bol and print.labels of the config, else the system default queue)')
    .option('--bol-printer <name>', 'with --print: the printer of the BOLs')
    .option('--label-printer <name>', 'with --print: the printer of the labels (a tcp:// ZPL printer, or a queue)')
    .option('--copies <n>', "with --print: copies of each BOL, 1-99 (labels: the printer profile's, else 1)", (value: string) => {
      if (!/^\d{1,2}$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number from 1 to 99');
      return Number(value);
    })
    .examples(
      'shipper import orders.csv --dry-run',
      'shipper import orders.csv',
      'shipper import orders.csv --skip-invalid --json > booked.json',
      'shipper import export.txt --encoding windows-1252',
      'shipper import batch.csv --print --bol-printer dock-laser --label-printer zebra-2 --copies 3',
    )
    .addHelpText(
      'after',
      () => `
Files: UTF-8 (with or without BOM), Windows-1252 (Excel's "CSV (Comma delimited)") and UTF-16 with a BOM
(Excel's "Unicode Text") are recognised; the delimiter is , ; or tab, whichever the header uses.
Numbers such as "1,200", ZIPs that lost their leading zero (2134, padded with a warning), ZIP+4 with or
without the hyphen, and pickup dates such as 11/27/2026, 11/27/26 or friday are read as spreadsheets write them.
Consecutive rows with the same shipmentKey (else refNumber) are one shipment.
A sample: templates/import/shipments-sample.csv. Importing the same file again books nothing twice.

${columnNamesHelp()}`,
    )
    .action(async (file: string, options: ImportCommandOptions, command: Command) => runImport(context(command), file, options));
}
