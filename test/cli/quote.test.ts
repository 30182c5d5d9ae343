import { readdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteSchema } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';

let store: string;
let cleanup: () => Promise<void>;
let cli: ReturnType<typeof storeInProcess>;
beforeAll(async () => {
  ({ dir: store, cleanup } = await tempDir());
  cli = storeInProcess(store);
});
afterAll(() => cleanup());

const LANE = ['quote', '--from', '60601', '--to', '10001'];
const ANSI = /\u001b\[/;

describe('shipper quote (in process, temporary store)', () => {
  it('prints a Quote with the five seed fields and the additive ones, and quote get returns the same', async () => {
    // Described, so the freight check has nothing to say (NO_DESCRIPTION otherwise).
    const created = await cli([...LANE, '--component', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts', '--json']);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    const quote = quoteSchema.parse(JSON.parse(created.stdout));
    for (const field of ['id', 'quotedPriceInCents', 'quoteExpirationTime', 'transitDays', 'estimatedDeliveryDate']) expect(quote).toHaveProperty(field);
    expect(quote.orderComponents[0]).toMatchObject({ freightClass: '92.5', densityPcf: 11.25 });
    expect(quote.transitDays).toBe(3);
    const fetched = await cli(['quote', 'get', quote.id, '--json']);
    expect(fetched.code).toBe(0);
    expect(JSON.parse(fetched.stdout)).toEqual(quote);
  });

  it('gives palletDims the same class and price as dims, plus one deprecation line on stderr', async () => {
    const withDims = JSON.parse(
      (await cli([...LANE, '--pickup-date', '2026-12-01', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts', '--json'], { env: { SHIPPER_NOW: '2026-11-22T12:00:00Z' } }))
        .stdout,
    );
    const deprecated = await cli([...LANE, '--pickup-date', '2026-12-01', '-c', 'pallets=2,weight=1200,palletDims=48x40x48,desc=Parts', '--json'], {
      env: { SHIPPER_NOW: '2026-11-22T12:00:00Z' },
    });
    expect(deprecated.code).toBe(0);
    const quote = JSON.parse(deprecated.stdout);
    expect(quote.quotedPriceInCents).toBe(withDims.quotedPriceInCents);
    expect(quote.orderComponents[0].freightClass).toBe(withDims.orderComponents[0].freightClass);
    expect(quote.orderComponents[0].dimensions).toEqual({ length: 48, width: 40, height: 48 });
    const lines = deprecated.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warning: .*palletDimensions is deprecated/);
  });

  it('exits 1 and lists every violation with its path', async () => {
    const result = await cli([...LANE, '--component', `pallets=1,weight=100,dims=48x40x48,pieces=-1,desc=${'d'.repeat(257)}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('orderComponents[0].pieceCount');
    expect(result.stderr).toContain('orderComponents[0].description');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the ProblemDetail on stdout with --json', async () => {
    const result = await cli([...LANE, '--component', 'pallets=1,weight=100,dims=48x40x48,class=70', '--json']);
    expect(result.code).toBe(1);
    const problem = JSON.parse(result.stdout);
    expect(problem).toMatchObject({ status: 400, title: 'Constraint Violation', violations: [{ field: 'orderComponents[0].freightClass' }] });
  });

  it('names an unknown ZIP with its path', async () => {
    const result = await cli(['quote', '--from', '00000', '--to', '10001', '-c', 'pallets=1,weight=100,dims=48x40x48']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown ZIP 00000 (pickupAddress.zipCode)');
  });

  it('exits 2 naming the missing flags when there is no terminal to ask on', async () => {
    const result = await cli(['quote', '--from', '60601']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--to ZIP');
    expect(result.stderr).toContain('--component SPEC');
  });

  it('exits 2 on a malformed component spec and on unknown flags', async () => {
    const badKey = await cli([...LANE, '-c', 'pallets=1,weight=100,dims=48x40x48,colour=red']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('unknown key "colour"');
    const badDims = await cli([...LANE, '-c', 'pallets=1,weight=100,dims=48x40']);
    expect(badDims.code).toBe(2);
    const badFlag = await cli(['quote', '--frmo', '60601']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/unknown option/);
  });

  it('treats text and 1e309 in number fields as violations, not crashes', async () => {
    const result = await cli([...LANE, '-c', 'pallets=two,weight=1e309,dims=48x40x48', '--json']);
    expect(result.code).toBe(1);
    const fields = JSON.parse(result.stdout)
      .violations.map((violation: { field: string }) => violation.field)
      .sort();
    expect(fields).toEqual(['orderComponents[0].palletCount', 'orderComponents[0].poundsWeight']);
  });

  it('exits 4 for an unknown quote id', async () => {
    const result = await cli(['quote', 'get', 'qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3B']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('not found');
  });

  it('lists quotes as a table and as JSON, newest first', async () => {
    const table = await cli(['quote', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Quote.*Price.*Class.*Transit days.*ETA/);
    expect(table.stdout).toContain('$');
    expect(table.stdout).not.toMatch(ANSI);
    const page = JSON.parse((await cli(['quote', 'list', '--json', '--limit', '2'])).stdout);
    expect(page.items).toHaveLength(2);
    expect(page.items[0].id > page.items[1].id).toBe(true);
    expect(page.nextCursor).toBe(page.items[1].id);
  });

  it('reports a damaged record naming the file while the other records stay usable', async () => {
    const good = JSON.parse((await cli([...LANE, '-c', 'pallets=1,weight=500,dims=48x40x48', '--json'])).stdout);
    const damagedId = 'qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3Z';
    await writeFile(join(store, 'quotes', `${damagedId}.json`), '{"id": "qt_');
    const damaged = await cli(['quote', 'get', damagedId]);
    expect(damaged.code).toBe(5);
    expect(damaged.stderr).toContain(join(store, 'quotes', `${damagedId}.json`));
    expect((await cli(['quote', 'get', good.id, '--json'])).code).toBe(0);
    const list = await cli(['quote', 'list', '--json', '--limit', '500']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain(`${damagedId}.json`);
    expect(JSON.parse(list.stdout).items.some((quote: { id: string }) => quote.id === good.id)).toBe(true);
  });

  it('gives one clear line and exit 5 for a store that cannot be created (no hang under a dangling symlink)', async () => {
    const link = join(store, '..', `dangling-${process.pid}`);
    await symlink(join(store, '..', 'no-such-target'), link);
    try {
      const result = await storeInProcess(join(link, 'store'))([...LANE, '-c', 'pallets=1,weight=500,dims=48x40x48']);
      expect(result.code).toBe(5);
      expect(result.stderr.trim().split('\n')).toEqual([
        `shipper: cannot create the store directory ${join(link, 'store', 'locks')}: ${link} is a symbolic link to a missing directory`,
      ]);
    } finally {
      await unlink(link);
    }
  });

  it('reads --pickup-date in words, refuses unreadable text and an unreal date (exit 2) with the value named', async () => {
    const env = { SHIPPER_NOW: '2026-11-23T15:00:00Z' }; // a Monday
    const friday = await cli([...LANE, '-c', 'pallets=1,weight=500,dims=48x40x48', '--pickup-date', 'friday', '--json'], { env });
    expect(friday.code).toBe(0);
    expect(JSON.parse(friday.stdout).requiredPickupDate).toBe('2026-11-27');
    const unreadable = await cli([...LANE, '-c', 'pallets=1,weight=500,dims=48x40x48', '--pickup-date', 'someday'], { env });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/^shipper: --pickup-date: cannot read "someday" as a date/);
    const unreal = await cli([...LANE, '-c', 'pallets=1,weight=500,dims=48x40x48', '--pickup-date', '2026-02-30'], { env });
    // Not a date at all is a usage error, as unreadable text is (issue 20, item 21); a past date is rejected input (exit 1).
    expect(unreal.code).toBe(2);
    expect(unreal.stderr.trim()).toBe('shipper: --pickup-date: 2026-02-30 is not a real calendar date');
  });

  it('leaves nothing behind when a quote is rejected', async () => {
    const before = await readdir(join(store, 'quotes'));
    await cli([...LANE, '-c', 'pallets=0,weight=100,dims=48x40x48']);
    expect(await readdir(join(store, 'quotes'))).toEqual(before);
  });

  it('shows examples in --help and prints the version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    const quoteHelp = await cli(['quote', '--help']);
    expect(quoteHelp.stdout).toContain('$ shipper quote --from 60601');
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+ \(/);
  });

  it('never colours output with NO_COLOR and human output has the breakdown', async () => {
    const result = await cli([...LANE, '-c', 'pallets=2,weight=1200,dims=48x40x48', '-a', 'liftgate_delivery']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
    expect(result.stdout).toMatch(/Fuel surcharge/);
    expect(result.stdout).toMatch(/LIFTGATE_DELIVERY\s+\$75\.00/);
    expect(result.stdout).toMatch(/Total\s+\$[\d,]+\.\d\d/);
  });
});
