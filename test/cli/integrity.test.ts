/**
 * Booking integrity (issue 11) as a CLI user sees it, on the local engine and in remote mode
 * against a `shipper serve` server (in process): one clear line per problem, exit 1, warnings as
 * `warning:` lines, and nothing booked by a refused quote, shipment or CSV import.
 */
import { DOCUMENTATION_PREFIX_WARNING } from '../../src/domain/bolNumber.js';
import { withoutFreightCheck } from '../helpers/freightCheck.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { checkAddressAgainstZip } from '../../src/domain/addressZip.js';
import { ZipDirectory } from '../../src/geo/zipDirectory.js';
import { createShipperServer, type ShipperServer } from '../../src/server/server.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { csvLine, HEADER, rowCells } from '../helpers/csv.js';
import { runInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = '2026-11-23T15:00:00.000Z';
const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
const COMPONENT = 'pallets=2,weight=1200,dims=48x40x48,desc=Parts';

const dirs: Array<() => Promise<void>> = [];
let server: ShipperServer;
let work: string;
const modes: Record<'local' | 'remote', { args: string[]; env: Record<string, string> }> = {
  local: { args: [], env: {} },
  remote: { args: ['--remote'], env: {} },
};

beforeAll(async () => {
  const local = await tempDir('shipper-integrity-local-');
  const remote = await tempDir('shipper-integrity-remote-');
  const scratch = await tempDir('shipper-integrity-work-');
  dirs.push(local.cleanup, remote.cleanup, scratch.cleanup);
  work = scratch.dir;
  const offset = Date.parse(NOW) - Date.now();
  server = createShipperServer({ api: new LocalApi({ storeDir: remote.dir, now: () => new Date(Date.now() + offset) }) });
  const { port } = await server.listen(0, '127.0.0.1');
  const common = { SHIPPER_NOW: NOW, SHIPPER_CONFIG_DIR: scratch.dir };
  modes.local.env = { ...common, SHIPPER_STORE: local.dir };
  modes.remote.env = { ...common, SHIPPER_STORE: join(scratch.dir, 'address-book'), SHIPPER_BASE_URL: `http://127.0.0.1:${port}` };
});
afterAll(async () => {
  await server?.close(100);
  for (const cleanup of dirs) await cleanup();
});

function shipper(mode: 'local' | 'remote', args: string[]): Promise<CliResult> {
  return runInProcess([...modes[mode].args, ...args], { env: modes[mode].env });
}

async function bookedCount(mode: 'local' | 'remote'): Promise<number> {
  const list = await shipper(mode, ['shipment', 'list', '--limit', '500', '--json']);
  expect(list.code, list.stderr).toBe(0);
  return (JSON.parse(list.stdout) as { items: unknown[] }).items.length;
}

describe.each(['local', 'remote'] as const)('%s mode', (mode) => {
  it('refuses absurd freight with the limit, exit 1, one line, nothing quoted', async () => {
    const result = await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=1e308,dims=48x40x0.0001,desc=Parts']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      'shipper: poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer) (orderComponents[0].poundsWeight); height must be at least 1 in (orderComponents[0].dimensions.height)',
    );
    const infinite = await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=1e400,dims=48x40x48,desc=Parts', '--json']);
    expect(infinite.code).toBe(1);
    expect(JSON.parse(infinite.stdout)).toMatchObject({ status: 400, violations: [{ field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be a finite number' }] });
  });

  it('quotes freight beyond standard LTL with one warning line naming volume LTL or truckload', async () => {
    const result = await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=13,weight=12000,dims=48x40x48,desc=Parts', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(Number.isSafeInteger((JSON.parse(result.stdout) as { quotedPriceInCents: number }).quotedPriceInCents)).toBe(true);
    // Besides the freight check's own lines (13 pallets take 28 ft of trailer; no description).
    const lines = withoutFreightCheck(result.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: \[BEYOND_LTL\] beyond standard LTL: 13 pallets \(standard LTL takes up to 12\)\. Carriers move such freight as volume LTL or truckload/);
  });

  it('refuses a flag-built request only where a user can misspell it: a typo in a component key is a usage error', async () => {
    const result = await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,wieght=500,dims=48x40x48,desc=Parts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown key "wieght" \(did you mean weight\?\) in --component/);
    const side = await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', 'pallets=1,weight=500,hieght=48,desc=Parts']);
    expect(side.code).toBe(2);
    expect(side.stderr).toMatch(/unknown key "hieght" \(length, width and height go in dims=LxWxH\) in --component/);
    const address = await shipper(mode, ['ship', '--shipper', `${SHIPPER},zipcod=60608`, '--consignee', CONSIGNEE, '-c', COMPONENT]);
    expect(address.code).toBe(2);
    expect(address.stderr).toMatch(/unknown key "zipcod" \(did you mean zipCode\?\) in --shipper/);
    // Nothing close: the keys are listed, no guess.
    expect((await shipper(mode, ['quote', '--from', '60601', '--to', '10001', '-c', `${COMPONENT},xyz=1`])).stderr).toMatch(
      /unknown key "xyz" in --component [^(]*\(keys: pallets, weight, dims/,
    );
  });

  it('ship: a state that contradicts the ZIP is refused (exit 1, nothing booked); another city books with a warning', async () => {
    const before = await bookedCount(mode);
    const refused = await shipper(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE.replace('city=New York,state=NY', 'city=Chicago,state=IL'), '-c', COMPONENT]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('shipper: IL does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP (deliveryAddress.state)');
    expect(await bookedCount(mode)).toBe(before);

    const otherCity = await shipper(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE.replace('city=New York', 'city=Manhattan'), '-c', COMPONENT, '--json']);
    expect(otherCity.code, otherCity.stderr).toBe(0);
    expect(withoutFreightCheck(otherCity.stderr).trim().split('\n')).toEqual([
      'warning: [ADDRESS_CITY_MISMATCH] Manhattan is not the USPS city of ZIP 10001 (New York, NY); check the address, carriers route by the ZIP (deliveryAddress.city)',
      `warning: [DOCUMENTATION_PREFIX] ${DOCUMENTATION_PREFIX_WARNING}`,
    ]);
    expect(await bookedCount(mode)).toBe(before + 1);
  });

  it('import: rows with 1e308, 5e-324, "1e400" or a state against the ZIP are refused with line and column, exit 1, nothing booked', async () => {
    const file = join(work, `absurd-${mode}.csv`);
    const rows = [
      rowCells('ABS-1', true, { weight: '1e308' }),
      rowCells('ABS-2', true, { height: '5e-324' }),
      rowCells('ABS-3', true, { length: '1e400' }),
      rowCells('ABS-4', true).map((cell, index) => (HEADER[index] === 'consigneeState' ? 'NJ' : cell)),
      rowCells('ABS-5', true),
    ];
    await writeFile(file, `${[HEADER, ...rows].map((cells) => csvLine(cells)).join('\n')}\n`);
    const before = await bookedCount(mode);
    for (const dryRun of [['--dry-run'], []]) {
      const result = await shipper(mode, ['import', file, ...dryRun]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        'line 2, column poundsWeight (orderComponents[0].poundsWeight): poundsWeight must be at most 45,000 lb (the legal payload of a 53 ft trailer) (got "1e308")',
      );
      expect(result.stderr).toContain('line 3, column height (orderComponents[0].dimensions.height): height must be at least 1 in (got "5e-324")');
      expect(result.stderr).toContain('line 4, column length (orderComponents[0].dimensions.length): length must be a finite number (got "1e400")');
      expect(result.stderr).toContain(
        'line 5, column consigneeState (deliveryAddress.state): NJ does not match ZIP 10001, which is in New York, NY; correct the state or the ZIP (got "NJ")',
      );
      expect(result.stdout + result.stderr).not.toMatch(/NaN|Infinity/);
      expect(await bookedCount(mode)).toBe(before);
    }
  });
});

describe('help examples', () => {
  it('write addresses whose city and state agree with their ZIP', async () => {
    const zips = new ZipDirectory();
    const help = [
      (await runInProcess(['ship', '--help'])).stdout,
      (await runInProcess(['location', 'add', '--help'])).stdout,
      (await runInProcess(['quote', '--help'])).stdout,
    ].join('\n');
    const addresses = [
      ...[...help.matchAll(/city="?([^",]+)"?,state=(\w+),zip=(\d{5})/g)].map(([, city, state, zip]) => ({ city, state, zip })),
      ...[...help.matchAll(/--city "?([^"-]+?)"? --state (\w+) --zip (\d{5})/g)].map(([, city, state, zip]) => ({ city, state, zip })),
    ];
    expect(addresses.length).toBeGreaterThanOrEqual(4);
    for (const { city, state, zip } of addresses) {
      const place = zips.lookup(zip!)!;
      expect(checkAddressAgainstZip({ city, state }, place, ''), `${city}, ${state} ${zip}`).toEqual({ violations: [], warnings: [] });
    }
  });
});
