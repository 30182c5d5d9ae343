/**
 * Booked once and reversible, through the CLI in both modes (in process; remote against a real
 * `shipper serve`): ship --quote carries the quoted lines whole, a quote is booked once, references
 * warn, cancellation, list filters and statuses, the BOL company prefix, re-imports recognised by
 * their orders, rows of one shipment apart in the file.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
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

const NOW = { SHIPPER_NOW: '2026-11-23T15:00:00Z' };
const SHIPPER = 'name=Acme DC,street1=2100 S Halsted St,city=Chicago,state=IL,zip=60608';
const CONSIGNEE = 'name=Store 12,street1=1 Penn Plaza,city=New York,state=NY,zip=10001';
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
    expect(shipment.orderComponents[0]).toMatchObject({ description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 10, palletCount: 2, poundsWeight: 1200 });
    const bol = await cli(mode, ['bol', shipment.id, '-o', join(work.dir, `whole-${mode}.pdf`)]);
    expect(bol.code, bol.stderr).toBe(0);
    const { readFile } = await import('node:fs/promises');
    const text = (await readPdf(new Uint8Array(await readFile(join(work.dir, `whole-${mode}.pdf`))))).pages[0]!.text;
    expect(text).toContain('Machine parts');
    expect(text).toContain('161030');

    // A -c line changes what it names; the rest of the quoted line stays.
    const second = await newQuote(mode);
    const changed = await json<Shipment>(mode, ['ship', '--quote', second.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Gear boxes']);
    expect(changed.orderComponents[0]).toMatchObject({ description: 'Gear boxes', nmfcCode: '161030', pieceCount: 10 });
    // Its freight must still be the quoted freight.
    const third = await newQuote(mode);
    const heavier = await cli(mode, ['ship', '--quote', third.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=2,weight=1300,dims=48x40x48']);
    expect(heavier.code).toBe(1);
    expect(heavier.stderr).toMatch(/quoted 1200, sent 1300 \(orderComponents\[0\]\.poundsWeight\)/);
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
    expect(twice.orderNumber).not.toBe(first.orderNumber);
    await json(mode, ['shipment', 'cancel', first.id]);
    await json(mode, ['shipment', 'cancel', twice.id]);
    const free = await json<Quote>(mode, ['quote', 'get', quote.id]);
    expect(free.status).toBe('OPEN');
    expect(free.bookings?.map((booking) => booking.status)).toEqual(['CANCELLED', 'CANCELLED']);
    const third = await json<Shipment>(mode, ['ship', '--quote', quote.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    expect(Number(third.orderNumber.slice(3))).toBeGreaterThan(Number(twice.orderNumber.slice(3)));
  });

  it('warns when an active shipment has the reference; a cancelled one does not count', async () => {
    const ref = `PO-DUP-${mode}`;
    const first = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', ref]);
    const second = await cli(mode, ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', ` ${ref.toLowerCase()}`, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`warning: refNumber  ${ref.toLowerCase()}`.replace('  ', ' '));
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
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationReason: 'customer cancelled the order', orderNumber: shipment.orderNumber, bolNumber: shipment.bolNumber });
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
    const { data: old } = await past.createQuote({ origin: { postalCode: '60608' }, destination: { postalCode: '10001' }, orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 }, description: 'Machine parts' }] });
    expect(old.pickupDate).toBe('2026-11-19');
    const refused = await cli(mode, ['ship', '--quote', old.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`quote ${old.id} is for pickup on 2026-11-19, which has passed (today is 2026-11-23 at the origin)`);
    expect(refused.stderr).toContain(`shipper ship --quote ${old.id} --requote`);
    const requoted = await cli(mode, ['ship', '--quote', old.id, '--shipper', SHIPPER, '--consignee', CONSIGNEE, '--requote', '--json']);
    expect(requoted.code, requoted.stderr).toBe(0);
    const shipment = JSON.parse(requoted.stdout) as Shipment;
    expect(shipment.quoteId).not.toBe(old.id);
    expect(shipment.pickupDate).toBe('2026-11-24');
    expect(shipment.orderComponents[0]!.description).toBe('Machine parts');
    expect(requoted.stderr).toMatch(new RegExp(`requoted ${old.id} \\(\\$[\\d,.]+, pickup 2026-11-19\\) as qt_\\w+ \\(\\$[\\d,.]+, pickup 2026-11-24\\): (the same price|[+-]\\$[\\d,.]+)`));
    // Its pickup day passed: no longer bookable, whatever the expiry says.
    const status = await json<Quote>(mode, ['quote', 'get', old.id]);
    expect(status.status).toBe('EXPIRED');
    expect((await cli(mode, ['quote', 'get', old.id])).stdout).toMatch(/Status\s+pickup day 2026-11-19 passed \(--requote\)/);
  });

  it('filters lists by day and destination, on the bounds', async () => {
    const before = await json<Shipment>(mode, ['ship', '--shipper', SHIPPER, '--consignee', 'name=Peach,street1=1 Peachtree St,city=Atlanta,state=GA,zip=30303', '-c', LINE]);
    const day = before.createdAt.slice(0, 10);
    const ids = async (args: string[]) => (await json<{ items: Shipment[] }>(mode, ['shipment', 'list', '--limit', '500', ...args])).items.map((item) => item.id);
    expect(await ids(['--since', day, '--until', day, '--to', '30303'])).toContain(before.id);
    expect(await ids(['--to', '10001'])).not.toContain(before.id);
    expect(await ids(['--since', before.createdAt])).toContain(before.id);
    expect(await ids(['--since', new Date(Date.parse(before.createdAt) + 1).toISOString()])).not.toContain(before.id);
    expect(await ids(['--until', '2026-11-22'])).not.toContain(before.id);
    expect((await cli(mode, ['shipment', 'list', '--since', '2026-02-30'])).code).toBe(1);
    const quotes = await json<{ items: Quote[] }>(mode, ['quote', 'list', '--status', 'open', '--to', '10001', '--limit', '500']);
    expect(quotes.items.every((quote) => quote.status === 'OPEN' && quote.destination.postalCode === '10001')).toBe(true);
  });
});

describe('BOL company prefix', () => {
  it('warns once per booking under GS1\'s documentation prefix, and not under the user\'s own; a bad prefix is a usage error', async () => {
    const store = join(work.dir, 'prefix');
    const ship = (env: Record<string, string> = {}) => runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: { ...NOW, ...env } });
    const documentation = await ship();
    expect(documentation.stderr).toBe(`warning: ${DOCUMENTATION_PREFIX_WARNING}\n`);
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
});

describe('counters never go back', () => {
  it('continues above every number in the store when the counter file is deleted or lowered, and when both counter and mark are gone', async () => {
    const store = join(work.dir, 'counters');
    const ship = async () => JSON.parse((await runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: NOW })).stdout) as Shipment;
    const serial = (shipment: Shipment) => Number(shipment.orderNumber.slice(3));
    for (let i = 0; i < 3; i++) await ship();
    await rm(join(store, 'counters', 'orders.json'));
    expect(serial(await ship())).toBe(4);
    await writeFile(join(store, 'counters', 'orders.json'), JSON.stringify({ last: 1 }));
    expect(serial(await ship())).toBe(5);
    await rm(join(store, 'counters'), { recursive: true });
    await rm(join(store, 'shipments', '.orders.high-water.json'));
    expect(serial(await ship())).toBe(6);
    const bols = (await Promise.all((await readdir(join(store, 'shipments'))).filter((name) => name.startsWith('sh_')).map(async (name) => (await runInProcess(['--store', store, 'shipment', 'get', name.slice(0, -5), '--json'])).stdout))).map((text) => (JSON.parse(text) as Shipment).bolNumber);
    expect(new Set(bols).size).toBe(6);
  });
});

describe('counters across processes', () => {
  it('hands distinct numbers, above every one in the store, to processes booking at once after the counter file was deleted', async () => {
    const store = join(work.dir, 'processes');
    const ship = () => runCli(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--json'], { env: NOW });
    const before = [await ship(), await ship()].map((result) => JSON.parse(result.stdout) as Shipment);
    await rm(join(store, 'counters', 'orders.json'));
    const racing = await Promise.all(Array.from({ length: 6 }, ship));
    const numbers = racing.map((result) => {
      expect(result.code, result.stderr).toBe(0);
      return Number((JSON.parse(result.stdout) as Shipment).orderNumber.slice(3));
    });
    expect(new Set(numbers).size).toBe(6);
    expect(Math.min(...numbers)).toBeGreaterThan(Math.max(...before.map((shipment) => Number(shipment.orderNumber.slice(3)))));
  });
});

describe('import', () => {
  const header = csvLine(HEADER);
  const rows = (refs: string[], delimiter = ',') => refs.map((ref) => csvLine(rowCells(ref, true), delimiter));

  it('recognises orders, not file bytes: the same orders re-exported with a row more, with ;, CRLF, in another order book only the new one', async () => {
    const store = join(work.dir, 'reimport');
    const run = async (name: string, text: string) => {
      await writeFile(join(work.dir, name), text);
      const result = await runInProcess(['--store', store, 'import', join(work.dir, name), '--json'], { env: NOW });
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { summary: { booked: number; alreadyBooked: number } }).summary;
    };
    expect(await run('a.csv', [header, ...rows(['R-1', 'R-2'])].join('\n'))).toMatchObject({ booked: 2, alreadyBooked: 0 });
    expect(await run('b.csv', [header, ...rows(['R-2', 'R-1', 'R-3'])].join('\r\n'))).toMatchObject({ booked: 1, alreadyBooked: 2 });
    expect(await run('c.csv', [csvLine(HEADER, ';'), ...rows(['R-3', 'R-1', 'R-2'], ';')].join('\n'))).toMatchObject({ booked: 0, alreadyBooked: 3 });
    const dry = await runInProcess(['--store', store, 'import', join(work.dir, 'c.csv'), '--dry-run'], { env: NOW });
    expect(dry.stdout).toMatch(/3 shipments already booked by an earlier import of the same orders: would not be booked again/);
  });

  it('refuses a reference an active shipment has (dry run lists it), books it with --allow-duplicate-ref', async () => {
    const store = join(work.dir, 'refs');
    const booked = JSON.parse((await runInProcess(['--store', store, 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', LINE, '--ref', 'PO-77', '--json'], { env: NOW })).stdout) as Shipment;
    const file = join(work.dir, 'refs.csv');
    await writeFile(file, [header, ...rows(['PO-77', 'PO-78'])].join('\n'));
    const dry = await runInProcess(['--store', store, 'import', file, '--dry-run'], { env: NOW });
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain(`line 2, column refNumber (refNumber): PO-77 is already booked as ${booked.orderNumber}`);
    const refused = await runInProcess(['--store', store, 'import', file], { env: NOW });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`line 2, column refNumber (refNumber): PO-77 is already booked as ${booked.orderNumber}`);
    const allowed = await runInProcess(['--store', store, 'import', file, '--allow-duplicate-ref', '--json'], { env: NOW });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout).summary).toMatchObject({ booked: 2 });
    expect(allowed.stderr).toContain('already booked as');
  });

  it('refuses rows of one shipment that are not next to each other, naming the lines, and books none of that shipment', async () => {
    const store = join(work.dir, 'split');
    const file = join(work.dir, 'split.csv');
    const lines = [header, csvLine(rowCells('S-1', true)), csvLine(rowCells('S-2', true)), csvLine(rowCells('S-1', false)), csvLine(rowCells('S-3', true))];
    await writeFile(file, lines.join('\n'));
    const refused = await runInProcess(['--store', store, 'import', file], { env: NOW });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the rows of refNumber S-1 are not next to each other (line 2, then line 4)');
    const skipped = await runInProcess(['--store', store, 'import', file, '--skip-invalid', '--json'], { env: NOW });
    expect(skipped.code).toBe(1);
    const document = JSON.parse(skipped.stdout) as { shipments: Array<{ refNumber: string }> };
    expect(document.shipments.map((entry) => entry.refNumber).sort()).toEqual(['S-2', 'S-3']);
  });
});
