/**
 * Fuzz through the importer (`shipper import FILE --json`, in this process, each file on its own
 * temporary store, clock SHIPPER_NOW=FUZZ_NOW): random CSVs written with csv-stringify from valid
 * shipments, in any delimiter, line ending, header spelling, with or without BOM and quotes, their
 * cells full of quotes, newlines, formulas, Unicode and long text; and the same files made hostile
 * (long cells, ragged rows, quotes never closed, unknown columns, formulas in number columns).
 * Valid files check with --dry-run (nothing stored), book, read back equal to their rows, and book
 * nothing twice on a re-run; every file exits 0 or 1 (never 5), its --json output parses, and
 * nothing prints a stack trace or a raw control character. Runs, seeds: see arbitraries.ts.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { FUZZ_NOW, fuzzParameters, shipmentRequestArb, Tally, textArb, timeoutOf, type Json, type TextOptions } from './arbitraries.js';
import { expectShipmentAsRequested, leaksOf } from './oracle.js';

const tally = new Tally('importer');
afterAll(() => tally.flush());

// ---------------------------------------------------------------------------------------------
// Valid shipments as CSV rows

/**
 * Text a CSV cell carries as it is: the importer trims cells, reads `="..."` as the text inside,
 * takes one quote off `'=...` (shipper's own formula escape), refuses a NUL (binary) and an
 * identifier a spreadsheet shortened (1.2E+5).
 */
const csvTextArb = (options: TextOptions) =>
  textArb(options).filter(
    (text) =>
      text === text.trim() && !text.includes('\u0000') && !/^="/.test(text) && !/^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) && !/^[+-]?\d(?:\.\d+)?E\+\d+$/i.test(text),
  );

const PARTIES = ['shipper', 'consignee', 'billTo'] as const;
const ADDRESS_FIELDS = ['name', 'address1', 'address2', 'city', 'state', 'zipCode', 'countryCode', 'contactPerson', 'phoneNumber'] as const;
/** The request field each party's columns fill. */
const REQUEST_FIELD_OF_PARTY = { shipper: 'pickupAddress', consignee: 'deliveryAddress' } as const;
/** The column names of earlier versions (before the published names, issue 40), which files still use. */
const EARLIER_FIELD_NAMES: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>> = {
  address1: 'street1',
  address2: 'street2',
  zipCode: 'postalCode',
  contactPerson: 'contactName',
  phoneNumber: 'phone',
};
const SHIPMENT_COLUMNS = [
  'shipmentKey',
  'refNumber',
  'pickupDate',
  'accessorials',
  'specialInstructions',
  'carrierName',
  'scac',
  'proNumber',
  'freightTerms',
  'declaredValue',
  'codAmount',
  'codFeeTerms',
  'codCustomerCheck',
  'readyTime',
  'closeTime',
  'fob',
  'masterBol',
  'emergencyPhone',
] as const;
const COMPONENT_COLUMNS = [
  'palletCount',
  'poundsWeight',
  'length',
  'width',
  'height',
  'description',
  'nmfcCode',
  'packagingType',
  'pieceCount',
  'unNumber',
  'properShippingName',
  'hazardClass',
  'packingGroup',
] as const;
/** shipperZipCode -> shipperPostalCode, ...: the address columns as files written for earlier versions name them. */
const EARLIER_COLUMNS = new Map(
  PARTIES.flatMap((party) =>
    Object.entries(EARLIER_FIELD_NAMES).map(([field, earlier]): [string, string] => [
      `${party}${field.charAt(0).toUpperCase()}${field.slice(1)}`,
      `${party}${earlier.charAt(0).toUpperCase()}${earlier.slice(1)}`,
    ]),
  ),
);
const COLUMNS: readonly string[] = [
  ...SHIPMENT_COLUMNS,
  ...PARTIES.flatMap((party) => ADDRESS_FIELDS.map((field) => `${party}${field.charAt(0).toUpperCase()}${field.slice(1)}`)),
  ...COMPONENT_COLUMNS,
];

