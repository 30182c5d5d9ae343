/**
 * Tables never wrap: every command that prints a table, run on a terminal of 80, 100 and 120
 * columns (in process, stdout and stderr terminals of that width: a pseudo-terminal lost the end of
 * long tables under load), prints no line longer than the terminal, and keeps what matters most at
 * each width. Data with long names, a cancelled shipment and bad lanes, seeded in process.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = '2026-11-23T15:00:00Z';
const WIDTHS = [80, 100, 120] as const;
let dir: string;
let cleanup: () => Promise<void>;
let store: string;
let shipmentId: string;
let quoteId: string;
const seed = async (args: string[]) => {
  const result = await runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: NOW, SHIPPER_BOL_COMPANY_PREFIX: '0614141' } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-widths-'));
  store = join(dir, 'store');
  await seed([
    'location',
    'add',
    'chicago-distribution-center-north',
    '--name',
    'Acme Industrial Machinery and Spare Parts Distribution Co',
    '--address1',
    '2100 South Halsted Street Building 4',
    '--city',
    'Chicago',
    '--state',
    'IL',
    '--zip',
    '60608',
    '--contact',
    'Dana Ruiz-Fernandez',
    '--phone',
    '312-555-0100',
  ]);
  await seed([
    'location',
    'add',
    'nyc',
    '--name',
    'Store 12',
    '--address1',
    '1 Penn Plaza',
    '--city',
    'New York',
    '--state',
    'NY',
    '--zip',
    '10001',
    '--contact',
    'Lee Chen',
    '--phone',
    '212-555-0188',
  ]);
  const consignee = withContact('name=Harbor Foods International Wholesale,address1=55 Harbor Way,city=Long Beach,state=CA,zip=90802,contact=Pat Lee,phone=562-555-0110');
  shipmentId = await seed([
    '-q',
    'ship',
    '--shipper',
    'chicago-distribution-center-north',
    '--consignee',
    consignee,
    '--ref',
    'PURCHASE-ORDER-2026-11-0001-LONG',
    '-c',
    'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts boxed with spare belts and gaskets,nmfc=161030,pkg=crates,pieces=10',
    '-c',
    'pallets=1,weight=300,dims=48x40x60,desc=Spare belts',
    '--special-instructions',
    'Call the receiving office thirty minutes before delivery; dock 4 closes at 15:30 sharp',
  ]);
  const cancelled = await seed([
    '-q',
    'ship',
    '--shipper',
    'chicago-distribution-center-north',
    '--consignee',
    'nyc',
    '-c',
    'pallets=1,weight=400,dims=48x40x48,desc=Parts',
    '--ref',
    'PO-2',
  ]);
  await seed(['shipment', 'cancel', cancelled]);
  await seed(['-q', 'ship', '--shipper', 'nyc', '--consignee', consignee, '-c', 'pallets=12,weight=18000,dims=48x40x60,desc=Parts']);
  const booked = await seed(['-q', 'quote', '--from', '60608', '--to', '10001', '-c', 'pallets=1,weight=400,dims=48x40x48,desc=Parts']);
  await seed(['ship', '--quote', booked, '--shipper', 'chicago-distribution-center-north', '--consignee', 'nyc']);
  quoteId = await seed(['-q', 'quote', '--from', '60608', '--to', '99501', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=A very long description of what is on this pallet']);
  await seed(['-q', 'quote', '--from', '10001', '--to', '90802', '-c', 'pallets=3,weight=2500,dims=48x40x48,desc=Parts', '-a', 'liftgate_delivery']);
  await writeFile(join(dir, 'zips.txt'), 'zip\n10001\n00000\n94105\n99501\n30301\nabc\n');
}, 60_000);
afterAll(() => cleanup());

/** Runs the CLI in process on terminals of `columns` columns; what it printed (stderr first), as lines. */
async function screen(args: string[], columns: number): Promise<{ code: number; lines: string[] }> {
  const result = await runInProcess(['--store', store, ...args], {
    cwd: dir,
    columns,
    stderrColumns: columns,
    env: { SHIPPER_NOW: NOW, SHIPPER_BOL_COMPANY_PREFIX: '0614141', SHIPPER_CONFIG_DIR: join(dir, 'config') },
  });
  return { code: result.code, lines: `${result.stderr}${result.stdout}`.split('\n') };
}

/** Every width at once (three processes), checked for the longest line. */
async function atEveryWidth(args: string[]) {
  const screens = await Promise.all(WIDTHS.map((columns) => screen(args, columns)));
  return WIDTHS.map((columns, index) => {
    const { code, lines } = screens[index]!;
    // A path is printed whole, to be copied, however deep the temporary directory is.
    for (const line of lines.filter((text) => !text.includes(dir))) expect([...line].length, `${args.join(' ')} at ${columns} columns: ${line}`).toBeLessThanOrEqual(columns);
    return { columns, code, lines, text: lines.join('\n') };
  });
}

