/**
 * What a person acts on is never cut (issue 39, item 15): the rate shop keeps the quote id, the
 * total and the ETA whole at 80 columns and the lesser columns give way; `report carriers` keeps
 * the carrier whole. Piped, tables are not sized at all (docs/guides/scripting.md).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedShipmentArgs } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const FIXTURES = fileURLToPath(new URL('../tracking/fixtures/', import.meta.url));
const DIESEL = fileURLToPath(new URL('../../templates/agreements/diesel-sample.csv', import.meta.url));
const RATE_SHOP = [
  '--tariffs',
  'samples',
  'quote',
  '--from',
  '60601',
  '--to',
  '10001',
  '--pickup-date',
  '2026-12-02',
  '-c',
  'pallets=2,weight=1200,dims=48x40x48,desc=Parts',
  '--carrier',
  'all',
];
const QUOTE_ID = /qt_[0-9A-HJKMNP-TV-Z]{26}/g;
const ETA = /\b(Mon|Tue|Wed|Thu|Fri) 2026-12-\d\d 17:00 EST\b/g;
const TOTAL = /\$3\d\d\.\d\d\b/g;

let dir: { dir: string; cleanup: () => Promise<void> };

function cli(args: string[], columns?: number, now = '2026-11-30T15:00:00Z') {
  return runInProcess(['--store', join(dir.dir, 'store'), ...args], {
    ...(columns === undefined ? {} : { columns }),
    env: { SHIPPER_NOW: now, SHIPPER_CONFIG_DIR: join(dir.dir, 'config') },
  });
}

/** The table's rows (lines starting with │), as cells. */
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
const longest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));

beforeAll(async () => {
  dir = await tempDir('shipper-priorities-');
  expect((await cli(['fuel', 'import', DIESEL])).code).toBe(0);
  const book = async (args: string[]) => expect((await cli(['-q', 'ship', ...args], undefined, '2026-11-23T15:00:00Z')).code).toBe(0);
  for (const args of trackedShipmentArgs(['Old Dominion Freight Line', 'Saia LTL Freight'])) await book(args);
  const imported = await cli(['track', 'import', join(FIXTURES, 'odfl-214-a.edi'), join(FIXTURES, 'saia-itv.json')], undefined, '2026-12-03T18:00:00Z');
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);
afterAll(() => dir.cleanup());

describe('the rate shop on a terminal', () => {
  it('at 80 columns: carrier (its SCAC), ETA, total and quote id, each whole; the breakdown leaves', async () => {
    const result = await cli(RATE_SHOP, 80);
    expect(result.code, result.stderr).toBe(0);
    expect(longest(result.stdout)).toBeLessThanOrEqual(80);
    const rows = tableRows(result.stdout);
    expect(rows[0]).toEqual(['Carrier', 'ETA', 'Total', 'Quote']);
    expect(
      rows
        .slice(1)
        .map((row) => row[0])
        .sort(),
    ).toEqual(['SAML', 'SCFR', 'SPLX']);
    for (const row of rows.slice(1)) {
      expect(row[1]).toMatch(new RegExp(`^${ETA.source}$`));
      expect(row[2]).toMatch(new RegExp(`^${TOTAL.source}$`));
      expect(row[3]).toMatch(new RegExp(`^${QUOTE_ID.source}$`));
    }
    expect(result.stdout).not.toMatch(/qt_\w*…|\$[\d,.]*…/);
    // The line under the table books the cheapest, its id whole.
    expect(result.stdout).toContain(`--quote ${rows[1]![3]}`);
  });

  it('at 79, 81, 100 and 120 columns: what fits comes back, the id, total and ETA stay whole', async () => {
    for (const [columns, head] of [
      [79, ['Carri…', 'ETA', 'Total', 'Quote']],
      [81, ['Carrier', 'ETA', 'Total', 'Quote']],
      [100, ['', 'Carrier', 'ETA', 'Total', 'Quote']],
      [120, ['', 'Carrier', 'Service', 'Days', 'ETA', 'Total', 'Quote']],
    ] as const) {
      const result = await cli(RATE_SHOP, columns);
      expect(longest(result.stdout), `${columns} columns`).toBeLessThanOrEqual(columns);
      expect(tableRows(result.stdout)[0], `${columns} columns`).toEqual(head);
      expect(result.stdout.match(QUOTE_ID)?.length, `${columns} columns`).toBe(4);
      expect(result.stdout.match(ETA)?.length).toBe(3);
      expect(result.stdout.match(TOTAL)?.length).toBe(3);
    }
  });

  it('on an absurdly narrow terminal the id, total and ETA stay whole rather than fit', async () => {
    const result = await cli(RATE_SHOP, 30);
    expect(result.code).toBe(0);
    // The line under the table wraps between words; the id is one word, whole.
    expect(result.stdout).toMatch(/^ {2}qt_\w{26}$/m);
    expect(result.stdout.match(QUOTE_ID)?.length).toBe(4);
    expect(result.stdout.match(ETA)?.length).toBe(3);
    expect(result.stdout.match(TOTAL)?.length).toBe(3);
  });
});

describe('report carriers on a terminal', () => {
  it('at 80 columns the carrier is whole; lesser columns leave', async () => {
    const result = await cli(['report', 'carriers'], 80, '2026-12-03T18:00:00Z');
    expect(result.code, result.stderr).toBe(0);
    expect(longest(result.stdout)).toBeLessThanOrEqual(80);
    const rows = tableRows(result.stdout);
    expect(rows.map((row) => row[0])).toEqual(['Carrier', 'Old Dominion Freight Line (ODFL)', 'Saia LTL Freight (SAIA)', 'Total']);
    expect(rows[0]).toEqual(expect.arrayContaining(['On time', 'Days late', 'At stake']));
    expect(rows[2]).toEqual(expect.arrayContaining(['0 %', '2', '$0.00']));
  });

  it('narrower, the carrier becomes its SCAC, never a cut name', async () => {
    const result = await cli(['report', 'carriers'], 60, '2026-12-03T18:00:00Z');
    expect(longest(result.stdout)).toBeLessThanOrEqual(60);
    expect(tableRows(result.stdout).map((row) => row[0])).toEqual(['Carrier', 'ODFL', 'SAIA', 'Total']);
  });
});

describe('piped tables are not sized (the scripting guide)', () => {
  it('every column, whole, however wide', async () => {
    const rates = await cli(RATE_SHOP);
    expect(tableRows(rates.stdout)[0]).toEqual(['', 'Carrier', 'Service', 'Days', 'ETA', 'Linehaul', 'Fuel', 'Accessorials', 'Total', 'Max liability', 'Expires', 'Quote']);
    expect(longest(rates.stdout)).toBeGreaterThan(80);
    const carriers = await cli(['report', 'carriers'], undefined, '2026-12-03T18:00:00Z');
    expect(tableRows(carriers.stdout)[0]).toHaveLength(10);
    expect(`${rates.stdout}${carriers.stdout}`).not.toContain('…');
  });
});