/** A column name as exports write it: as is, lower case, snake_case or spaced Title Case (all match). */
function spelled(column: string, style: number): string {
  const words = column.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
  if (style === 1) return column.toLowerCase();
  if (style === 2) return words.map((word) => word.toLowerCase()).join('_');
  if (style === 3) return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
  return column;
}

/** In a ; or tab file, 1.125 may be 1125 (a thousands point): such a number is refused, so valid files avoid it. */
function unambiguous(value: unknown, delimiter: string): unknown {
  if (typeof value !== 'number' || delimiter === ',' || !/^[+-]?\d{1,3}\.\d{3}$/.test(String(value))) return value;
  return Math.round(value * 100) / 100;
}

/** The shipment as the CSV can say it (no trailer or seal columns; numbers unambiguous in the delimiter). */
function csvShipment(shipment: Json, delimiter: string, index: number): Json {
  const { trailerNumber: _trailer, sealNumbers: _seals, ...rest } = shipment;
  const components = (rest.orderComponents as Json[]).map((component) => {
    const dims =
      (component.dimensions as Json | undefined) ?? Object.fromEntries(['length', 'width', 'height'].map((side, at) => [side, (component.palletDimensions as number[])[at]]));
    const { palletDimensions: _triple, ...kept } = component;
    return {
      ...kept,
      palletCount: component.palletCount,
      poundsWeight: unambiguous(component.poundsWeight, delimiter),
      dimensions: Object.fromEntries(Object.entries(dims).map(([side, value]) => [side, unambiguous(value, delimiter)])),
    };
  });
  // References are unique in a file (the importer refuses a repeated one), and group nothing here.
  const refNumber = typeof rest.refNumber === 'string' && rest.refNumber !== '' ? `R${index}:${rest.refNumber}`.slice(0, 64).trim() : undefined;
  return { ...rest, refNumber, orderComponents: components };
}

const cents = (value: unknown) => ((value as number) / 100).toFixed(2);

/** The rows of one shipment: shipment-level cells on its first row (or repeated on every row), one row per line. */
function rowsOf(shipment: Json, index: number, repeat: boolean): Array<Record<string, string>> {
  const carrier = shipment.carrier as Json | null | undefined;
  const terms = shipment.freightChargeTerms as Json | null | undefined;
  const declared = shipment.declaredValue as Json | null | undefined;
  const cod = shipment.cod as Json | null | undefined;
  const window = shipment.pickupWindow as Json | null | undefined;
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  const level: Record<string, string> = {
    refNumber: text(shipment.refNumber),
    pickupDate: text(shipment.requiredPickupDate),
    accessorials: ((shipment.accessorials as string[] | undefined) ?? []).join('|'),
    specialInstructions: text(shipment.specialInstructions),
    carrierName: text(carrier?.name),
    scac: text(carrier?.scac),
    proNumber: text(shipment.proNumber),
    freightTerms: text(terms?.terms),
    declaredValue: declared ? `${cents(declared.amountInCents)}${declared.per === 'POUND' ? '/lb' : ''}` : '',
    codAmount: cod ? cents(cod.amountInCents) : '',
    codFeeTerms: text(cod?.feeTerms),
    codCustomerCheck: cod?.customerCheckAcceptable === undefined ? '' : cod.customerCheckAcceptable ? 'yes' : 'no',
    readyTime: text(window?.readyTime),
    closeTime: text(window?.closeTime),
    fob: text(shipment.fob),
    masterBol: shipment.masterBol === undefined || shipment.masterBol === null ? '' : shipment.masterBol ? 'yes' : 'no',
    emergencyPhone: text(shipment.emergencyContactPhone),
  };
  for (const party of PARTIES) {
    const address = (party === 'billTo' ? terms?.billTo : shipment[REQUEST_FIELD_OF_PARTY[party]]) as Json | null | undefined;
    for (const field of ADDRESS_FIELDS) level[`${party}${field.charAt(0).toUpperCase()}${field.slice(1)}`] = text(address?.[field]);
  }
  return (shipment.orderComponents as Json[]).map((component, line) => {
    const dims = component.dimensions as Json;
    const hazmat = component.hazmat as Json | null | undefined;
    return {
      shipmentKey: `K${index}`,
      ...(line === 0 || repeat ? level : {}),
      palletCount: text(component.palletCount),
      poundsWeight: text(component.poundsWeight),
      length: text(dims.length),
      width: text(dims.width),
      height: text(dims.height),
      description: text(component.description),
      nmfcCode: text(component.nmfcCode),
      packagingType: text(component.packagingType),
      pieceCount: text(component.pieceCount),
      unNumber: text(hazmat?.unNumber),
      properShippingName: text(hazmat?.properShippingName),
      hazardClass: text(hazmat?.hazardClass),
      packingGroup: text(hazmat?.packingGroup),
    };
  });
}

