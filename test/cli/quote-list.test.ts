/**
 * `quote list --to ZIP` (in process): quote itself has a --to (the destination of a new quote), and
 * commander hands the options a subcommand leaves to its parent first, so the filter was taken as
 * quote's own --to and the list came back unfiltered (`--to abc` passed too). quote's other flags
 * after `quote list` or `quote get` are refused, not dropped.
 */
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const LINE = 'pallets=1,weight=500,dims=48x40x48';
let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
const ids = { nyc: '', atlanta: '' };

const run = (args: string[]) => runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: '2026-11-23T15:00:00Z', SHIPPER_BOL_COMPANY_PREFIX: '0614141' } });
const listed = async (args: string[]) => {
  const result = await run(['quote', 'list', '--json', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { items: Quote[] }).items.map((quote) => quote.id);
};

beforeAll(async () => {
  work = await tempDir('shipper-quote-list-');
  store = join(work.dir, 'store');
  for (const [name, zip] of [
    ['nyc', '10001'],
    ['atlanta', '30303'],
  ] as const) {
    const quoted = await run(['-q', 'quote', '--from', '60608', '--to', zip, '-c', LINE]);
    expect(quoted.code, quoted.stderr).toBe(0);
    ids[name] = quoted.stdout.trim();
  }
});
afterAll(() => work.cleanup());

describe('quote list --to', () => {
  it('lists only the quotes to that ZIP, also with other filters, as CSV and as ZIP+4', async () => {
    expect((await listed([])).sort()).toEqual([ids.nyc, ids.atlanta].sort());
    expect(await listed(['--to', '30303'])).toEqual([ids.atlanta]);
    expect(await listed(['--to', '10001', '--status', 'open'])).toEqual([ids.nyc]);
    expect(await listed(['--to', '100011234'])).toEqual([ids.nyc]);
    expect(await listed(['--to', '94105'])).toEqual([]);
    const csv = await run(['quote', 'list', '--csv', '--to', '30303']);
    expect((parse(csv.stdout, { columns: true }) as Array<{ id: string }>).map((row) => row.id)).toEqual([ids.atlanta]);
  });

  it('refuses what is not a ZIP as a bad flag value (exit 2, issue 20 item 21)', async () => {
    for (const zip of ['abc', '1000', '100011']) {
      const result = await run(['quote', 'list', '--to', zip]);
      expect(result.code, zip).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`shipper: option '--to <zip>' argument '${zip}' is invalid. a destination ZIP code is 5 digits, or ZIP+4 (10001, 10001-1234)\n`);
    }
  });
});

describe("quote's own flags after a subcommand", () => {
  it('are a usage error naming the flag (exit 2), not silently dropped', async () => {
    for (const [args, flag, subcommand] of [
      [['quote', 'list', '--from', '60608'], '--from', 'list'],
      [['quote', 'list', '-c', LINE], '--component', 'list'],
      [['quote', 'list', '--pickup-date', 'friday'], '--pickup-date', 'list'],
      [['quote', 'get', 'ID', '--to', '10001'], '--to', 'get'],
      [['quote', 'get', 'ID', '-a', 'LIFTGATE_DELIVERY'], '--accessorial', 'get'],
    ] as const) {
      const result = await run(args.map((arg) => (arg === 'ID' ? ids.nyc : arg)));
      expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `shipper: unknown option '${flag}' for quote ${subcommand} (see: shipper quote ${subcommand} --help)\n`]);
    }
    expect((await run(['quote', 'get', ids.nyc])).code).toBe(0);
  });
});
