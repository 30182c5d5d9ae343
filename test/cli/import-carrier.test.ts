/**
 * A CSV with the carrier's columns, imported as ops people do it (`shipper import FILE`), in both
 * modes: every field reaches the shipment and the printed BOL (read back with pdfjs), PROs come
 * from the carrier's block when the file has none, the pickup cut-off warns exactly at it, and
 * what the API refuses is named by line and column with nothing booked.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proCheckDigit } from '../../src/domain/proNumber.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { CONTRACT_NOW, CONTRACT_SETTINGS } from '../contract/suite.js';

const HEADER = [
  'PO Number',
  'Ship From Name',
  'Ship From Address',
  'Ship From City',
  'Ship From State',
  'Ship From Zip',
  'Ship To Name',
  'Ship To Address',
  'Ship To City',
  'Ship To State',
  'Ship To Zip',
  'Pallets',
  'Weight (lbs)',
  'Length',
  'Width',
  'Height',
  'Description',
  'Pieces',
  'SCAC',
  'PRO #',
  'Freight Terms',
  'Bill To Name',
  'Bill To Address',
  'Bill To City',
  'Bill To State',
  'Bill To Zip',
  'Declared Value',
  'COD Amount',
  'COD Fee',
  'Ready Time',
  'Dock Close',
  'FOB',
  'Master BOL',
  'Emergency Phone',
  'UN Number',
  'Proper Shipping Name',
  'Hazard Class',
  'Packing Group',
];
const FROM = ['Acme Chicago DC', '2100 S Halsted St', 'Chicago', 'IL', '60608'];
const TO = ['Store 12', '1 Penn Plaza', 'New York', 'NY', '10001'];
const BILL_TO = ['Acme Payables', '200 W Monroe St', 'Chicago', 'IL', '60606'];
const quoteCell = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
const line = (cells: string[]) => cells.map(quoteCell).join(',');
const noBillTo = ['', '', '', '', ''];

/** Two shipments: a hazardous one collect with no PRO (assigned), and a third-party one with COD. */
function carrierCsv(ref: string, overrides: { ready?: string; close?: string; declared?: string; pro?: string } = {}): string {
  return [
    line(HEADER),
    line([
      `${ref}-1`,
      ...FROM,
      ...TO,
      '2',
      '1,600',
      '48',
      '40',
      '48',
      'Gasoline in cans',
      '40',
      'ODFL',
      '',
      'Collect',
      ...noBillTo,
      '',
      '',
      '',
      overrides.ready ?? '3:00 PM',
      overrides.close ?? '17:00',
      'Origin',
      '',
      '800-424-9300',
      'UN1203',
      'Gasoline',
      '3',
      'II',
    ]),
    line([
      `${ref}-1`,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '1',
      '400',
      '48',
      '40',
      '40',
      'Funnels',
      '10',
      '',
      '',
      '',
      ...noBillTo,
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
    ]),
    line([
      `${ref}-2`,
      ...FROM,
      ...TO,
      '3',
      '2,250',
      '48',
      '40',
      '60',
      'Machine parts',
      '',
      'ODFL',
      overrides.pro ?? '1234-5678-2',
      '',
      ...BILL_TO,
      overrides.declared ?? '$5,000.00',
      '$1,250.50',
      'PPD',
      '14:59',
      '5:00 PM',
      'destination',
      'yes',
      '',
      '',
      '',
      '',
      '',
    ]),
  ].join('\r\n');
}

let work: Awaited<ReturnType<typeof tempDir>>;
let server: ServeProcess;
const env = () => ({ SHIPPER_NOW: CONTRACT_NOW, SHIPPER_CONFIG_DIR: work.dir, SHIPPER_BOL_COMPANY_PREFIX: '0012345' });

beforeAll(async () => {
  work = await tempDir('shipper-import-carrier-');
  await writeFile(join(work.dir, 'config.json'), JSON.stringify(CONTRACT_SETTINGS));
  server = await startServe({ store: join(work.dir, 'served'), env: env() });
});
afterAll(async () => {
  await server?.stop();
  await work.cleanup();
});

const modes = [
  { mode: 'local', args: () => ['--store', join(work.dir, 'local')] },
  { mode: 'remote', args: () => ['--base-url', server.url, '--store', join(work.dir, 'remote-cli')] },
] as const;

