/**
 * -q/--quiet for scripts: the ids of what was created (quote, ship, import, lists), the path of
 * what was written (bol, labels, tender, invoice -o), nothing else on stdout; --json wins over -q.
 */
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHICAGO_DC_FLAGS, withContact } from '../helpers/fixtures.js';
import { ROOT, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';

const NOW = '2026-11-23T15:00:00Z';
const QUOTE_ID = /^qt_[0-9A-Z]{26}$/;
const SHIPMENT_ID = /^sh_[0-9A-Z]{26}$/;
const LANE = ['--from', '60608', '--to', '10001', '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts'];
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001,phone=212-555-0199');

let dir: string;
let cleanup: () => Promise<void>;
let store: string;
const run = (args: string[], options: { input?: string; cwd?: string } = {}) =>
  runInProcess(['--store', store, ...args], { env: { SHIPPER_NOW: NOW, SHIPPER_BOL_COMPANY_PREFIX: '0614141' }, ...options });
const lines = (text: string) => text.split('\n').filter(Boolean);

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-quiet-'));
  store = join(dir, 'store');
  const saved = await run(['-q', 'location', 'add', 'chicago-dc', ...CHICAGO_DC_FLAGS, '--phone', '312-555-0100', '--contact', 'Dana Ruiz']);
  // location add -q: the name, which is what later commands take.
  expect(saved).toMatchObject({ code: 0, stdout: 'chicago-dc\n' });
});
afterAll(() => cleanup());