/** The table's head row, as its cells. */
const headOf = (lines: string[]) =>
  lines
    .find((line) => line.startsWith('│'))!
    .split('│')
    .slice(1, -1)
    .map((cell) => cell.trim());

describe('tables fit 80, 100 and 120 columns, by priority', () => {
  it('shipment list: order, ref, lane, price and ETA always; the id from 100 columns; the status from 120', async () => {
    const [at80, at100, at120] = await atEveryWidth(['shipment', 'list']);
    for (const { code, text } of [at80!, at100!, at120!]) {
      expect(code).toBe(0);
      expect(text).toMatch(/SO-000001/);
      expect(text).toMatch(/\$[\d,]+\.\d\d/);
      // Every shipment is one row: 4 rows + top, head, rule, bottom.
      expect(text.split('\n').filter((line) => /^[│┌├└]/.test(line))).toHaveLength(8);
    }
    expect(headOf(at80!.lines)).toEqual(['Order', 'Ref', 'Lane', 'Price', 'ETA / status']);
    expect(at80!.text).toMatch(/│ CANCELLED\s+│/);
    expect(headOf(at100!.lines)).toEqual(['Shipment', 'Order', 'Ref', 'Lane', 'Price', 'ETA / status']);
    expect(at100!.text).toContain(shipmentId);
    // At 120 the id stays; the status has a column or, with these long references, folds into the ETA.
    expect(headOf(at120!.lines).slice(0, 2)).toEqual(['Shipment', 'Order']);
    expect(at120!.text).toMatch(/│ CANCELLED\s+│/);
  });

  it('quote list: lane, price, ETA and status always; the id from 100 columns', async () => {
    const [at80, at100, at120] = await atEveryWidth(['quote', 'list']);
    expect(headOf(at80!.lines)).toEqual(['Lane', 'Price', 'ETA', 'Status']);
    expect(at80!.text).toMatch(/60608 → 99501 Anchorage, AK/);
    expect(headOf(at100!.lines)[0]).toBe('Quote');
    expect(at100!.text).toContain(quoteId);
    expect(at120!.text).toMatch(/booked SO-00000\d/);
    for (const { code } of [at80!, at100!, at120!]) expect(code).toBe(0);
  });

  it('transit, one day and several, with bad lanes: the origin moves above the table before the ETA is cut', async () => {
    for (const args of [
      ['transit', '--from', '60601', '--to', join(dir, 'zips.txt')],
      ['transit', '--from', '60601', '--to', join(dir, 'zips.txt'), '--days', '5'],
    ]) {
      const screens = await atEveryWidth(args);
      for (const { code, text } of screens) {
        expect(code).toBe(1);
        expect(text).toMatch(/│ 00000\b.*│ no lane /);
        expect(text).toMatch(/│ abc\b.*│ no lane /);
        expect(text).toMatch(/no coverage/);
        // The ETA is never cut: a whole date, time and zone.
        expect(text).toMatch(/\d{4}-\d{2}-\d{2} 17:00 E[SD]T/);
        expect(text).not.toMatch(/\d{4}-\d{2}-…/);
      }
    }
  });

  it('location list: the name is never cut', async () => {
    for (const { code, text } of await atEveryWidth(['location', 'list'])) {
      expect(code).toBe(0);
      expect(text).toContain('chicago-distribution-center-north');
    }
  });

  it('shipment get, quote get, invoice, spend and config list', async () => {
    for (const args of [
      ['shipment', 'get', shipmentId],
      ['quote', 'get', quoteId],
      ['invoice', shipmentId],
      ['report', 'spend'],
      ['config', 'list'],
      ['bol', '--templates'],
    ]) {
      for (const { code, text } of await atEveryWidth(args)) {
        expect(code, args.join(' ')).toBe(0);
        expect(text).toMatch(/[┌└]/);
      }
    }
  });

  it('a terminal wide enough shows every column, whole', async () => {
    const { lines } = await screen(['shipment', 'list'], 240);
    expect(headOf(lines)).toEqual(['Shipment', 'Order', 'Status', 'Ref', 'Lane', 'Pallets', 'Weight (lb)', 'Price', 'Transit days', 'ETA']);
    expect(lines.join('\n')).toContain('PURCHASE-ORDER-2026-11-0001-LONG');
    expect(lines.join('\n')).not.toContain('…');
  });
});

describe('piped output keeps whole cells', () => {
  it('no truncation without a terminal, however long', async () => {
    const result = await runInProcess(['--store', store, 'shipment', 'list'], { env: { SHIPPER_NOW: NOW } });
    expect(result.stdout).toContain('PURCHASE-ORDER-2026-11-0001-LONG');
    expect(result.stdout).toContain('Chicago, IL → Long Beach, CA');
    expect(result.stdout).not.toContain('…');
  });
});