interface CsvFile {
  /** The shipments the rows say, in file order (what must read back). */
  shipments: Json[];
  header: string[];
  rows: string[][];
  delimiter: string;
  options: { recordDelimiter: 'unix' | 'windows'; bom: boolean; quoted: boolean };
}

const csvFileArb: fc.Arbitrary<CsvFile> = fc
  .record({
    shipments: fc.array(shipmentRequestArb({ text: csvTextArb, maxLines: 3 }), { minLength: 1, maxLength: 4 }),
    delimiter: fc.constantFrom(',', ',', ';', '\t'),
    style: fc.nat({ max: 3 }),
    earlierNames: fc.boolean(),
    repeat: fc.boolean(),
    recordDelimiter: fc.constantFrom('unix' as const, 'windows' as const),
    bom: fc.boolean(),
    quoted: fc.boolean(),
  })
  .map(({ shipments, delimiter, style, earlierNames, repeat, recordDelimiter, bom, quoted }) => {
    // A PRO names one shipment of its carrier: two shipments of one file never share one (each case books into a fresh store).
    const distinctPros = shipments.map((shipment, index) =>
      typeof shipment.proNumber === 'string' && shipment.proNumber.trim() !== '' ? { ...shipment, proNumber: `P${index}X${shipment.proNumber.trim()}`.slice(0, 20) } : shipment,
    );
    const said = distinctPros.map((shipment, index) => csvShipment(shipment, delimiter, index));
    const records = said.flatMap((shipment, index) => rowsOf(shipment, index, repeat));
    return {
      shipments: said,
      header: COLUMNS.map((column) => spelled(earlierNames ? (EARLIER_COLUMNS.get(column) ?? column) : column, style)),
      rows: records.map((record) => COLUMNS.map((column) => record[column] ?? '')),
      delimiter,
      options: { recordDelimiter, bom, quoted },
    };
  });

function csvText(file: Pick<CsvFile, 'header' | 'rows' | 'delimiter' | 'options'>): string {
  return stringify([file.header, ...file.rows], {
    delimiter: file.delimiter,
    record_delimiter: file.options.recordDelimiter,
    bom: file.options.bom,
    quoted: file.options.quoted,
    // RFC 4180 quotes a carriage return; csv-stringify quotes only the record delimiter's characters.
    quoted_match: /\r/,
  });
}

// ---------------------------------------------------------------------------------------------
// Hostile files

type Damage =
  | { kind: 'long cell'; column: string; length: number }
  | { kind: 'ragged row'; extra: string }
  | { kind: 'short row' }
  | { kind: 'quote never closed' }
  | { kind: 'unknown column'; name: string }
  | { kind: 'formula in a number'; column: string; formula: string }
  | { kind: 'text in a number'; column: string; text: string }
  | { kind: 'binary'; byte: string };