it('the shipped sample with carrier columns checks clean (the README points to it)', async () => {
  const sample = new URL('../../templates/import/shipments-carrier-sample.csv', import.meta.url).pathname;
  const result = await runInProcess(['--store', join(work.dir, 'sample'), 'import', sample, '--dry-run', '--json'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as { summary: { valid: number; rows: number } };
  expect(report.summary).toMatchObject({ valid: 2, rows: 3 });
});

describe.each(modes)('import with the carrier columns ($mode)', ({ mode, args }) => {
  const cli = (rest: string[]) => runInProcess([...args(), ...rest], { env: env() });

  it('books every carrier field, prints it on the BOL, assigns the PRO, and warns exactly at the cut-off', async () => {
    const file = join(work.dir, `${mode}-carrier.csv`);
    await writeFile(file, carrierCsv(`C-${mode}`));
    const result = await cli(['import', file]);
    expect(result.code, result.stderr).toBe(0);
    // Ready at 15:00 is at ODFL's cut-off (15:00): a warning for line 2; 14:59 (line 4) none.
    expect(result.stderr).toContain("line 2: the freight is ready at 15:00, at or after Old Dominion Freight Line's pickup cut-off 15:00");
    expect(result.stderr).not.toMatch(/line 4: the freight is ready/);

    const listed = await cli(['shipment', 'list', '--ref', `C-${mode}-1`, '--json']);
    const [hazardous] = (JSON.parse(listed.stdout) as { items: Shipment[] }).items;
    expect(hazardous).toMatchObject({
      carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
      freightChargeTerms: { terms: 'COLLECT', billTo: null },
      pickupWindow: { readyTime: '15:00', closeTime: '17:00' },
      fob: 'ORIGIN',
      masterBol: false,
      emergencyContactPhone: '800-424-9300',
      declaredValue: null,
      cod: null,
    });
    expect(hazardous!.orderComponents.map((component) => component.hazmat ?? null)).toEqual([
      { unNumber: 'UN1203', properShippingName: 'Gasoline', hazardClass: '3', packingGroup: 'II' },
      null,
    ]);
    // No PRO in the file: the next of ODFL's block, with its MOD7 check digit.
    const pro = hazardous!.proNumber!;
    expect(pro).toMatch(/^7000\d{4}\d$/);
    expect(proCheckDigit('MOD7', pro.slice(0, -1))).toBe(pro.slice(-1));

    const [thirdParty] = (JSON.parse((await cli(['shipment', 'list', '--ref', `C-${mode}-2`, '--json'])).stdout) as { items: Shipment[] }).items;
    expect(thirdParty).toMatchObject({
      proNumber: '1234-5678-2',
      freightChargeTerms: { terms: 'THIRD_PARTY', billTo: { name: 'Acme Payables', address1: '200 W Monroe St', city: 'Chicago', state: 'IL', zipCode: '60606' } },
      declaredValue: { amountInCents: 500_000, per: 'SHIPMENT' },
      cod: { amountInCents: 125_050, feeTerms: 'PREPAID', customerCheckAcceptable: false },
      pickupWindow: { readyTime: '14:59', closeTime: '17:00' },
      fob: 'DESTINATION',
      masterBol: true,
    });

    // People see the carrier's part too, only what was given.
    const shown = (await cli(['shipment', 'get', hazardous!.id])).stdout;
    expect(shown).toContain(
      `  Carrier      Old Dominion Freight Line (ODFL) · PRO ${pro}\n  Terms        collect\n  Window       ready 15:00, dock closes 17:00 (local time at the origin)\n  BOL boxes    FOB origin\n`,
    );
    expect(shown).not.toMatch(/Declared|COD /);
    expect(shown).toContain('  H.M. line 1: UN1203, Gasoline, 3, PG II\n  Emergency response phone 800-424-9300\n');
    const other = (await cli(['shipment', 'get', thirdParty!.id])).stdout;
    expect(other).toContain('  Terms        third party, bill to Acme Payables, Chicago, IL 60606\n');
    expect(other).toContain('  Declared     $5,000.00 per shipment\n  COD          $1,250.50, fee prepaid\n  BOL boxes    FOB destination · master BOL\n');
    expect(other).not.toContain('H.M.');

    const pdfFile = join(work.dir, `${mode}-hazardous.pdf`);
    expect((await cli(['bol', hazardous!.id, '-o', pdfFile])).code).toBe(0);
    const text = (await readPdf(new Uint8Array(await readFile(pdfFile)))).pages.map((page) => page.text).join(' ');
    for (const printed of ['UN1203, Gasoline, 3, PG II', 'ODFL', pro, '800-424-9300', 'Old Dominion Freight Line']) expect(text).toContain(printed);
  });

  it('refuses a window that closes as it opens, a declared value a cent over the limit and a PRO off its check digit, by line and column, booking nothing', async () => {
    const file = join(work.dir, `${mode}-bad-carrier.csv`);
    await writeFile(file, carrierCsv(`B-${mode}`, { ready: '17:00', close: '5:00 PM', declared: '$10,000,000.01' }));
    const result = await cli(['import', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 2, column Dock Close (pickupWindow.closeTime): the dock closes (17:00) at the time the freight is ready (17:00): the window is empty');
    expect(result.stderr).toMatch(/line 4, column Declared Value \(declaredValue\.amountInCents\): amountInCents must be at most 1000000000 cents \(\$10,000,000\)/);
    for (const ref of [`B-${mode}-1`, `B-${mode}-2`]) {
      const listed = JSON.parse((await cli(['shipment', 'list', '--ref', ref, '--json'])).stdout) as { items: unknown[] };
      expect(listed.items, ref).toEqual([]);
    }

    // The PRO is checked against the carrier's block before anything books (line 2 is valid).
    await writeFile(file, carrierCsv(`P-${mode}`, { pro: '1234-5678-3' }));
    const pro = await cli(['import', file]);
    expect(pro.code).toBe(1);
    expect(pro.stderr).toContain('line 4, column PRO # (proNumber): 1234-5678-3 fails the ODFL check digit (MOD7): it ends in 3, the check digit of 12345678 is 2');
    expect(pro.stderr).toContain('1 of 2 shipments are invalid; nothing was imported');
    expect(JSON.parse((await cli(['shipment', 'list', '--ref', `P-${mode}-1`, '--json'])).stdout).items).toEqual([]);

    // Exactly at the limit, and a window one minute long: booked (with a PRO of its own: the first import has 1234-5678-2).
    await writeFile(file, carrierCsv(`E-${mode}`, { ready: '16:59', close: '17:00', declared: '$10,000,000.00', pro: '1234-5679-3' }));
    const edge = await cli(['import', file]);
    expect(edge.code, edge.stderr).toBe(0);
  });
});
