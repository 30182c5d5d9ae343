/**
 * Booked once and reversible, through the CLI in both modes (in process; remote against a real
 * `shipper serve`): ship --quote carries the quoted lines whole, a quote is booked once, references
 * warn, cancellation, list filters and statuses, the BOL company prefix, re-imports recognised by
 * their orders, rows of one shipment apart in the file.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTATION_PREFIX_WARNING, isValidBolNumber } from '../../src/domain/bolNumber.js';
import { LocalApi } from '../../src/api/local.js';
import type { Quote, Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { runCli, tempDir, type CliResult } from '../helpers/cli.js';
import { csvLine, HEADER, rowCells } from '../helpers/csv.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { storedShipmentIds } from '../helpers/storedShipments.js';
import { withContact } from '../helpers/fixtures.js';

const NOW = { SHIPPER_NOW: '2026-11-23T15:00:00Z' };
const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
const LINE = 'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts,nmfc=161030,pkg=crates,pieces=10';

let work: { dir: string; cleanup: () => Promise<void> };
let server: ServeProcess;
const stores = { local: '', remote: '' };

beforeAll(async () => {
  work = await tempDir('shipper-once-');
  stores.local = join(work.dir, 'local');
  stores.remote = join(work.dir, 'served');
  server = await startServe({ store: stores.remote, env: NOW });
});
afterAll(async () => {
  await server.stop();
  await work.cleanup();
});

type Mode = 'local' | 'remote';
const MODES: Mode[] = ['local', 'remote'];

function cli(mode: Mode, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const where = mode === 'local' ? ['--store', stores.local] : ['--base-url', server.url, '--store', join(work.dir, 'client')];
  return runInProcess([...where, ...args], { env: { ...NOW, ...env }, cwd: work.dir });
}

async function json<T>(mode: Mode, args: string[]): Promise<T> {
  const result = await cli(mode, [...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const newQuote = (mode: Mode, line = LINE) => json<Quote>(mode, ['quote', '--from', '60608', '--to', '10001', '-c', line]);

describe.each(MODES)('%s mode', (mode) => {
  it('ship --quote without -c books the quoted lines whole: description, NMFC, packaging, pieces, on the record and the BOL', async () => {
    const quote = await newQuote(mode);
    const shipment = await json<Shipment>(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--ref', `WHOLE-${mode}`]);
    expect(shipment.orderComponents[0]).toMatchObject({
      description: 'Machine parts',
      nmfcCode: '161030',
      packagingType: 'crates',
      pieceCount: 10,
      palletCount: 2,
      poundsWeight: 1200,
    });
    const bol = await cli(mode, ['bol', shipment.id, '-o', join(work.dir, `whole-${mode}.pdf`)]);
    expect(bol.code, bol.stderr).toBe(0);
    const { readFile } = await import('node:fs/promises');
    const text = (await readPdf(new Uint8Array(await readFile(join(work.dir, `whole-${mode}.pdf`))))).pages[0]!.text;
    expect(text).toContain('Machine parts');
    expect(text).toContain('161030');

    // A -c line changes what it names; the rest of the quoted line stays.
    const second = await newQuote(mode);
    const changed = await json<Shipment>(mode, [
      'ship',
      '--quote',
      second.id,
      '--shipper',
      SHIPPER,
      '--consignee',
      CONSIGNEE,
      '-c',
      'pallets=2,weight=1200,dims=48x40x48,desc=Gear boxes',
    ]);
    expect(changed.orderComponents[0]).toMatchObject({ description: 'Gear boxes', nmfcCode: '161030', pieceCount: 10 });
    // Its freight must still be the quoted freight.
    const third = await newQuote(mode);
    const heavier = await cli(mode, ['ship', '--quote', third.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=2,weight=1300,dims=48x40x48,desc=Parts']);
    expect(heavier.code).toBe(1);
    expect(heavier.stderr).toMatch(/quoted 1200, sent 1300 \(orderComponents\[0\]\.poundsWeight\)/);
  });

  it('ship --quote with fewer -c than quoted lines changes those lines and carries the others whole', async () => {
    const oil = 'pallets=1,weight=500,dims=48x40x40,desc=Gear oil,nmfc=12345,pkg=drums,pieces=4';
    const quote = await json<Quote>(mode, ['quote', '--from', '60608', '--to', '10001', '-c', LINE, '-c', oil]);
    const shipment = await json<Shipment>(mode, [
      'ship',
      '--quote',
      quote.id,
      '--shipper',
      SHIPPER,
      '--consignee',
      CONSIGNEE,
      '-c',
      'pallets=2,weight=1200,dims=48x40x48,desc=Gear boxes',
    ]);
    expect(shipment.orderComponents.map((line) => [line.description, line.nmfcCode, line.packagingType, line.pieceCount, line.poundsWeight])).toEqual([
      ['Gear boxes', '161030', 'crates', 10, 1200],
      ['Gear oil', '12345', 'drums', 4, 500],
    ]);
  });

  it('books a quote once: a second booking is refused naming the order, --book-again books it, a cancelled booking frees it', async () => {
    const quote = await newQuote(mode);
    const first = await json<Shipment>(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    const again = await cli(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`quote ${quote.id} is already booked as ${first.orderNumber}`);
    const shown = await cli(mode, ['quote', 'get', quote.id]);
    expect(shown.stdout).toMatch(new RegExp(`Status\\s+booked as ${first.orderNumber}`));
    const twice = await json<Shipment>(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--book-again']);
    // Without a quote there is nothing to book again: a usage error, nothing booked.
    const without = await cli(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--book-again']);
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/--book-again books a quote \(--quote ID\)/);
    expect(twice.orderNumber).not.toBe(first.orderNumber);
    await json(mode, ['shipment', 'cancel', first.id]);
    await json(mode, ['shipment', 'cancel', twice.id]);
    const free = await json<Quote>(mode, ['quote', 'get', quote.id]);
    expect(free.status).toBe('OPEN');
    expect(free.bookings?.map((booking) => booking.orderStatus)).toEqual(['CANCELLED', 'CANCELLED']);
    const third = await json<Shipment>(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    expect(Number(third.orderNumber.slice(3))).toBeGreaterThan(Number(twice.orderNumber.slice(3)));
  });

  it('warns when an active shipment has the reference; a cancelled one does not count', async () => {
    const ref = `PO-DUP-${mode}`;
    const first = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', ref]);
    const second = await cli(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', ` ${ref.toLowerCase()}`, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`warning: [REFERENCE_TAKEN] refNumber  ${ref.toLowerCase()}`.replace('  ', ' '));
    expect(second.stderr).toContain(`is already booked as ${first.orderNumber}`);
    const secondShipment = JSON.parse(second.stdout) as Shipment;
    await json(mode, ['shipment', 'cancel', first.id]);
    await json(mode, ['shipment', 'cancel', secondShipment.id]);
    const third = await cli(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', ref]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain('already booked');
  });

  it('cancels: status and reason, lists show and filter it, twice answers the same, unknown is exit 4, the BOL says VOID', async () => {
    const shipment = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', `CXL-${mode}`]);
    const cancelled = await json<Shipment>(mode, ['shipment', 'cancel', shipment.id, '--reason', 'customer cancelled the order']);
    expect(cancelled).toMatchObject({
      orderStatus: 'CANCELLED',
      cancellationReason: 'customer cancelled the order',
      orderNumber: shipment.orderNumber,
      bolNumber: shipment.bolNumber,
    });
    expect(cancelled.cancelledAt).toMatch(/^2026-11-23T15:/);
    const again = await cli(mode, ['shipment', 'cancel', shipment.id, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(cancelled);
    expect(again.stderr).toMatch(/was already cancelled/);
    expect((await cli(mode, ['shipment', 'cancel', 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z'])).code).toBe(4);

    const listed = await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--status', 'cancelled', '--ref', `cxl-${mode}`]);
    expect(listed.items.map((item) => item.id)).toEqual([shipment.id]);
    expect((await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--status', 'booked', '--ref', `CXL-${mode}`])).items).toEqual([]);
    const table = await cli(mode, ['shipment', 'list', '--ref', `CXL-${mode}`]);
    expect(table.stdout).toMatch(new RegExp(`${shipment.orderNumber} │ CANCELLED`));
    expect((await cli(mode, ['shipment', 'list', '--status', 'gone'])).code).toBe(2);

    const file = join(work.dir, `void-${mode}.pdf`);
    expect((await cli(mode, ['bol', shipment.id, '-o', file])).code).toBe(0);
    const { readFile } = await import('node:fs/promises');
    expect((await readPdf(new Uint8Array(await readFile(file)))).pages[0]!.text).toMatch(/VOID/);
  });

  it('refuses a quote whose pickup day has passed, with the way out; --requote books the same freight on a new quote and says the difference', async () => {
    // A quote made last Wednesday for Thursday: still valid (a week), its pickup day gone.
    const store = mode === 'local' ? stores.local : stores.remote;
    const past = new LocalApi({ storeDir: store, now: () => new Date('2026-11-18T18:00:00Z') });
    const { data: old } = await past.createLaneQuote({
      pickupAddress: { zipCode: '60608' },
      deliveryAddress: { zipCode: '10001' },
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts' }],
    });
    expect(old.requiredPickupDate).toBe('2026-11-19');
    const refused = await cli(mode, ['ship', '--quote', old.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`quote ${old.id} is for pickup on 2026-11-19, which has passed (today is 2026-11-23 at the origin)`);
    expect(refused.stderr).toContain(`shipper ship --quote ${old.id} --requote`);
    const requoted = await cli(mode, ['ship', '--quote', old.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--requote', '--json']);
    expect(requoted.code, requoted.stderr).toBe(0);
    const shipment = JSON.parse(requoted.stdout) as Shipment;
    expect(shipment.quoteId).not.toBe(old.id);
    expect(shipment.requiredPickupDate).toBe('2026-11-24');
    expect(shipment.orderComponents[0]!.description).toBe('Machine parts');
    expect(requoted.stderr).toMatch(
      new RegExp(`requoted ${old.id} \\(\\$[\\d,.]+, pickup 2026-11-19\\) as qt_\\w+ \\(\\$[\\d,.]+, pickup 2026-11-24\\): (the same price|[+-]\\$[\\d,.]+)`),
    );
    // Its pickup day passed: no longer bookable, whatever the expiry says.
    const status = await json<Quote>(mode, ['quote', 'get', old.id]);
    expect(status.status).toBe('EXPIRED');
    expect((await cli(mode, ['quote', 'get', old.id])).stdout).toMatch(/Status\s+pickup day 2026-11-19 passed \(--requote\)/);
  });

  it('takes a shipment by its order number or BOL number, as printed, wherever it takes an id', async () => {
    const withPhone = (address: string, phone: string) => `${address},phone=${phone}`;
    const booked = await json<Shipment>(mode, [
      'ship',
      '--shipper',
      withPhone(SHIPPER, '312-555-0100'),
      '--consignee',
      withPhone(CONSIGNEE, '212-555-0100'),
      '-c',
      LINE,
      '--ref',
      `BY-NUMBER-${mode}`,
      '--carrier',
      'Old Dominion',
      '--scac',
      'ODFL',
    ]);
    const serial = Number(booked.orderNumber.slice(3));
    for (const typed of [booked.orderNumber, `so${serial}`, booked.bolNumber]) expect((await json<Shipment>(mode, ['shipment', 'get', typed])).id).toBe(booked.id);
    const outDir = join(work.dir, `by-number-${mode}`);
    const bol = await cli(mode, ['-q', 'bol', booked.orderNumber, '-o', `${outDir}/`]);
    expect(bol.code, bol.stderr).toBe(0);
    expect(bol.stdout.trim()).toBe(join(outDir, `BOL-${booked.orderNumber}.pdf`));
    expect((await readPdf(new Uint8Array(await readFile(bol.stdout.trim())))).pages[0]!.text).toContain(booked.bolNumber);
    expect((await cli(mode, ['invoice', booked.bolNumber, '--json'])).code).toBe(0);
    const tender = await cli(mode, ['tender', booked.orderNumber, '--format', 'ebol', '-o', join(outDir, 'tender.json')]);
    expect(tender.code, tender.stderr).toBe(0);
    expect((await cli(mode, ['labels', booked.orderNumber, '-o', join(outDir, 'labels.pdf')])).code).toBe(0);
    const cancelled = await json<Shipment>(mode, ['shipment', 'cancel', booked.bolNumber, '--reason', 'by BOL number']);
    expect(cancelled).toMatchObject({ id: booked.id, orderStatus: 'CANCELLED' });
    // A number no shipment has: not found, exit 4, naming it as typed.
    const unknown = await cli(mode, ['shipment', 'cancel', 'SO-999999']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toBe('shipper: shipment SO-999999 not found\n');
    expect((await cli(mode, ['shipment', 'get', '06141419999999999'])).code).toBe(4);
  });

  it('filters lists by day and destination, on the bounds', async () => {
    const before = await json<Shipment>(mode, [
      'ship',
      '--shipper',
      SHIPPER,
      '--consignee',
      withContact('name=Peach,address1=1 Peachtree St,city=Atlanta,state=GA,zip=30303'),
      '-c',
      LINE,
    ]);
    const day = before.createdAt.slice(0, 10);
    const ids = async (args: string[]) => (await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--limit', '500', ...args])).items.map((item) => item.id);
    expect(await ids(['--since', day, '--until', day, '--to', '30303'])).toContain(before.id);
    expect(await ids(['--to', '10001'])).not.toContain(before.id);
    expect(await ids(['--since', before.createdAt])).toContain(before.id);
    expect(await ids(['--since', new Date(Date.parse(before.createdAt) + 1).toISOString()])).not.toContain(before.id);
    expect(await ids(['--until', '2026-11-22'])).not.toContain(before.id);
    const notADay = await cli(mode, ['shipment', 'list', '--since', '2026-02-30']);
    expect(notADay.code).toBe(2);
    expect(notADay.stderr).toBe('shipper: --since: 2026-02-30 is not a real calendar date\n');
    // A period of one instant holds what was created at it; until a millisecond before since is refused, not an empty list.
    // (Each CLI run starts SHIPPER_NOW's clock again: other shipments of this file may share the instant.)
    const atInstant = (await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--limit', '500', '--since', before.createdAt, '--until', before.createdAt])).items;
    expect(atInstant.map((item) => item.id)).toContain(before.id);
    expect(atInstant.every((item) => item.createdAt === before.createdAt)).toBe(true);
    const swapped = await cli(mode, ['shipment', 'list', '--since', before.createdAt, '--until', new Date(Date.parse(before.createdAt) - 1).toISOString()]);
    expect(swapped.code).toBe(1);
    // Remote mode names the server's request id after the message.
    expect(swapped.stderr).toMatch(/^shipper: until \S+ is before since \S+: the period is empty \(until\)( \(request [0-9a-f-]{36}\))?\n$/);
    expect(/\(request /.test(swapped.stderr)).toBe(mode === 'remote');
    const swappedDays = await cli(mode, ['quote', 'list', '--since', '2026-11-24', '--until', '2026-11-23']);
    expect(swappedDays.code).toBe(1);
    expect(swappedDays.stderr).toContain('until 2026-11-23 is before since 2026-11-24');
    expect((await cli(mode, ['quote', 'list', '--since', '2026-11-23', '--until', '2026-11-23'])).code).toBe(0);
    const quotes = await json<{ items: Quote[] }>(mode, ['quote', 'list', '--status', 'open', '--to', '10001', '--limit', '500']);
    expect(quotes.items.every((quote) => quote.status === 'OPEN' && quote.deliveryAddress.zipCode === '10001')).toBe(true);
  });
});

describe('the pickup day ends at midnight at the origin', () => {
  it('books a quote at 23:59 of its pickup day in Los Angeles (07:59 UTC the next day) and refuses it at 00:00, as quote get says', async () => {
    const store = join(work.dir, 'pickup-day');
    const at = (instant: string, args: string[]) => runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: instant } });
    const la = withContact('name=West DC,address1=9450 Wilshire Blvd,city=Beverly Hills,state=CA,zip=90210');
    const newQuote = async () => {
      const made = await at('2026-11-23T15:00:00Z', ['quote', '--from', '90210', '--to', '10001', '-c', LINE, '--json']);
      expect(made.code, made.stderr).toBe(0);
      return JSON.parse(made.stdout) as Quote;
    };
    const [before, onTheBoundary] = [await newQuote(), await newQuote()];
    expect(before.requiredPickupDate).toBe('2026-11-24');
    // One moment, the last at which it can be booked: the end of its pickup day at the origin (before
    // its 48-hour lifetime), as quoteExpirationTime, the price line and the status all say.
    expect(before.quoteExpirationTime).toBe('2026-11-25T07:59:59.999Z');
    for (const instant of ['2026-11-23T15:00:00Z', '2026-11-25T07:59:00Z']) {
      const shown = (await at(instant, ['quote', 'get', before.id])).stdout;
      expect(shown).toMatch(/Price {5}\S+ {2}valid until Tue 2026-11-24 23:59 PST\n/);
      expect(shown).toMatch(/Status {4}open until Tue 2026-11-24 23:59 PST\n/);
      expect(shown).not.toMatch(/2026-11-30|through its pickup day/);
    }
    const booked = await at('2026-11-25T07:59:00Z', ['ship', '--quote', before.id, '--shipper', la, '--consignee', CONSIGNEE, '--json']);
    expect(booked.code, booked.stderr).toBe(0);
    expect((JSON.parse(booked.stdout) as Shipment).requiredPickupDate).toBe('2026-11-24');

    expect((await at('2026-11-25T08:00:00Z', ['quote', 'get', onTheBoundary.id])).stdout).toMatch(/Status {4}pickup day 2026-11-24 passed \(--requote\)/);
    const refused = await at('2026-11-25T08:00:00Z', ['ship', '--quote', onTheBoundary.id, '--shipper', la, '--consignee', CONSIGNEE]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`quote ${onTheBoundary.id} is for pickup on 2026-11-24, which has passed (today is 2026-11-25 at the origin)`);
    // A pickup day after the expiry: the expiry is when it closes.
    const later = await at('2026-11-23T15:00:00Z', ['quote', '--from', '90210', '--to', '10001', '--pickup-date', '2026-11-30', '-c', LINE, '--json']);
    const laterId = (JSON.parse(later.stdout) as Quote).id;
    expect((await at('2026-11-23T15:00:00Z', ['quote', 'get', laterId])).stdout).toMatch(/Status {4}open until Wed 2026-11-25 07:00 PST/);

    // quote list says each state in its Status column: booked as which order, pickup day passed, open until, expired.
    const statusOf = (listing: string, id: string) =>
      listing
        .split('\n')
        .find((row) => row.includes(id))
        ?.split('│')
        .at(-2)
        ?.trim();
    const listed = (await at('2026-11-25T08:00:00Z', ['quote', 'list'])).stdout;
    const order = (JSON.parse(booked.stdout) as Shipment).orderNumber;
    expect([before.id, onTheBoundary.id, laterId].map((id) => statusOf(listed, id))).toEqual([
      `booked as ${order}`,
      'pickup day 2026-11-24 passed (--requote)',
      'open until Wed 2026-11-25 07:00 PST',
    ]);
    expect(statusOf((await at('2026-11-25T15:01:00Z', ['quote', 'list'])).stdout, laterId)).toBe('expired Wed 2026-11-25 07:00 PST');
  });
});

describe('BOL company prefix', () => {
  it("warns once per booking under GS1's documentation prefix, and not under the user's own; a bad prefix is a usage error", async () => {
    const store = join(work.dir, 'prefix');
    const ship = (env: Record<string, string> = {}) =>
      runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: { ...NOW, ...env } });
    const documentation = await ship();
    expect(documentation.stderr).toBe(`warning: [DOCUMENTATION_PREFIX] ${DOCUMENTATION_PREFIX_WARNING}\n`);
    const own = await ship({ SHIPPER_BOL_COMPANY_PREFIX: '0812345678' });
    expect(own.stderr).toBe('');
    const shipment = JSON.parse(own.stdout) as Shipment;
    expect(shipment.bolNumber.startsWith('0812345678')).toBe(true);
    expect(isValidBolNumber(shipment.bolNumber)).toBe(true);
    expect(shipment.ssccs[0]!.slice(1, 11)).toBe('0812345678');
    const bad = await ship({ SHIPPER_BOL_COMPANY_PREFIX: '081234' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/7 to 10 digits/);
  });

  it('comes from the config file (config set), refused there off 7 to 10 digits; the environment beats it', async () => {
    const config = join(work.dir, 'prefix-config');
    const store = join(work.dir, 'prefix-config-store');
    const run = (args: string[], env: Record<string, string> = {}) => runInProcess(['--store', store, ...args], { env: { ...NOW, SHIPPER_CONFIG_DIR: config, ...env } });
    for (const bad of ['081234', '08123456789', '0812a45']) {
      const refused = await run(['config', 'set', 'bolCompanyPrefix', bad]);
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toMatch(/7 to 10 digits/);
    }
    expect((await run(['config', 'set', 'bolCompanyPrefix', '0812345'])).code).toBe(0);
    const ship = (env: Record<string, string> = {}) => run(['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], env);
    const seven = await ship();
    expect(seven.stderr).toBe('');
    // Seven digits of prefix leave nine of serial.
    expect((JSON.parse(seven.stdout) as Shipment).bolNumber.slice(0, 16)).toBe('0812345000000001');
    const fromEnv = await ship({ SHIPPER_BOL_COMPANY_PREFIX: '0812345678' });
    expect((JSON.parse(fromEnv.stdout) as Shipment).bolNumber.slice(0, 16)).toBe('0812345678000002');
  });

  it('under a ten-digit prefix the sixth serial digit is the last: SO-999999 is booked, the next is refused with nothing written', async () => {
    const store = join(work.dir, 'prefix-full');
    const env = { ...NOW, SHIPPER_BOL_COMPANY_PREFIX: '0812345678' };
    const ship = () => runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env });
    expect((await ship()).code).toBe(0);
    for (const file of [join(store, 'counters', 'orders.json'), join(store, 'shipments', '.orders.high-water.json')]) await writeFile(file, JSON.stringify({ last: 999_998 }));
    const last = JSON.parse((await ship()).stdout) as Shipment;
    expect(last.orderNumber).toBe('SO-999999');
    expect(last.bolNumber).toBe('08123456789999992');
    const refused = await ship();
    expect(refused.code).toBe(5);
    expect(refused.stderr).toBe(
      'shipper: BOL numbers under company prefix 0812345678 have 6 digits of serial, and 999999 are used; a longer prefix leaves fewer, a shorter one more\n',
    );
    expect(await storedShipmentIds(store)).toHaveLength(2);
    // A shorter prefix leaves room: the numbers go on above.
    const shorter = await runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], {
      env: { ...NOW, SHIPPER_BOL_COMPANY_PREFIX: '081234567' },
    });
    expect((JSON.parse(shorter.stdout) as Shipment).bolNumber.slice(0, 16)).toBe('0812345671000000');
  });

  it('shipper serve --bol-company-prefix: the server issues numbers under it (over the environment), without the warning; a bad one is a usage error', async () => {
    const served = await startServe({
      store: join(work.dir, 'prefix-served'),
      env: { ...NOW, SHIPPER_BOL_COMPANY_PREFIX: '0999999' },
      serveArgs: ['--bol-company-prefix', '0812345'],
    });
    try {
      const booked = await runInProcess(['--base-url', served.url, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: NOW, cwd: work.dir });
      expect(booked.code, booked.stderr).toBe(0);
      expect(booked.stderr).toBe('');
      expect((JSON.parse(booked.stdout) as Shipment).bolNumber.slice(0, 16)).toBe('0812345000000001');
      expect(served.stderr()).not.toContain('documentation prefix');
    } finally {
      await served.stop();
    }
    const documentation = await startServe({ store: join(work.dir, 'prefix-served-doc'), env: NOW });
    try {
      // Each client is told with each booking; the server says it once on its own stderr.
      const booked = await runInProcess(['--base-url', documentation.url, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], {
        env: NOW,
        cwd: work.dir,
      });
      expect(booked.stderr).toBe(`warning: [DOCUMENTATION_PREFIX] ${DOCUMENTATION_PREFIX_WARNING}\n`);
    } finally {
      await documentation.stop();
    }
    expect(documentation.stderr().split(DOCUMENTATION_PREFIX_WARNING)).toHaveLength(2);
    for (const bad of ['081234', '08123456789']) {
      // A start-up error (it never listens): in process, as in test/cli/serve.test.ts.
      const refused = await runInProcess(['--store', join(work.dir, 'prefix-bad'), 'serve', '--port', '0', '--bol-company-prefix', bad], { env: NOW });
      expect(refused.code, bad).toBe(2);
      expect(refused.stderr).toMatch(/7 to 10 digits/);
    }
  });
});

describe('counters never go back', () => {
  it('continues above every number in the store when the counter file is deleted or lowered, when both counter and mark are gone, lowered, or the one lowered and the other gone', async () => {
    const store = join(work.dir, 'counters');
    const ship = async () =>
      JSON.parse((await runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: NOW })).stdout) as Shipment;
    const serial = (shipment: Shipment) => Number(shipment.orderNumber.slice(3));
    for (let i = 0; i < 3; i++) await ship();
    await rm(join(store, 'counters', 'orders.json'));
    expect(serial(await ship())).toBe(4);
    await writeFile(join(store, 'counters', 'orders.json'), JSON.stringify({ last: 1 }));
    expect(serial(await ship())).toBe(5);
    await rm(join(store, 'counters'), { recursive: true });
    await rm(join(store, 'shipments', '.orders.high-water.json'));
    expect(serial(await ship())).toBe(6);
    // A lowered counter whose mark is gone (shipments copied without their dot files).
    await writeFile(join(store, 'counters', 'orders.json'), JSON.stringify({ last: 1 }));
    await rm(join(store, 'shipments', '.orders.high-water.json'));
    expect(serial(await ship())).toBe(7);
    // Counter and mark both restored from an older backup over newer shipments.
    await writeFile(join(store, 'counters', 'orders.json'), JSON.stringify({ last: 2 }));
    await writeFile(join(store, 'shipments', '.orders.high-water.json'), JSON.stringify({ last: 2 }));
    expect(serial(await ship())).toBe(8);
    const bols = (await Promise.all((await storedShipmentIds(store)).map(async (id) => (await runInProcess(['--store', store, 'shipment', 'get', id, '--json'])).stdout))).map(
      (text) => (JSON.parse(text) as Shipment).bolNumber,
    );
    expect(new Set(bols).size).toBe(8);
  });
});

describe('counters across processes', () => {
  it('hands distinct numbers, above every one in the store, to processes booking at once after the counter file was deleted, and after counter and mark were lowered', async () => {
    const store = join(work.dir, 'processes');
    const args = ['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'];
    const ship = () => runCli(args, { env: NOW });
    // The bookings before the race need no process of their own.
    const before = [await runInProcess(args, { env: NOW }), await runInProcess(args, { env: NOW })].map((result) => JSON.parse(result.stdout) as Shipment);
    await rm(join(store, 'counters', 'orders.json'));
    const racing = await Promise.all(Array.from({ length: 6 }, ship));
    const numbers = racing.map((result) => {
      expect(result.code, result.stderr).toBe(0);
      return Number((JSON.parse(result.stdout) as Shipment).orderNumber.slice(3));
    });
    expect(new Set(numbers).size).toBe(6);
    expect(Math.min(...numbers)).toBeGreaterThan(Math.max(...before.map((shipment) => Number(shipment.orderNumber.slice(3)))));

    // Then counter and mark restored from an older backup (both at 1) over the newer shipments.
    await writeFile(join(store, 'counters', 'orders.json'), JSON.stringify({ last: 1 }));
    await writeFile(join(store, 'shipments', '.orders.high-water.json'), JSON.stringify({ last: 1 }));
    const after = await Promise.all(Array.from({ length: 4 }, ship));
    const later = after.map((result) => {
      expect(result.code, result.stderr).toBe(0);
      return Number((JSON.parse(result.stdout) as Shipment).orderNumber.slice(3));
    });
    expect(new Set(later).size).toBe(4);
    expect(Math.min(...later)).toBeGreaterThan(Math.max(...numbers));
  });
});

describe('booked once across processes', () => {
  it('processes booking one quote at once: exactly one books it, the others are refused naming its order', async () => {
    const store = join(work.dir, 'quote-race');
    const quote = JSON.parse((await runInProcess(['--store', store, 'quote', '--from', '60608', '--to', '10001', '-c', LINE, '--json'], { env: NOW })).stdout) as Quote;
    const racing = await Promise.all(
      Array.from({ length: 4 }, () =>
        runCli(['--store', store, 'ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--json'], {
          env: { ...NOW, SHIPPER_BOL_COMPANY_PREFIX: '0812345' },
        }),
      ),
    );
    const booked = racing.filter((result) => result.code === 0);
    expect(booked).toHaveLength(1);
    const { orderNumber } = JSON.parse(booked[0]!.stdout) as Shipment;
    for (const refused of racing.filter((result) => result.code !== 0)) {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`quote ${quote.id} is already booked as ${orderNumber}`);
    }
  });
});

describe.each(MODES)('import, %s mode', (mode) => {
  const header = csvLine(HEADER);
  const rows = (refs: string[], delimiter = ',') => refs.map((ref) => csvLine(rowCells(ref, true), delimiter));

  it('recognises orders, not file bytes: the same orders re-exported with a row more, with ;, CRLF, in another order book only the new one', async () => {
    const run = async (name: string, text: string) => {
      await writeFile(join(work.dir, name), text);
      const result = await cli(mode, ['import', join(work.dir, name), '--json']);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { summary: { booked: number; alreadyBooked: number } }).summary;
    };
    const [r1, r2, r3] = ['R-1', 'R-2', 'R-3'].map((ref) => `${ref}-${mode}`) as [string, string, string];
    expect(await run(`a-${mode}.csv`, [header, ...rows([r1, r2])].join('\n'))).toMatchObject({ booked: 2, alreadyBooked: 0 });
    expect(await run(`b-${mode}.csv`, [header, ...rows([r2, r1, r3])].join('\r\n'))).toMatchObject({ booked: 1, alreadyBooked: 2 });
    expect(await run(`c-${mode}.csv`, [csvLine(HEADER, ';'), ...rows([r3, r1, r2], ';')].join('\n'))).toMatchObject({ booked: 0, alreadyBooked: 3 });
    const dry = await cli(mode, ['import', join(work.dir, `c-${mode}.csv`), '--dry-run']);
    expect(dry.stdout).toMatch(/3 shipments already booked by an earlier import of the same orders: would not be booked again/);
  });

  it('refuses a reference an active shipment has (dry run lists it), books it with --allow-duplicate-ref', async () => {
    const [po77, po78] = [`PO-77-${mode}`, `PO-78-${mode}`];
    const booked = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', po77]);
    const file = join(work.dir, `refs-${mode}.csv`);
    await writeFile(file, [header, ...rows([po77, po78])].join('\n'));
    const dry = await cli(mode, ['import', file, '--dry-run']);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain(`line 2, column refNumber (refNumber): ${po77} is already booked as ${booked.orderNumber}`);
    const refused = await cli(mode, ['import', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`line 2, column refNumber (refNumber): ${po77} is already booked as ${booked.orderNumber}`);
    const allowed = await cli(mode, ['import', file, '--allow-duplicate-ref', '--json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).summary).toMatchObject({ booked: 2 });
    expect(allowed.stderr).toContain('already booked as');
    // Run again without the flag: the same orders, recognised, not refused as duplicates of themselves.
    const again = await cli(mode, ['import', file, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).summary).toMatchObject({ booked: 0, alreadyBooked: 2 });

    // A cancelled shipment's reference is free again: imported by default, without a word about it.
    const po79 = `PO-79-${mode}`;
    const cancelled = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', po79]);
    await json(mode, ['shipment', 'cancel', cancelled.id]);
    const freed = join(work.dir, `freed-${mode}.csv`);
    await writeFile(freed, [header, ...rows([po79])].join('\n'));
    const imported = await cli(mode, ['import', freed, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ booked: 1 });
    expect(imported.stderr).not.toContain('already booked');
  });

  it('refuses rows of one shipment that are not next to each other, naming the lines, and books none of that shipment', async () => {
    const file = join(work.dir, `split-${mode}.csv`);
    const [s1, s2, s3] = ['S-1', 'S-2', 'S-3'].map((ref) => `${ref}-${mode}`) as [string, string, string];
    const lines = [header, csvLine(rowCells(s1, true)), csvLine(rowCells(s2, true)), csvLine(rowCells(s1, false)), csvLine(rowCells(s3, true))];
    await writeFile(file, lines.join('\n'));
    const refused = await cli(mode, ['import', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`the rows of refNumber ${s1} are not next to each other (line 2, then line 4)`);
    const skipped = await cli(mode, ['import', file, '--skip-invalid', '--json']);
    expect(skipped.code).toBe(1);
    const document = JSON.parse(skipped.stdout) as { shipments: Array<{ refNumber: string }> };
    expect(document.shipments.map((entry) => entry.refNumber).sort()).toEqual([s2, s3]);
    expect((await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--ref', s1])).items).toEqual([]);
  });
});