const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({
    kind: fc.constant('long cell' as const),
    column: fc.constantFrom('description', 'nmfcCode', 'shipperName', 'specialInstructions', 'refNumber'),
    length: fc.constantFrom(1001, 5000, 100_000),
  }),
  fc.record({ kind: fc.constant('ragged row' as const), extra: fc.constantFrom('x', '0', '=1+1', 'é') }),
  fc.record({ kind: fc.constant('short row' as const) }),
  fc.record({ kind: fc.constant('quote never closed' as const) }),
  fc.record({ kind: fc.constant('unknown column' as const), name: fc.constantFrom('weigth', 'Class', 'Weight (kg)', 'Zip', 'zz', '') }),
  fc.record({
    kind: fc.constant('formula in a number' as const),
    column: fc.constantFrom('palletCount', 'poundsWeight', 'length', 'pieceCount'),
    formula: fc.constantFrom('=1+1', '=HYPERLINK("x")', '@SUM(A1)', '+1e400', '-5'),
  }),
  fc.record({
    kind: fc.constant('text in a number' as const),
    column: fc.constantFrom('palletCount', 'poundsWeight', 'height'),
    text: fc.constantFrom('NaN', '1e400', 'heavy', '1,2,3', '١٢', 'Infinity', '0x10'),
  }),
  fc.record({ kind: fc.constant('binary' as const), byte: fc.constantFrom('\u0000', '\uFFFD\u0000') }),
);

/**
 * The file's text with the damages done (to the row `pick` chooses), and whether they must make
 * the import refuse it: each alone must, except a short row (its missing cells may be optional);
 * a short row with another damage of the same row may undo it.
 */
function damaged(file: CsvFile, damages: Damage[], pick: number): { text: string; certain: boolean } {
  const header = [...file.header];
  const rows = file.rows.map((row) => [...row]);
  const row = rows[pick % rows.length]!;
  const at = (column: string) => COLUMNS.indexOf(column);
  let suffix = '';
  for (const damage of damages) {
    switch (damage.kind) {
      case 'long cell':
        row[at(damage.column)] = 'L'.repeat(damage.length);
        break;
      case 'ragged row':
        row.push(damage.extra);
        break;
      case 'short row':
        row.splice(Math.floor(row.length / 2));
        break;
      case 'quote never closed':
        suffix = `${file.header.map(() => '').join(file.delimiter)}"never closed${file.delimiter}x\n`;
        break;
      case 'unknown column':
        header.push(damage.name || 'zz');
        for (const each of rows) each.push('');
        break;
      case 'formula in a number':
        // -5 is a number (below the minimum); the others are text where a number goes.
        row[at(damage.column)] = damage.formula;
        break;
      case 'text in a number':
        row[at(damage.column)] = damage.text;
        break;
      case 'binary':
        row[at('description')] = `${row[at('description')]}${damage.byte}`;
        break;
    }
  }
  const cut = damages.some((damage) => damage.kind === 'short row');
  const certain = damages.some((damage) => damage.kind !== 'short row' && (!cut || ['quote never closed', 'unknown column'].includes(damage.kind)));
  return { text: csvText({ ...file, header, rows }) + suffix, certain };
}

// ---------------------------------------------------------------------------------------------

interface ImportDocument {
  dryRun: boolean;
  shipments: Array<{ line: number; status: string; id?: string; refNumber: string | null }>;
  summary: { rows: number; shipments: number; booked: number; alreadyBooked: number; rejectedShipments: number };
}

async function shipper(store: string, args: string[], cwd: string) {
  const result = await runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: FUZZ_NOW }, cwd });
  const what = `shipper ${args.join(' ')} -> ${result.code}\n${result.stderr.slice(0, 2000)}`;
  // Never a stack trace, a raw control character (printable() escapes them) or a store failure.
  expect(
    leaksOf(result.stderr).filter((leak) => !leak.startsWith('a file path')),
    what,
  ).toEqual([]);
  expect(result.stdout, what).not.toMatch(/\n\s+at /);
  expect(result.stderr, what).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
  expect([0, 1], what).toContain(result.code);
  return { ...result, what };
}

async function bookedShipments(store: string, cwd: string): Promise<Shipment[]> {
  const listed = await shipper(store, ['shipment', 'list', '--json', '--limit', '500'], cwd);
  expect(listed.code, listed.what).toBe(0);
  return (JSON.parse(listed.stdout) as Page<Shipment>).items;
}

