/** `shipper import` end to end: the CLI (in process) on temporary stores and files; the progress bar in a real terminal. */
import { DOCUMENTATION_PREFIX_WARNING } from '../../src/domain/bolNumber.js';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { ROOT, tempDir, type CliResult } from '../helpers/cli.js';
import { runInProcess, storeInProcess } from '../helpers/inProcess.js';
import { csvLine, HEADER, rowCells, shipmentsCsv } from '../helpers/csv.js';
import { WEDNESDAY, CHICAGO_DC_FLAGS } from '../helpers/fixtures.js';

let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
let shipper: (args: string[], env?: Record<string, string>) => Promise<CliResult>;
beforeEach(async () => {
  work = await tempDir('shipper-import-cli-');
  store = join(work.dir, 'store');
  const cli = storeInProcess(store);
  shipper = (args, env = {}) => cli(args, { env: { SHIPPER_NOW: WEDNESDAY, ...env }, cwd: work.dir });
});
afterEach(() => work.cleanup());

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(work.dir, name);
  await writeFile(path, content);
  return path;
}

async function shipments(): Promise<Shipment[]> {
  const result = await shipper(['shipment', 'list', '--json', '--limit', '500']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Page<Shipment>).items;
}

interface ImportDocument {
  file: string;
  dryRun: boolean;
  shipments: Array<{
    line: number;
    refNumber: string | null;
    status: string;
    id?: string;
    orderNumber?: string;
    quotedPriceInCents: number;
    orderStatus?: string;
    warnings?: Array<{ code: string; message: string }>;
  }>;
  summary: {
    rows: number;
    shipments: number;
    booked: number;
    alreadyBooked: number;
    rejectedShipments: number;
    rejectedRows: number;
    totalPriceInCents: number;
    rejectsFile: string | null;
  };
}

