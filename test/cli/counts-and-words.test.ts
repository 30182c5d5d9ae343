/**
 * Small output defects of issue 39 (item 21), through the CLI in process: store export and import
 * count as everywhere else (12,013), a -c warning says which -c it means, and `shipment list` on
 * 80 columns shows no ETA for a delivered shipment.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingComponentFlags } from '../../src/cli/componentSpec.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess, type InProcessOptions } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const FIXTURES = fileURLToPath(new URL('../tracking/fixtures/', import.meta.url));
let dir: { dir: string; cleanup: () => Promise<void> };

function cli(args: string[], options: InProcessOptions & { now?: string; store?: string } = {}) {
  return runInProcess(['--store', join(dir.dir, options.store ?? 'store'), ...args], {
    ...options,
    env: { SHIPPER_NOW: options.now ?? '2026-11-23T15:00:00Z', SHIPPER_CONFIG_DIR: join(dir.dir, 'config') },
  });
}

beforeAll(async () => {
  dir = await tempDir('shipper-words-');
});
afterAll(() => dir.cleanup());

describe('store export and import count with thousands separators', () => {
  it('1,200 fuel prices and 1 quote, not 1200 and "1 quotes"', async () => {
    const quote = await cli(['-q', 'quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts'], { store: 'source' });
    expect(quote.code, quote.stderr).toBe(0);
    const first = join(dir.dir, 'first.jsonl');
    expect((await cli(['store', 'export', '--to', first], { store: 'source' })).stdout).toMatch(/^Exported 0 shipments, 1 quote, 0 idempotency keys, .* to /);
    // 1,200 weeks of diesel prices, Mondays from 2000-01-03.
    const weeks = Array.from({ length: 1200 }, (_, index) => new Date(Date.UTC(2000, 0, 3 + 7 * index)).toISOString().slice(0, 10));
    const lines = (await import('node:fs/promises').then((fs) => fs.readFile(first, 'utf8'))).trimEnd().split('\n');
    const prices = weeks.map((week) => JSON.stringify({ type: 'fuelPrice', price: { week, usdPerGallon: '3.550' } }));
    const big = join(dir.dir, 'big.jsonl');
    await writeFile(big, `${[...lines, ...prices].join('\n')}\n`);
    const imported = await cli(['store', 'import', big], { store: 'target' });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(
      /^Imported 0 shipments, 1 quote, 0 idempotency keys, 0 shipment events, 1,200 fuel prices, 0 saved locations, 0 audited bills, 0 counters from /,
    );
    const again = await cli(['store', 'export', '--to', join(dir.dir, 'again.jsonl')], { store: 'target' });
    expect(again.stdout).toContain('1,200 fuel prices');
    expect(again.stdout).not.toMatch(/\b1200\b/);
  });
});

describe('a warning about a -c line says which -c', () => {
  it('quote: "line 2 (the 2nd -c)", and --json keeps the API\'s words', async () => {
    const args = ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=Parts', '-c', 'pallets=1,weight=500,dims=48x40x48'];
    const result = await cli(args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^warning: \[NO_DESCRIPTION\] line 2 \(the 2nd -c\): no description and no NMFC code/m);
    expect(result.stderr).not.toMatch(/\] line 1\b/);
    const json = await cli(['--json', ...args]);
    expect((JSON.parse(json.stdout) as { warnings: Array<{ message: string }> }).warnings.map((item) => item.message)).toContainEqual(
      expect.stringMatching(/^line 2: no description/),
    );
  });

  it('ordinals, and lines past the -c flags given (a quote\'s) keep "line N"', () => {
    const lines = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map((n) => ({ message: `line ${n}: x` }));
    expect(namingComponentFlags(lines, 200).map((item) => item.message)).toEqual([
      'line 1 (the 1st -c): x',
      'line 2 (the 2nd -c): x',
      'line 3 (the 3rd -c): x',
      'line 4 (the 4th -c): x',
      'line 11 (the 11th -c): x',
      'line 12 (the 12th -c): x',
      'line 13 (the 13th -c): x',
      'line 21 (the 21st -c): x',
      'line 22 (the 22nd -c): x',
      'line 23 (the 23rd -c): x',
      'line 101 (the 101st -c): x',
      'line 111 (the 111th -c): x',
      'line 112 (the 112th -c): x',
    ]);
    expect(namingComponentFlags([{ message: 'line 2: x' }, { message: 'a shipment warning' }, { message: 'line 0: x' }], 1).map((item) => item.message)).toEqual([
      'line 2: x',
      'a shipment warning',
      'line 0: x',
    ]);
  });
});

describe('shipment list at 80 columns', () => {
  it('a delivered shipment shows DELIVERED, not an ETA; one in transit its ETA day', async () => {
    const book = async (pro: string) =>
      cli(
        [
          '-q',
          'ship',
          '--shipper',
          withContact('name="Acme DC",address1="2100 S Halsted St",city=Chicago,state=IL,zip=60608'),
          '--consignee',
          withContact('name="Harbor Foods International Wholesale",address1="1 Penn Plaza",city="New York",state=NY,zip=10001'),
          '-c',
          'pallets=2,weight=1200,dims=48x40x48,desc=Parts',
          '--ref',
          'PURCHASE-ORDER-2026-11-0001',
          '--carrier',
          'Old Dominion',
          '--scac',
          'ODFL',
          '--pro',
          pro,
        ],
        { store: 'tracked' },
      );
    expect((await book('1234567897')).code).toBe(0);
    expect((await book('1234567901')).code).toBe(0);
    await cli(['track', 'import', join(FIXTURES, 'odfl-214-a.edi'), join(FIXTURES, 'odfl-214-b.edi')], { store: 'tracked', now: '2026-11-30T18:00:00Z' });
    const list = await cli(['shipment', 'list'], { store: 'tracked', now: '2026-11-30T18:00:00Z', columns: 80 });
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.split('\n').filter((line) => line.startsWith('│'));
    expect(rows[0]).toMatch(/│ ETA \/ status\s+│$/);
    expect(rows.find((row) => row.includes('SO-000001'))).toMatch(/│ DELIVERED\s+│$/);
    expect(rows.find((row) => row.includes('SO-000002'))).toMatch(/│ \w{3} 2026-11-\d\d\s+│$/);
    for (const line of list.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });
});