describe('importing random CSV files', () => {
  it(
    'valid files: the dry run stores nothing, the import books every shipment as its rows say, a re-run books nothing twice',
    async () => {
      await fc.assert(
        fc.asyncProperty(csvFileArb, async (file) => {
          tally.add('valid file');
          tally.add('valid row', file.rows.length);
          const work = await tempDir('shipper-fuzz-import-');
          try {
            const csv = join(work.dir, 'orders.csv');
            const store = join(work.dir, 'store');
            await writeFile(csv, csvText(file));

            const dry = await shipper(store, ['import', csv, '--dry-run', '--json'], work.dir);
            expect(dry.code, dry.what).toBe(0);
            const dryDocument = JSON.parse(dry.stdout) as ImportDocument;
            expect(dryDocument.dryRun).toBe(true);
            expect(dryDocument.shipments.map((entry) => entry.status)).toEqual(file.shipments.map(() => 'valid'));
            expect(await readdir(store).catch(() => [])).toEqual([]);

            const booked = await shipper(store, ['import', csv, '--json'], work.dir);
            expect(booked.code, booked.what).toBe(0);
            const document = JSON.parse(booked.stdout) as ImportDocument;
            expect(document.summary).toMatchObject({ rows: file.rows.length, shipments: file.shipments.length, booked: file.shipments.length, alreadyBooked: 0 });
            const byId = new Map((await bookedShipments(store, work.dir)).map((shipment) => [shipment.id, shipment]));
            expect(byId.size).toBe(file.shipments.length);
            document.shipments.forEach((entry, index) => expectShipmentAsRequested(byId.get(entry.id!)!, file.shipments[index]!, { confirmAsked: true }));

            const again = await shipper(store, ['import', csv, '--json'], work.dir);
            expect(again.code, again.what).toBe(0);
            const second = JSON.parse(again.stdout) as ImportDocument;
            expect(second.summary).toMatchObject({ booked: 0, alreadyBooked: file.shipments.length });
            expect(second.shipments.map((entry) => entry.id)).toEqual(document.shipments.map((entry) => entry.id));
            expect((await bookedShipments(store, work.dir)).length).toBe(file.shipments.length);
          } finally {
            await work.cleanup();
          }
        }),
        fuzzParameters(8),
      );
    },
    timeoutOf(8_000),
  );

  it(
    'hostile files: exit 0 or 1, the --json output parses, a refused file books nothing, an accepted one nothing twice',
    async () => {
      await fc.assert(
        fc.asyncProperty(csvFileArb, fc.array(damageArb, { minLength: 1, maxLength: 2 }), fc.nat(), async (file, damages, pick) => {
          tally.add('hostile file');
          const work = await tempDir('shipper-fuzz-import-');
          try {
            const csv = join(work.dir, 'orders.csv');
            const store = join(work.dir, 'store');
            const { text, certain } = damaged(file, damages, pick);
            for (const damage of damages) tally.add(`damage: ${damage.kind}`);
            await writeFile(csv, text);

            for (const args of [['--dry-run', '--json'], ['--json']]) {
              const run = await shipper(store, ['import', csv, ...args], work.dir);
              const document = JSON.parse(run.stdout) as unknown;
              expect(document, run.what).toBeTypeOf('object');
              if (certain) expect(run.code, run.what).toBe(1);
              if (run.code === 1) expect(await readdir(join(store, 'shipments')).catch(() => []), run.what).toEqual([]);
            }
            const listed = await bookedShipments(store, work.dir);
            tally.add(listed.length > 0 ? 'hostile file booked' : 'hostile file refused');
            if (listed.length > 0) {
              const rerun = await shipper(store, ['import', csv, '--json'], work.dir);
              expect(rerun.code, rerun.what).toBe(0);
              expect((JSON.parse(rerun.stdout) as ImportDocument).summary).toMatchObject({ booked: 0, alreadyBooked: listed.length });
            }
          } finally {
            await work.cleanup();
          }
        }),
        fuzzParameters(10),
      );
    },
    timeoutOf(8_000),
  );
});