describe('-q prints the id of what was created', () => {
  it('quote: the quote id alone, one line, the id of a quote that exists (Q=$(shipper -q quote ...))', async () => {
    const quote = await run(['-q', 'quote', ...LANE]);
    expect(quote.code).toBe(0);
    expect(quote.stdout).toMatch(/^qt_[0-9A-Z]{26}\n$/);
    const got = await run(['quote', 'get', quote.stdout.trim(), '--json']);
    expect(JSON.parse(got.stdout).id).toBe(quote.stdout.trim());
    // The long flag is the same flag.
    expect((await run(['--quiet', 'quote', ...LANE])).stdout).toMatch(/^qt_[0-9A-Z]{26}\n$/);
  });

  it('--json wins over -q, whichever comes first: the document a script asked for', async () => {
    for (const args of [
      ['-q', '--json', 'quote', ...LANE],
      ['--json', 'quote', ...LANE, '-q'],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ id: expect.stringMatching(QUOTE_ID), quotedPriceInCents: expect.any(Number) });
    }
  });

  it('ship: the shipment id alone, on a quote and in one step; a replayed key gives the same id', async () => {
    const quoteId = (await run(['-q', 'quote', ...LANE])).stdout.trim();
    const onQuote = await run(['-q', 'ship', '--quote', quoteId, '--shipper', 'chicago-dc', '--consignee', CONSIGNEE]);
    expect(onQuote.code).toBe(0);
    expect(lines(onQuote.stdout)).toEqual([expect.stringMatching(SHIPMENT_ID)]);
    const oneStep = ['-q', 'ship', '--shipper', 'chicago-dc', '--consignee', CONSIGNEE, '-c', 'pallets=1,weight=400,dims=48x40x40,desc=Parts', '--idempotency-key', 'quiet-1'];
    const first = await run(oneStep);
    const again = await run(oneStep);
    expect(first.stdout).toMatch(/^sh_[0-9A-Z]{26}\n$/);
    expect(again).toMatchObject({ code: 0, stdout: first.stdout });
    const shown = await run(['shipment', 'get', first.stdout.trim(), '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: first.stdout.trim(), orderStatus: 'CONFIRMED' });
  });

  it('a usage error with -q is still one line on stderr and exit 2, nothing on stdout', async () => {
    const result = await run(['-q', 'ship', '--shipper', 'chicago-dc']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^shipper: missing --consignee/);
  });

  it('import: one id per shipment of the file as it is booked; again, the same ids (already booked); --dry-run: none', async () => {
    const file = join(dir, 'orders.csv');
    await copyFile(join(ROOT, 'templates/import/shipments-sample.csv'), file);
    const dry = await run(['-q', 'import', file, '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stdout: '' });
    const booked = await run(['-q', 'import', file]);
    expect(booked.code).toBe(0);
    const ids = lines(booked.stdout);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(SHIPMENT_ID);
    // The file's three shipments, in its order (ids are not compared by age: every run restarts SHIPPER_NOW's clock).
    const refs = await Promise.all(ids.map(async (id) => (JSON.parse((await run(['shipment', 'get', id, '--json'])).stdout) as { refNumber: string | null }).refNumber));
    expect(refs).toEqual(['PO-4711', 'PO-4712', null]);
    const again = await run(['-q', 'import', file]);
    expect(again).toMatchObject({ code: 0, stdout: booked.stdout });
    // --json wins here too: the streamed document, with the same ids.
    const json = await run(['-q', 'import', file, '--json']);
    expect((JSON.parse(json.stdout) as { shipments: Array<{ id: string }> }).shipments.map((shipment) => shipment.id)).toEqual(ids);
  });

  it('import of a file with an invalid row: nothing on stdout, the problem on stderr, exit 1', async () => {
    const file = join(dir, 'bad.csv');
    const text = await readFile(join(ROOT, 'templates/import/shipments-sample.csv'), 'utf8');
    await writeFile(file, text.replace('PO-4712,,,,,Acme Chicago DC', 'PO-4799,,,,,Acme Chicago DC').replace(',4,3200,48,40,60,', ',4,heavy,48,40,60,'));
    const result = await run(['-q', 'import', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/poundsWeight/);
  });

  it('lists: the ids of the page, newest first, as --json lists them; an empty list prints nothing', async () => {
    const json = JSON.parse((await run(['shipment', 'list', '--json', '--limit', '4'])).stdout) as { items: Array<{ id: string }> };
    const quiet = await run(['-q', 'shipment', 'list', '--limit', '4']);
    expect(quiet.code).toBe(0);
    expect(lines(quiet.stdout)).toEqual(json.items.map((item) => item.id));
    const quotes = await run(['-q', 'quote', 'list', '--limit', '2']);
    expect(lines(quotes.stdout)).toEqual([expect.stringMatching(QUOTE_ID), expect.stringMatching(QUOTE_ID)]);
    const none = await run(['-q', 'shipment', 'list', '--ref', 'NO-SUCH-REF']);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    // Saved locations: their names, what --shipper takes.
    expect(await run(['-q', 'location', 'list'])).toMatchObject({ code: 0, stdout: 'chicago-dc\n' });
  });

  it('shipment update and cancel: the id', async () => {
    const id = lines((await run(['-q', 'shipment', 'list', '--limit', '1'])).stdout)[0]!;
    expect(await run(['-q', 'shipment', 'update', id, '--pro', '1234567897'])).toMatchObject({ code: 0, stdout: `${id}\n` });
    expect(await run(['-q', 'shipment', 'cancel', id, '--reason', 'test'])).toMatchObject({ code: 0, stdout: `${id}\n` });
  });
});

describe('-q prints the path of what was written', () => {
  let id: string;
  let orderNumber: string;
  beforeAll(async () => {
    id = (await run(['-q', 'ship', '--shipper', 'chicago-dc', '--consignee', CONSIGNEE, '-c', 'pallets=2,weight=900,dims=48x40x48,desc=Machine parts'])).stdout.trim();
    orderNumber = JSON.parse((await run(['shipment', 'get', id, '--json'])).stdout).orderNumber as string;
  });

  it('bol: the PDF path, one per shipment', async () => {
    const out = join(dir, 'bols');
    const result = await run(['-q', 'bol', id, '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${join(out, `BOL-${orderNumber}.pdf`)}\n`);
    expect((await readFile(result.stdout.trim())).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('labels and tender: the file path; with -o - the bytes alone', async () => {
    const labels = await run(['-q', 'labels', id], { cwd: dir });
    expect(labels.code).toBe(0);
    expect(labels.stdout).toBe(`${join(dir, `labels-${orderNumber}.pdf`)}\n`);
    expect((await stat(labels.stdout.trim())).size).toBeGreaterThan(1000);
    const zpl = await run(['-q', 'labels', id, '--format', 'zpl', '-o', '-']);
    expect(zpl.stdout.startsWith('^XA')).toBe(true);
    expect(zpl.stdout).not.toContain(dir);
    const tender = await run(['-q', 'tender', id, '--format', 'ebol', '-o', join(dir, 'tender.json')]);
    expect(tender).toMatchObject({ code: 0, stdout: `${join(dir, 'tender.json')}\n` });
    expect(JSON.parse(await readFile(join(dir, 'tender.json'), 'utf8'))).toBeTypeOf('object');
  });

  it('invoice -o: the PDF path; without -o the invoice itself', async () => {
    const file = join(dir, 'invoice.pdf');
    expect(await run(['-q', 'invoice', id, '-o', file])).toMatchObject({ code: 0, stdout: `${file}\n` });
    expect((await run(['-q', 'invoice', id])).stdout).toMatch(/Invoice INV-/);
  });
});
