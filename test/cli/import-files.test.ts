/**
 * `shipper import` of files as Excel and ERP exports write them (issue 14): Windows-1252, UTF-16
 * LE with a BOM and tabs, UTF-8 with a BOM and `;`; header aliases; "1,200"; ZIPs that lost their
 * leading zero; US dates. Through the CLI in process; every name is read back exactly from the
 * booked shipment (shipment get --json) and once from the printed BOL (pdfjs).
 */
import { DOCUMENTATION_PREFIX_WARNING } from '../../src/domain/bolNumber.js';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { EXPORT_HEADER, excelText, exportRows, NAMES, utf16leWithBom, utf8WithBom, windows1252 } from '../helpers/excel.js';
import { WEDNESDAY } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';
import { storedShipmentIds } from '../helpers/storedShipments.js';

let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
beforeEach(async () => {
  work = await tempDir('shipper-import-files-');
  store = join(work.dir, 'store');
});
afterEach(() => work.cleanup());

const shipper = (args: string[]): Promise<CliResult> => runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: WEDNESDAY }, cwd: work.dir });

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, content);
  return path;
}

interface ImportDocument {
  shipments: Array<{ line: number; status: string; id?: string }>;
  summary: {
    shipments: number;
    valid: number;
    booked: number;
    rejectedShipments: number;
    violations: Array<{ line: number; column: string; field: string; reason: string; value?: string }>;
  };
}

async function importJson(args: string[]): Promise<{ result: CliResult; document: ImportDocument }> {
  const result = await shipper(['import', ...args, '--json']);
  return { result, document: JSON.parse(result.stdout) as ImportDocument };
}

