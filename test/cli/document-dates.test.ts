/**
 * Every date a document prints is the date where it happens (issue 20, item 8): the invoice's
 * estimated delivery at the destination, its booking date and a BOL's cancellation date at the
 * origin. Booked and printed through the CLI (in process), read back with pdfjs; the expected
 * dates come from Intl in the places' zones, not from the code under test.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const SHIPPER = withContact('name=Acme Machine Co,address1=1200 W Lake St,city=Chicago,state=IL,zip=60607');
const LOS_ANGELES = withContact('name=Pacific Parts,address1=200 N Spring St,city=Los Angeles,state=CA,zip=90012');
const CHICAGO_ZONE = 'America/Chicago';
const PACIFIC_ZONE = 'America/Los_Angeles';

const dateIn = (instant: string, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));

let dir: string;
let cleanup: () => Promise<void>;
const run = (args: string[], now: string) =>
  runInProcess(args, { env: { SHIPPER_STORE: join(dir, 'store'), SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: now }, cwd: dir });
const pdfLines = async (file: string) => (await readPdf(new Uint8Array(await readFile(file)))).pages.flatMap((page) => page.lines);

let shipment: Shipment;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-dates-'));
  // Booked at 03:30 UTC on Dec 2: still Dec 1 in Chicago, where the shipper is.
  const booked = await run(
    ['ship', '--shipper', SHIPPER, '--consignee', LOS_ANGELES, '-c', 'pallets=1,weight=500,dims=48x40x40,desc=Parts', '--pickup-date', '2026-12-02', '--json'],
    '2026-12-02T03:30:00Z',
  );
  expect(booked.code, booked.stderr).toBe(0);
  shipment = JSON.parse(booked.stdout) as Shipment;
});
afterAll(() => cleanup());

describe('dates on documents', () => {
  it("prints the invoice's estimated delivery as the date at the destination, not the UTC date", async () => {
    const eta = shipment.estimatedDeliveryDate!;
    // The boundary: 17:00 in Los Angeles is already the next day in UTC.
    expect(dateIn(eta, 'UTC')).not.toBe(dateIn(eta, PACIFIC_ZONE));
    const file = join(dir, 'invoice.pdf');
    expect((await run(['invoice', shipment.id, '-o', file], '2026-12-02T03:30:00Z')).code).toBe(0);
    const lines = await pdfLines(file);
    const delivery = lines.findIndex((line) => line.toUpperCase().includes('ESTIMATED DELIVERY'));
    expect(delivery, lines.join('\n')).toBeGreaterThanOrEqual(0);
    const values = lines.slice(delivery, delivery + 2).join(' | ');
    expect(values).toContain(dateIn(eta, PACIFIC_ZONE));
    expect(values).not.toContain(dateIn(eta, 'UTC'));
    // Booked on Dec 1 where the shipper is (Dec 2 in UTC).
    expect(lines.join('\n')).toContain(`booked ${dateIn(shipment.createdAt, CHICAGO_ZONE)}.`);
    expect(dateIn(shipment.createdAt, CHICAGO_ZONE)).toBe('2026-12-01');
  });

  it("prints a cancelled BOL's cancellation date as the date at the origin", async () => {
    const cancelledAt = '2026-12-02T04:10:00Z';
    expect((await run(['shipment', 'cancel', shipment.id, '--reason', 'order withdrawn'], cancelledAt)).code).toBe(0);
    const file = join(dir, 'bol.pdf');
    expect((await run(['bol', shipment.id, '-o', file], cancelledAt)).code).toBe(0);
    const text = (await readPdf(new Uint8Array(await readFile(file)))).pages[0]!.items.map((item) => item.str);
    expect(text).toContain('CANCELLED 2026-12-01: order withdrawn');
  });
});
