/**
 * Every record kind goes to the store --store names, on both stores (issue 39): fuel prices
 * (`fuel import`), saved locations (`location add`) and audited bills (`audit`) written by one
 * spawned process are read by another (`fuel show`, `location list`, `report spend`), and on
 * PostgreSQL found by SQL in their tables; the data directory (HOME, XDG_DATA_HOME) stays empty.
 * Before the fix they went to the data directory whatever --store said.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHICAGO_DC_FLAGS } from '../helpers/fixtures.js';
import { ROOT, runCli, tempDir } from '../helpers/cli.js';
import { testDatabase } from '../helpers/postgres.js';

const DIESEL = join(ROOT, 'templates', 'agreements', 'diesel-sample.csv');
const BILLS = [
  'Invoice Number,PRO Number,BOL Number,SCAC,Bill Date,Billed Weight,Billed Class,Description,NMFC,Pieces,Linehaul,Discount,Fuel,Accessorials,Total',
  'I7209901,9900001,,RRFT,2026-12-01,500,70,Castings,,,300.00,-210.00,27.00,,117.00',
].join('\r\n');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
});

async function temp(): Promise<string> {
  const made = await tempDir('shipper-record-kinds-');
  cleanups.push(made.cleanup);
  return made.dir;
}

/** Files under a directory, recursively (what a command left in the data directory). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

interface StoreUnderTest {
  store: string;
  /** On PostgreSQL, the rows of a table. */
  rows?: (table: string) => Promise<Array<Record<string, unknown>>>;
}

describe.each([
  ['file store', async (): Promise<StoreUnderTest> => ({ store: await temp() })],
  [
    'PostgreSQL store',
    async (): Promise<StoreUnderTest> => {
      const url = await testDatabase();
      const migrated = await runCli(['--store', url, 'db', 'migrate']);
      expect(migrated.code, migrated.stderr).toBe(0);
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      cleanups.push(() => sql.end());
      return { store: url, rows: (table) => sql.unsafe(`select * from ${table}`) };
    },
  ],
])('every record kind goes to the store in use: %s', (_name, create) => {
  let target: StoreUnderTest;
  let home: string;
  let env: Record<string, string>;
  const shipper = (args: string[]) => runCli(['--store', target.store, ...args], { env });

  beforeAll(async () => {
    target = await create();
    home = await temp();
    // The data directory a store-less command would use: nothing may land there.
    env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), SHIPPER_NOW: '2026-12-02T10:00:00Z' };
  });

  it('fuel import: the weekly prices are read by another process (fuel show) from the same store', async () => {
    const imported = await shipper(['--json', 'fuel', 'import', DIESEL]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ added: 56, total: 56, to: '2026-11-23' });
    const shown = await shipper(['--tariffs', 'samples', '--json', 'fuel', 'show', '--carrier', 'SAML', '--date', '2026-12-02']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ priceWeek: '2026-11-23', usdPerGallon: '3.704' });
    expect(JSON.parse(shown.stdout).percent).not.toBeNull();
    if (target.rows) expect(await target.rows('fuel_prices')).toHaveLength(56);
    expect(await filesUnder(home)).toEqual([]);
  });

  it('location add: the saved location is listed and shown by other processes', async () => {
    const added = await shipper(['location', 'add', 'Chicago-DC', ...CHICAGO_DC_FLAGS]);
    expect(added.code, added.stderr).toBe(0);
    const listed = await shipper(['--json', 'location', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ name: 'Chicago-DC', address: { city: 'Chicago', zipCode: '60608' } }]);
    const shown = await shipper(['--json', 'location', 'show', 'chicago-dc']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'Chicago-DC' });
    if (target.rows) expect((await target.rows('saved_locations')).map((row) => row.name_key)).toEqual(['chicago-dc']);
    expect(await filesUnder(home)).toEqual([]);
  });

  it('audit: the audited bill is read by another process (report spend) from the same store', async () => {
    const bills = join(await temp(), 'bills.csv');
    await writeFile(bills, BILLS);
    const audited = await shipper(['--json', 'audit', bills]);
    // A bill for a PRO no shipment has: disputed (exit 6), and saved all the same.
    expect(audited.code, audited.stderr).toBe(6);
    expect(JSON.parse(audited.stdout)).toMatchObject({ saved: true, summary: { bills: 1 } });
    const spend = await shipper(['--json', 'report', 'spend', '--by', 'carrier']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(JSON.parse(spend.stdout).total).toMatchObject({ bills: 1, billedInCents: 11700 });
    if (target.rows) expect((await target.rows('audited_bills')).map((row) => row.bill_key)).toEqual([expect.stringContaining('I7209901')]);
    expect(await filesUnder(home)).toEqual([]);
  });
});