async function bookedShipment(id: string): Promise<Shipment> {
  const result = await shipper(['shipment', 'get', id, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Shipment;
}

async function storedShipmentCount(): Promise<number> {
  return (await storedShipmentIds(store)).length;
}

/** Every name of the export, exactly, in the booked shipment. */
function expectNamesIntact(shipment: Shipment): void {
  expect(shipment.pickupAddress.name).toBe(NAMES.shipper);
  expect(shipment.deliveryAddress.name).toBe(NAMES.consignee);
  expect(shipment.orderComponents[0]!.description).toBe(NAMES.description);
  expect(shipment.specialInstructions).toBe(NAMES.instructions);
}

describe('files as Excel writes them', () => {
  it('Windows-1252 "CSV (Comma delimited)" with export headers, "1,200", a ZIP without its zero and 11/27/2026: dry run, import, names intact in the shipment and on the BOL', async () => {
    const csv = await file('orders.csv', windows1252(excelText([EXPORT_HEADER, ...exportRows()], ',')));

    const dry = await shipper(['import', csv, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/Checked .*orders\.csv \(dry run, nothing booked\): 1 valid shipment of 1 \(2 rows\)/);
    // The export has no contact or phone columns: the dry run says the order would stay INITIALIZED, as the import then does.
    expect(dry.stderr.replace(/^warning: \[NOT_CONFIRMED\] line 2: would be created INITIALIZED, .*\n/m, '')).toBe(
      'warning: [ZIP_PADDED] line 2, column Ship To Zip: ZIP 2108 read as 02108 (a spreadsheet dropped its leading zero)\n',
    );
    expect(dry.stdout).toContain('0 would be confirmed, 1 would be left INITIALIZED');
    expect(await storedShipmentCount()).toBe(0);

    const { result, document } = await importJson([csv]);
    expect(result.code, result.stderr).toBe(0);
    expect(document.summary).toMatchObject({ shipments: 1, booked: 1 });
    const shipment = await bookedShipment(document.shipments[0]!.id!);
    expectNamesIntact(shipment);
    expect(shipment.refNumber).toBe('PO-1001');
    expect(shipment.deliveryAddress.zipCode).toBe('02108');
    expect(shipment.requiredPickupDate).toBe('2026-11-27');
    expect(shipment.orderComponents.map((component) => [component.poundsWeight, component.nmfcCode, component.pieceCount])).toEqual([
      [1200, '161030', 10],
      [350, null, 4],
    ]);

    const bol = await shipper(['bol', shipment.id, '-o', `${join(work.dir, 'bols')}/`]);
    expect(bol.code, bol.stderr).toBe(0);
    const [pdf] = (await readdir(join(work.dir, 'bols'))).filter((name) => name.endsWith('.pdf'));
    const text = (await readPdf(new Uint8Array(await readFile(join(work.dir, 'bols', pdf!))))).pages.map((page) => page.text).join('\n');
    for (const name of [NAMES.shipper, NAMES.consignee, NAMES.description, NAMES.instructions]) expect(text).toContain(name);
  });

  it('UTF-16 LE "Unicode Text" (BOM, tabs, CRLF): dry run and import with the names intact', async () => {
    const rows = exportRows({ weight: '1200' });
    const txt = await file('orders.txt', utf16leWithBom(excelText([EXPORT_HEADER, ...rows], '\t')));
    const dry = await shipper(['import', txt, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/1 valid shipment of 1 \(2 rows\)/);
    const { result, document } = await importJson([txt]);
    expect(result.code, result.stderr).toBe(0);
    expectNamesIntact(await bookedShipment(document.shipments[0]!.id!));
  });

  it('UTF-8 with a BOM and ; (a European "CSV UTF-8"): imports with the names intact; a decimal comma is refused with its line and nothing booked', async () => {
    const rows = exportRows({ weight: '1200', pickupDate: '2026-11-27' });
    const good = await file('eu.csv', utf8WithBom(excelText([EXPORT_HEADER, ...rows], ';')));
    const { result, document } = await importJson([good]);
    expect(result.code, result.stderr).toBe(0);
    expectNamesIntact(await bookedShipment(document.shipments[0]!.id!));

    const commas = exportRows({ weight: '1200', pickupDate: '2026-11-27', ref: 'PO-2002' });
    commas[1]![15] = '40,5';
    const bad = await shipper(['import', await file('eu-comma.csv', utf8WithBom(excelText([EXPORT_HEADER, ...commas], ';')))]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /line 3, column Length \(in\) \(orderComponents\[1\]\.dimensions\.length\): in a ;-separated file a comma in a number may be a decimal comma .* \(got "40,5"\)/,
    );
    expect(await storedShipmentCount()).toBe(1);
  });

  it('the reject file of a Windows-1252 file is UTF-8 with a BOM, its names intact', async () => {
    const rows = [...exportRows(), ...exportRows({ ref: 'PO-1002', weight: 'heavy' })];
    const csv = await file('mixed.csv', windows1252(excelText([EXPORT_HEADER, ...rows], ',')));
    const result = await shipper(['import', csv, '--skip-invalid', '--rejects', join(work.dir, 'fix-me.csv')]);
    expect(result.code).toBe(1);
    const rejected = await readFile(join(work.dir, 'fix-me.csv'));
    expect([...rejected.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rejected.toString('utf8')).toContain(`PO-1002,${NAMES.shipper},`);
    expect(rejected.toString('utf8')).toContain(NAMES.description);
  });
});

describe('cells as spreadsheets write them', () => {
  it('a pickup date in words counts from today at the origin, not in UTC; ="02108" is the text 02108', async () => {
    const rows = exportRows({ pickupDate: 'tomorrow', consigneeZip: '="02108"' });
    const csv = await file('words.csv', excelText([EXPORT_HEADER, ...rows], ','));
    // Wednesday 21:00 in Chicago is already Thursday in UTC: tomorrow at the origin is Thursday.
    const result = await runInProcess(['--store', store, 'import', csv, '--json'], { env: { SHIPPER_NOW: '2026-11-19T03:00:00Z' }, cwd: work.dir });
    expect(result.code, result.stderr).toBe(0);
    // Nothing but the one line about the BOL numbers' GS1 prefix (this store has none of its own),
    // and that the export's orders, without contacts, are left INITIALIZED: no word of the cells.
    expect(result.stderr.replace(/^warning: \[NOT_CONFIRMED\] .*\n/gm, '')).toBe(`warning: [DOCUMENTATION_PREFIX] ${DOCUMENTATION_PREFIX_WARNING}\n`);
    const shipment = await bookedShipment((JSON.parse(result.stdout) as ImportDocument).shipments[0]!.id!);
    expect(shipment.requiredPickupDate).toBe('2026-11-19');
    expect(shipment.deliveryAddress.zipCode).toBe('02108');
  });

  it('a number with its thousands separator in the wrong place is refused with line, column and value', async () => {
    const rows = exportRows({ weight: '1,20' });
    const result = await shipper(['import', await file('misplaced.csv', excelText([EXPORT_HEADER, ...rows], ','))]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'line 2, column Weight (lbs) (orderComponents[0].poundsWeight): the commas are not thousands separators (those come every three digits: 1,200); a decimal is written with a point (1.5) (got "1,20")',
    );
    expect(await storedShipmentCount()).toBe(0);
  });
});

describe('--encoding', () => {
  it('forces an encoding; a wrong one is refused with the line; an unknown name is a usage error', async () => {
    const csv = await file('orders.csv', windows1252(excelText([EXPORT_HEADER, ...exportRows()], ',')));
    const forced = await shipper(['import', csv, '--dry-run', '--encoding', 'windows-1252']);
    expect(forced.code, forced.stderr).toBe(0);
    const cp1252 = await shipper(['import', csv, '--dry-run', '--encoding', 'CP1252']);
    expect(cp1252.code, cp1252.stderr).toBe(0);
    const wrong = await shipper(['import', csv, '--dry-run', '--encoding', 'utf8']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/orders\.csv is not UTF-8 text \(invalid bytes on line 2\)/);
    const unknown = await shipper(['import', csv, '--encoding', 'ebcdic']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--encoding.*must be utf8, utf16le, utf16be or windows-1252/);
  });
});

describe('what is refused, with nothing booked', () => {
  it('a file that switches encoding half-way, a 2 MB header, an ambiguous header', async () => {
    const switching = Buffer.concat([Buffer.from(excelText([EXPORT_HEADER, ...exportRows()], ',')), windows1252(excelText(exportRows({ ref: 'PO-3' }), ','))]);
    const mixed = await shipper(['import', await file('switching.csv', switching)]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/switching\.csv mixes two encodings: line 2 is UTF-8 text, line 4 is not/);

    const huge = await shipper(['import', await file('huge.csv', `${'x,'.repeat(1_000_000)}y\n1,2\n`)]);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/huge\.csv line 1: the header row is longer than 64 KB/);

    const ambiguous = await shipper(['import', await file('zip.csv', excelText([EXPORT_HEADER.map((name) => (name === 'Ship To Zip' ? 'Zip' : name)), ...exportRows()], ','))]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/line 1: column "Zip": the shipper's or the consignee's\? name it Ship From Zip \(shipperZipCode\) or Ship To Zip \(consigneeZipCode\)/);
    expect(await storedShipmentCount()).toBe(0);
  });
});

describe('ZIP codes in a file', () => {
  it('3, 4, 5, 6, 9 and 10 digits: four padded with a warning, nine (ZIP+4) taken, the others refused with line and value', async () => {
    const zips = ['123', '2108', '02108', '021080', '021081234', '0210812345'];
    const rows = zips.flatMap((zip, index) => [exportRows({ consigneeZip: zip, ref: `Z-${index}` })[0]!]);
    const { result, document } = await importJson([await file('zips.csv', excelText([EXPORT_HEADER, ...rows], ',')), '--dry-run']);
    expect(result.code).toBe(1);
    expect(document.shipments.map((entry) => entry.line)).toEqual([3, 4, 6]);
    expect(document.summary.violations.map((violation) => [violation.line, violation.column, violation.value])).toEqual([
      [2, 'Ship To Zip', '123'],
      [5, 'Ship To Zip', '021080'],
      [7, 'Ship To Zip', '0210812345'],
    ]);
    expect(document.summary.violations[0]!.reason).toMatch(/a US ZIP code has 5 digits, this one 3/);
    expect(document.summary.violations[1]!.reason).toBe('must be a 5-digit US ZIP code (ZIP+4 accepted)');
    expect(result.stderr).toContain('warning: [ZIP_PADDED] line 3, column Ship To Zip: ZIP 2108 read as 02108');
  });

  it('lists the first 20 padded ZIPs and counts the rest', async () => {
    const rows = Array.from({ length: 25 }, (_, index) => exportRows({ ref: `P-${index}` })[0]!);
    const result = await shipper(['import', await file('many.csv', excelText([EXPORT_HEADER, ...rows], ',')), '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    const all = result.stderr.trimEnd().split('\n');
    // No contact columns: an order's NOT_CONFIRMED each, the first 20 listed and the rest counted.
    const notConfirmed = all.filter((line) => line.includes('NOT_CONFIRMED'));
    expect(notConfirmed).toHaveLength(21);
    expect(notConfirmed[20]).toBe(
      'warning: [MORE_WARNINGS] ... and 5 more NOT_CONFIRMED warnings like these (the summary counts every order left INITIALIZED; --json names what each lacks)',
    );
    const lines = all.filter((line) => !line.includes('NOT_CONFIRMED'));
    expect(lines).toHaveLength(21);
    expect(lines[19]).toBe('warning: [ZIP_PADDED] line 21, column Ship To Zip: ZIP 2108 read as 02108 (a spreadsheet dropped its leading zero)');
    expect(lines[20]).toBe('warning: [MORE_WARNINGS] ... and 5 more warnings like these');
  });

  it('the CLI takes ZIP+4 without the hyphen too (quote, location add, transit), and refuses 10 digits', async () => {
    const quote = await shipper(['quote', '--from', '606011234', '--to', '10001-0001', '-c', 'pallets=1,weight=500,dims=48x40x48', '--json']);
    expect(quote.code, quote.stderr).toBe(0);
    expect(JSON.parse(quote.stdout)).toMatchObject({ pickupAddress: { zipCode: '60601' }, deliveryAddress: { zipCode: '10001' } });
    const tooLong = await shipper(['quote', '--from', '6060112345', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/must be a 5-digit US ZIP code \(ZIP\+4 accepted\) \(pickupAddress\.zipCode\)/);
    const saved = await shipper(['location', 'add', 'dock', '--name', 'Dock', '--address1', '1 Main St', '--city', 'Chicago', '--state', 'IL', '--zip', '606011234']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('Chicago, IL 60601');
    const transit = await shipper(['transit', '--from', '606011234', '--to', '100011234', '--json']);
    expect(transit.code, transit.stderr).toBe(0);
    expect(JSON.parse(transit.stdout)).toMatchObject({ lanes: [{ origin: { zipCode: '60601' }, destination: { zipCode: '10001' } }] });
  });
});