describe('shipper import', () => {
  it('imports the shipped sample: multi-row shipments, per-line details, accessorials, shipmentKey grouping', async () => {
    const sample = join(ROOT, 'templates', 'import', 'shipments-sample.csv');
    const result = await shipper(['import', sample]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Imported .*shipments-sample\.csv: 3 shipments booked \(5 rows read\), total \$[\d,]+\.\d\d/);
    const booked = await shipments();
    const byRef = new Map(booked.map((shipment) => [shipment.refNumber, shipment]));
    expect(byRef.get('PO-4711')!.orderComponents).toEqual([
      expect.objectContaining({ palletCount: 2, description: 'Machine parts, boxed', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10 }),
      expect.objectContaining({ palletCount: 1, description: 'Spare belts', packagingType: 'boxes', pieceCount: 24 }),
    ]);
    expect(byRef.get('PO-4711')).toMatchObject({ accessorials: ['LIFTGATE_DELIVERY'], specialInstructions: 'Call 30 min before delivery; dock 4' });
    expect(byRef.get('PO-4712')!.orderComponents[0]!.pieceCount).toBe(0);
    const keyed = byRef.get(null)!;
    expect(keyed.accessorials).toEqual(['LIFTGATE_PICKUP', 'APPOINTMENT']);
    expect(keyed.orderComponents.map((component) => component.description)).toEqual(['Plastic pellets, 25 kg bags', 'Sample kit "A"']);
  });

  it('prints the ids and order numbers with --json, books nothing twice on a re-import, and says so', async () => {
    const csv = await file('orders.csv', shipmentsCsv(4, 2, 'PO', { contacts: true }));
    const first = await shipper(['import', csv, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const document = JSON.parse(first.stdout) as ImportDocument;
    expect(document.summary).toMatchObject({ rows: 8, shipments: 4, booked: 4, alreadyBooked: 0, rejectedShipments: 0 });
    expect(document.shipments.map((entry) => [entry.refNumber, entry.orderNumber, entry.status])).toEqual([
      ['PO-0001', 'SO-000001', 'booked'],
      ['PO-0002', 'SO-000002', 'booked'],
      ['PO-0003', 'SO-000003', 'booked'],
      ['PO-0004', 'SO-000004', 'booked'],
    ]);
    expect(document.shipments.every((entry) => /^sh_[0-9A-Z]{26}$/.test(entry.id!))).toBe(true);
    // A file with the contacts and phones confirm needs: every order CONFIRMED, no NOT_CONFIRMED.
    expect(document.shipments.map((entry) => entry.orderStatus)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    expect(document.summary).toMatchObject({ confirmed: 4, initialized: 0 });
    // One line for the whole import: its BOL numbers are under GS1's documentation prefix (no prefix set).
    expect(first.stderr).toBe(`warning: [DOCUMENTATION_PREFIX] ${DOCUMENTATION_PREFIX_WARNING}\n`);

    const again = await shipper(['import', csv]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/0 shipments booked/);
    expect(again.stdout).toMatch(/4 shipments already booked by an earlier import/);
    const booked = await shipments();
    expect(booked).toHaveLength(4);
    expect(booked.map((shipment) => shipment.id).sort()).toEqual(document.shipments.map((entry) => entry.id).sort());
  });

  it('a dry run says which orders the import would leave INITIALIZED, as the import then does; with --no-confirm, all', async () => {
    const lines = shipmentsCsv(2, 1, 'PO', { contacts: true }).trimEnd().split('\n');
    lines[2] = lines[2]!.replace(/,Lee Chen,212-555-0188$/, ',,');
    const csv = await file('partly.csv', `${lines.join('\n')}\n`);
    const dry = await shipper(['import', csv, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const predicted = JSON.parse(dry.stdout) as ImportDocument & { summary: { confirmed: number; initialized: number } };
    expect(predicted.summary).toMatchObject({ valid: 2, confirmed: 1, initialized: 1, warnings: { NOT_CONFIRMED: 1 } });
    expect(predicted.shipments.map((entry) => entry.warnings?.map((warning) => warning.code) ?? [])).toEqual([[], ['NOT_CONFIRMED']]);
    expect(dry.stderr).toContain(
      'warning: [NOT_CONFIRMED] line 3: would be created INITIALIZED, not confirmed: it lacks deliveryAddress.contactPerson, deliveryAddress.phoneNumber',
    );
    expect(await shipments()).toEqual([]);
    const people = await shipper(['import', csv, '--dry-run']);
    expect(people.stdout).toContain('1 would be confirmed, 1 would be left INITIALIZED');
    const unconfirmed = JSON.parse((await shipper(['import', csv, '--dry-run', '--no-confirm', '--json'])).stdout) as { summary: Record<string, unknown> };
    expect(unconfirmed.summary).toMatchObject({ confirmed: 0, initialized: 2 });
    expect(unconfirmed.summary.warnings).not.toHaveProperty('NOT_CONFIRMED');

    // The import does what the dry run said.
    const result = await shipper(['import', csv, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { summary: Record<string, unknown> }).summary).toMatchObject({ booked: 2, confirmed: 1, initialized: 1 });
  });

  it('lists 20 NOT_CONFIRMED warnings on the terminal and counts the rest: 20 all listed, 21 one counted; --json keeps each', async () => {
    const notConfirmedLines = (stderr: string) => stderr.split('\n').filter((line) => line.includes('NOT_CONFIRMED'));
    const twenty = await shipper(['import', await file('twenty.csv', shipmentsCsv(20, 1, 'T')), '--dry-run']);
    expect(twenty.code, twenty.stderr).toBe(0);
    expect(notConfirmedLines(twenty.stderr)).toHaveLength(20);
    expect(twenty.stderr).not.toContain('MORE_WARNINGS');
    const more = await shipper(['import', await file('more.csv', shipmentsCsv(21, 1, 'M')), '--dry-run', '--json']);
    expect(more.code, more.stderr).toBe(0);
    const lines = notConfirmedLines(more.stderr);
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe(
      'warning: [MORE_WARNINGS] ... and 1 more NOT_CONFIRMED warnings like these (the summary counts every order left INITIALIZED; --json names what each lacks)',
    );
    const document = JSON.parse(more.stdout) as ImportDocument & { summary: { initialized: number } };
    expect(document.summary.initialized).toBe(21);
    expect(document.shipments.filter((entry) => entry.warnings?.some((warning) => warning.code === 'NOT_CONFIRMED'))).toHaveLength(21);
  });

  it('confirms each order it can: rows without contacts or phones are created INITIALIZED with a warning on their line, counted, not refused', async () => {
    const lines = shipmentsCsv(2, 1, 'PO', { contacts: true }).trimEnd().split('\n');
    // The second order has no consignee contact nor phone: what an older file without those columns lacks.
    lines[2] = lines[2]!.replace(/,Lee Chen,212-555-0188$/, ',,');
    const csv = await file('partly.csv', `${lines.join('\n')}\n`);
    const result = await shipper(['import', csv, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as ImportDocument;
    expect(document.shipments.map((entry) => [entry.refNumber, entry.orderStatus])).toEqual([
      ['PO-0001', 'CONFIRMED'],
      ['PO-0002', 'INITIALIZED'],
    ]);
    expect(document.summary).toMatchObject({ booked: 2, confirmed: 1, initialized: 1, warnings: { NOT_CONFIRMED: 1 } });
    const second = document.shipments[1]!;
    expect(second.warnings?.map((warning) => warning.code)).toEqual(['NOT_CONFIRMED']);
    expect(result.stderr).toContain(
      `warning: [NOT_CONFIRMED] line 3: ${second.orderNumber} was created INITIALIZED, not confirmed: it lacks deliveryAddress.contactPerson, deliveryAddress.phoneNumber; add them`,
    );
    // As stored.
    const stored = new Map((await shipments()).map((shipment) => [shipment.refNumber, shipment.orderStatus]));
    expect(Object.fromEntries(stored)).toEqual({ 'PO-0001': 'CONFIRMED', 'PO-0002': 'INITIALIZED' });

    // The summary for people says how many and what to do.
    const people = await shipper(['import', await file('older.csv', shipmentsCsv(3, 1, 'OLD'))]);
    expect(people.code, people.stderr).toBe(0);
    expect(people.stdout).toContain('0 confirmed, 3 left INITIALIZED: confirm them with `shipper shipment confirm` once they have a contact and phone');
    expect(people.stderr.match(/warning: \[NOT_CONFIRMED\] line \d+: SO-\d+ was created INITIALIZED/g)).toHaveLength(3);
  });

  it('--no-confirm creates every order INITIALIZED, without a warning', async () => {
    const result = await shipper(['import', await file('unconfirmed.csv', shipmentsCsv(2, 1, 'NC', { contacts: true })), '--no-confirm', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as ImportDocument;
    expect(document.shipments.map((entry) => entry.orderStatus)).toEqual(['INITIALIZED', 'INITIALIZED']);
    expect(document.summary).toMatchObject({ confirmed: 0, initialized: 2 });
    expect(result.stderr).not.toContain('NOT_CONFIRMED');
  });

  it('checks and prices with --dry-run and books nothing', async () => {
    const csv = await file('orders.csv', shipmentsCsv(3, 1));
    const result = await shipper(['import', csv, '--dry-run', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as ImportDocument;
    expect(document.dryRun).toBe(true);
    expect(document.shipments.map((entry) => entry.status)).toEqual(['valid', 'valid', 'valid']);
    expect(document.summary.totalPriceInCents).toBe(document.shipments.reduce((sum, entry) => sum + entry.quotedPriceInCents, 0));
    expect(await readdir(store).catch(() => [])).toEqual([]);
  });

  it('with --skip-invalid books the valid shipments, writes a reject CSV with a reason column, and exits 1; the fixed reject file then imports', async () => {
    const lines = shipmentsCsv(3, 2).trimEnd().split('\n');
    lines[3] = csvLine(rowCells('PO-0002', true, { weight: 'abc' }, 1));
    const csv = await file('orders.csv', `${lines.join('\n')}\n`);
    const result = await shipper(['import', csv, '--skip-invalid']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/2 shipments booked \(6 rows read\)/);
    expect(result.stdout).toMatch(/1 shipment \(2 rows\) rejected -> .*orders\.rejected\.csv/);
    expect(result.stderr).toMatch(/line 4, column poundsWeight \(orderComponents\[0\]\.poundsWeight\): poundsWeight must be a number \(got "abc"\)/);
    expect(result.stderr).toMatch(/fix them in .*orders\.rejected\.csv and import that file/);
    expect((await shipments()).map((shipment) => shipment.refNumber).sort()).toEqual(['PO-0001', 'PO-0003']);

    const rejectsFile = join(work.dir, 'orders.rejected.csv');
    const rejected = await readFile(rejectsFile, 'utf8');
    expect(rejected.split('\r\n')[0]).toBe(`${HEADER.join(',')},reason`);
    expect(rejected).toMatch(/,abc,.*,poundsWeight: poundsWeight must be a number\r\n/);
    expect(rejected).toMatch(/not imported: line 4 of the same shipment is invalid/);

    await writeFile(rejectsFile, rejected.replace(',abc,', ',640,'));
    const fixed = await shipper(['import', rejectsFile]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/1 shipment booked \(2 rows read\)/);
    expect((await shipments()).map((shipment) => shipment.refNumber).sort()).toEqual(['PO-0001', 'PO-0002', 'PO-0003']);
  });

  it('reads a ;-delimited file with a BOM, CRLF, quoted newlines, header names in any case, and saved locations', async () => {
    const added = await shipper(['location', 'add', 'chicago-dc', ...CHICAGO_DC_FLAGS]);
    expect(added.code, added.stderr).toBe(0);
    const content =
      '\uFEFFREFNUMBER;Shipper;consignee name;consigneeStreet1;consigneeCity;consigneeState;consigneePostalCode;Pallet Count;poundsweight;length;width;height;Description;pieceCount\r\n' +
      'EU-1;chicago-dc;Store 12;1 Penn Plaza;New York;NY;10001;2;1200;48;40;48;"Two lines:\r\nparts; boxed";3\r\n' +
      'EU-1;;;;;;;1;300;48;40;40;Belts;0\r\n';
    const result = await shipper(['import', await file('european.csv', content), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [shipment] = await shipments();
    expect(shipment!.pickupAddress.name).toBe('Acme Chicago DC');
    expect(shipment!.orderComponents.map((component) => component.description)).toEqual(['Two lines:\r\nparts; boxed', 'Belts']);
  });

  it('names the CSV line and column of a problem found only by rating (unknown accessorial), importing nothing', async () => {
    const content = `${HEADER.join(',')},accessorials\n${csvLine([...rowCells('A-1', true), 'LIFTGATE_DELIVERY'])}\n${csvLine([...rowCells('A-2', true), 'TELEPORT'])}\n`;
    const result = await shipper(['import', await file('acc.csv', content), '--json']);
    expect(result.code).toBe(1);
    const problem = JSON.parse(result.stdout) as { status: number; detail: string; violations: Array<{ line: number; column: string; field: string; message: string }> };
    expect(problem.status).toBe(400);
    expect(problem.detail).toMatch(/1 of 2 shipments are invalid; nothing was imported/);
    expect(problem.violations).toEqual([expect.objectContaining({ line: 3, column: 'accessorials', field: 'accessorials[0]' })]);
    expect(await readdir(join(store, 'shipments')).catch(() => [])).toEqual([]);
  });

  it('shows no progress bar without a terminal', async () => {
    const result = await shipper(['import', await file('orders.csv', shipmentsCsv(2, 1))]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('\r');
    expect(result.stderr).not.toContain('█');
  });
});

describe('the progress bar', () => {
  // stderr a terminal, in process; the bar drawn in a real pseudo-terminal by the built CLI: progress.test.ts.
  const onTerminal = (extra: string[], env: Record<string, string | undefined>, csv: string) =>
    runInProcess(['--store', store, 'import', csv, ...extra], { env: { SHIPPER_NOW: WEDNESDAY, CI: undefined, ...env }, cwd: work.dir, stderrColumns: 100 });

  it('shows on a terminal, and not in CI or with --json', async () => {
    const csv = await file('orders.csv', shipmentsCsv(3, 1));
    const shown = await onTerminal(['--dry-run'], {}, csv);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(/Checking [█░]+ +\d+%  \d+ shipments/);
    expect(shown.stdout).toMatch(/Checked .*3 valid shipments/);
    const inCi = await onTerminal(['--dry-run'], { CI: 'true' }, csv);
    expect(inCi.code).toBe(0);
    expect(inCi.stdout + inCi.stderr).not.toContain('█');
    const json = await onTerminal(['--dry-run', '--json'], {}, csv);
    expect(json.code).toBe(0);
    expect(json.stdout + json.stderr).not.toContain('█');
  });
});

describe('--rejects without --skip-invalid', () => {
  it('writes the rows that stopped an all-or-nothing import, and books nothing', async () => {
    const lines = shipmentsCsv(2, 1).trimEnd().split('\n');
    lines[2] = csvLine(rowCells('PO-0002', true, { pallets: 'two' }, 1));
    const csv = await file('orders.csv', `${lines.join('\n')}\n`);
    const rejectsFile = join(work.dir, 'why.csv');
    const result = await shipper(['import', csv, '--rejects', rejectsFile]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the rejected rows, with a reason column: ${rejectsFile}`);
    const rejected = (await readFile(rejectsFile, 'utf8')).trimEnd().split('\r\n');
    expect(rejected).toHaveLength(2);
    expect(rejected[1]).toMatch(/^PO-0002,.*,palletCount: palletCount must be a number$/);
    expect(await readdir(join(store, 'shipments')).catch(() => [])).toEqual([]);
  });
});
