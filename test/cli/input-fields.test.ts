/**
 * Issue 20, items 4, 12, 14 and 16, through the CLI (main() in process: none of this needs a
 * process of its own) and over HTTP (a spawned `shipper serve`): control characters
 * refused in single-line fields and neutralised on output; a date without a year is the nearest
 * one (a day just passed is refused as past, not read as next year's); one number syntax in `-c`
 * as in the CSV; `shipment update --seal ''` clears the seals.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { parseUserDate } from '../../src/domain/dates.js';
import { FileStore } from '../../src/store/file/fileStore.js';
import { LocationBook } from '../../src/store/locations.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { withContact } from '../helpers/fixtures.js';

/** Tuesday 2026-11-24, 15:00 UTC (09:00 in Chicago). */
const NOW = '2026-11-24T15:00:00Z';
const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608,phone=312-555-0100');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001');
const FREIGHT = 'pallets=2,weight=1200,dims=48x40x48,desc=Parts';

let dir: string;
let cleanup: () => Promise<void>;
let cli: (args: string[]) => Promise<CliResult>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-input-'));
  const run = storeInProcess(join(dir, 'store'));
  cli = (args) => run(args, { env: { SHIPPER_NOW: NOW } });
});
afterAll(() => cleanup());

const ship = (extra: string[]) => cli(['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', FREIGHT, '--json', ...extra]);

describe('control characters (item 4)', () => {
  it('are refused in the reference, trailer and seal numbers on the command line, naming the field; nothing is booked', async () => {
    for (const [flag, value, field] of [
      ['--ref', 'PO-1\u001b[2J', 'refNumber'],
      ['--trailer', 'TR\r42', 'trailerNumber'],
      ['--seal', 'S1\u0007', 'sealNumbers[0]'],
    ] as const) {
      const result = await ship([flag, value]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(field);
      expect(result.stderr).toMatch(/without control characters/);
      // The refusal itself never echoes the raw character.
      expect(result.stderr).not.toMatch(/[\u0007\u001b\r]/);
    }
    const list = await cli(['shipment', 'list', '--json']);
    expect(JSON.parse(list.stdout).items).toEqual([]);
  });

  it('a plain value and a value with surrounding blanks or a trailing line break still book (the boundary)', async () => {
    const result = await ship(['--ref', 'PO-7001\n', '--trailer', ' 53-1187 ', '--special-instructions', 'Call first\nDock 4']);
    expect(result.code, result.stderr).toBe(0);
    const shipment = JSON.parse(result.stdout) as Shipment;
    expect(shipment.refNumber).toBe('PO-7001');
    expect(shipment.trailerNumber).toBe('53-1187');
    // Special instructions are several lines: line breaks are kept there.
    expect(shipment.specialInstructions).toBe('Call first\nDock 4');
  });

  it('a saved location written before the refusal still reads (shown escaped); booking with it names the field', async () => {
    const store = join(dir, 'store');
    await new LocationBook(new FileStore(store).locations).put({
      name: 'old-dc',
      address: {
        name: 'Old\u001b[31m DC',
        address1: '1 Main St',
        address2: null,
        city: 'Chicago',
        state: 'IL',
        zipCode: '60608',
        countryCode: 'US',
        contactPerson: null,
        phoneNumber: null,
      },
    });
    const shown = await cli(['location', 'list']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('\u001b');
    const booked = await cli(['ship', '--shipper', 'old-dc', '--consignee', CONSIGNEE, '-c', FREIGHT]);
    expect(booked.code).toBe(1);
    expect(booked.stderr).toContain('(pickupAddress.name)');
  });

  describe('over HTTP', () => {
    let serve: ServeProcess;
    beforeAll(async () => {
      serve = await startServe({ store: join(dir, 'served'), env: { SHIPPER_NOW: NOW } });
    });
    afterAll(() => serve.stop());

    const body = (extra: Record<string, unknown>) => ({
      pickupAddress: { name: 'Acme DC', address1: '2100 S Halsted St', city: 'Chicago', state: 'IL', zipCode: '60608', contactPerson: 'Dana Ruiz', phoneNumber: '+13125550100' },
      deliveryAddress: { name: 'Store 12', address1: '1 Penn Plaza', city: 'New York', state: 'NY', zipCode: '10001', contactPerson: 'Lee Chen', phoneNumber: '+12125550188' },
      orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
      ...extra,
    });
    const post = (extra: Record<string, unknown>) =>
      fetch(`${serve.url}/v1/shipper/shipment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(extra)) });

    it('refuses them in every single-line field with a violation on its path', async () => {
      const response = await post({
        refNumber: 'A\u001b]0;pwned\u0007',
        trailerNumber: 'T\n2',
        sealNumbers: ['ok', 'S\u0085'],
        deliveryAddress: { ...body({}).deliveryAddress, name: 'Store\u001b[31m 12' },
      });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { violations: Array<{ field: string; reason: string }> };
      expect(problem.violations.map((violation) => violation.field).sort()).toEqual(['deliveryAddress.name', 'refNumber', 'sealNumbers[1]', 'trailerNumber']);
      expect(problem.violations.find((violation) => violation.field === 'sealNumbers[1]')?.reason).toContain('U+0085');
    });

    it('accepts line breaks in special instructions only, and refuses an ESC there', async () => {
      expect((await post({ specialInstructions: 'line one\r\nline two\tend' })).status).toBe(200);
      const refused = await post({ specialInstructions: 'line\u001b[2J' });
      expect(refused.status).toBe(400);
    });
  });

  describe('on output, from a server that answers them (records written before the refusal)', () => {
    let server: Server;
    let url: string;
    let hostile: Shipment;

    beforeAll(async () => {
      const booked = await ship(['--ref', 'PO-9', '--trailer', 'T-1', '--seal', 'S-1']);
      expect(booked.code, booked.stderr).toBe(0);
      const shipment = JSON.parse(booked.stdout) as Shipment;
      hostile = {
        ...shipment,
        refNumber: 'PO\u001b[2J\u001b]0;owned\u0007-9\rX',
        trailerNumber: 'T\u001b[31m-1',
        sealNumbers: ['S\u0007-1'],
        deliveryAddress: { ...shipment.deliveryAddress, name: 'Store\n12' },
      };
      server = createServer((request, response) => {
        response.setHeader('content-type', 'application/json');
        if (request.url?.startsWith('/v1/shipper/shipment?')) return response.end(JSON.stringify({ items: [hostile], nextCursor: null }));
        if (request.url === `/v1/shipper/shipment/${hostile.id}`) return response.end(JSON.stringify(hostile));
        response.statusCode = 404;
        response.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const raw = /[\u0000-\u0008\u000B-\u001F\u007F]/;

    it('shipment get shows them as escapes', async () => {
      const result = await cli(['--base-url', url, 'shipment', 'get', hostile.id]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(raw);
      expect(result.stdout).toContain('PO\\x1B[2J\\x1B]0;owned\\x07-9\\x0DX');
      expect(result.stdout).toContain('T\\x1B[31m-1');
      expect(result.stdout).toContain('Store\\x0A12');
    });

    it('the shipment list table and --csv show them as escapes', async () => {
      const table = await cli(['--base-url', url, 'shipment', 'list']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(raw);
      expect(table.stdout).toContain('PO\\x1B[2J');
      const csv = await cli(['--base-url', url, 'shipment', 'list', '--csv']);
      expect(csv.code, csv.stderr).toBe(0);
      // Records end in CRLF; no other control character.
      expect(csv.stdout.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001F\u007F]/);
      expect(csv.stdout).toContain('PO\\x1B[2J\\x1B]0;owned\\x07-9\\x0DX');
      expect(csv.stdout).toContain('Store\\x0A12');
    });

    it('--json keeps the data exact (JSON escapes them itself)', async () => {
      const result = await cli(['--base-url', url, 'shipment', 'get', hostile.id, '--json']);
      expect(result.stdout).not.toMatch(raw);
      expect((JSON.parse(result.stdout) as Shipment).refNumber).toBe(hostile.refNumber);
    });
  });
});

describe('a date without a year (item 12)', () => {
  it('that passed yesterday is refused as past, as the same date with its year is (flags)', async () => {
    for (const date of ['11/23', 'Nov 23', '11/23/2026']) {
      const result = await cli(['quote', '--from', '60608', '--to', '10001', '--pickup-date', date, '-c', FREIGHT]);
      expect(result.code, `${date}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toContain('2026-11-23 is in the past');
      expect(result.stdout).not.toContain('2027');
    }
  });

  it('today and the days ahead are this year; early January in late November is next year (the boundary)', async () => {
    const today = await cli(['quote', '--from', '60608', '--to', '10001', '--pickup-date', '11/24', '-c', FREIGHT, '--json']);
    expect(today.code, today.stderr).toBe(0);
    expect(JSON.parse(today.stdout).requiredPickupDate).toBe('2026-11-24');
    const january = await cli(['quote', '--from', '60608', '--to', '10001', '--pickup-date', 'Jan 5', '-c', FREIGHT, '--json']);
    expect(january.code, january.stderr).toBe(0);
    expect(JSON.parse(january.stdout).requiredPickupDate).toBe('2027-01-05');
  });

  it('is the nearest such date: a half year back is past, a half year ahead is next year', () => {
    const read = (text: string, today: string) => {
      const parsed = parseUserDate(text, today);
      return parsed.ok ? parsed.date : parsed.message;
    };
    expect(read('11/23', '2026-11-24')).toBe('2026-11-23');
    expect(read('6/1', '2026-11-24')).toBe('2026-06-01'); // 176 days back, 189 ahead
    expect(read('5/1', '2026-11-24')).toBe('2027-05-01'); // 207 days back, 158 ahead
    expect(read('12/31', '2027-01-02')).toBe('2026-12-31'); // two days ago, not next December
    expect(read('1/2', '2026-12-30')).toBe('2027-01-02');
    expect(read('2/29', '2027-11-24')).toBe('2028-02-29'); // only a leap year has one
  });
});

describe('numbers in -c (item 14)', () => {
  it('hex, binary and octal are refused as the CSV refuses them', async () => {
    for (const weight of ['0x1F4', '0b111110100', '0o764', 'Infinity']) {
      const result = await cli(['quote', '--from', '60608', '--to', '10001', '-c', `pallets=1,weight=${weight},dims=48x40x48,desc=Parts`]);
      expect(result.code, `${weight}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(/poundsWeight/);
    }
    const dims = await cli(['quote', '--from', '60608', '--to', '10001', '-c', 'pallets=1,weight=500,dims=0x30x40x40,desc=Parts']);
    expect(dims.code).not.toBe(0);
  });

  it('decimal numbers, exponents and thousands separators read as in the CSV (the boundary)', async () => {
    const result = await cli([
      'quote',
      '--from',
      '60608',
      '--to',
      '10001',
      '-c',
      'pallets=1,weight=1,200.5,dims=48x40x48,desc=Parts',
      '-c',
      'pallets=1,weight=5e2,dims=48x40x40.5,desc=Parts',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const components = JSON.parse(result.stdout).orderComponents as Array<{ poundsWeight: number; dimensions: { height: number } }>;
    expect(components.map((component) => component.poundsWeight)).toEqual([1200.5, 500]);
    expect(components[1]!.dimensions.height).toBe(40.5);
  });

  it('numeric flags take the same syntax: --limit 0x10 is a usage error', async () => {
    const result = await cli(['shipment', 'list', '--limit', '0x10']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--limit/);
  });
});

describe("shipment update --seal '' (item 16)", () => {
  it('clears the seals as --trailer clears the trailer', async () => {
    const booked = await ship(['--trailer', '53-1', '--seal', 'A1', '--seal', 'B2']);
    expect(booked.code, booked.stderr).toBe(0);
    const { id } = JSON.parse(booked.stdout) as Shipment;
    const cleared = await cli(['shipment', 'update', id, '--seal', '', '--trailer', '', '--json']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ sealNumbers: [], trailerNumber: null });
    const shown = await cli(['shipment', 'get', id, '--json']);
    expect(JSON.parse(shown.stdout).sealNumbers).toEqual([]);
  });

  it('a blank seal beside real ones is still refused (the boundary)', async () => {
    const booked = await ship([]);
    const { id } = JSON.parse(booked.stdout) as Shipment;
    const result = await cli(['shipment', 'update', id, '--seal', 'A1', '--seal', ' ']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a seal number cannot be empty (sealNumbers[1])');
  });
});

describe('smaller defects (item 21)', () => {
  it('list --since and --until take words and US dates as --pickup-date does; unreadable is a usage error', async () => {
    // Every shipment of this file is booked "today" (SHIPPER_NOW, 2026-11-24).
    expect((await ship(['--ref', 'PO-SINCE'])).code).toBe(0);
    const booked = (await cli(['shipment', 'list', '--json', '--limit', '500'])).stdout;
    const count = (JSON.parse(booked) as { items: unknown[] }).items.length;
    expect(count).toBeGreaterThan(0);
    const ids = async (args: string[]) => {
      const result = await cli(['shipment', 'list', '--json', '--limit', '500', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { items: unknown[] }).items.length;
    };
    expect(await ids(['--since', 'yesterday'])).toBe(count);
    expect(await ids(['--since', '11/24', '--until', 'Nov 24'])).toBe(count);
    expect(await ids(['--since', 'today'])).toBe(count);
    // A weekday is the last one: Monday 2026-11-23 (the boundary: a day before the bookings).
    expect(await ids(['--until', 'monday'])).toBe(0);
    expect(await ids(['--since', '-7', '--until', '11/23/2026'])).toBe(0);
    expect(await ids(['--since', 'tomorrow'])).toBe(0);
    const quotes = await cli(['quote', 'list', '--since', 'yesterday', '--json']);
    expect(quotes.code, quotes.stderr).toBe(0);
    const bad = await cli(['shipment', 'list', '--since', 'someday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^shipper: --since: cannot read "someday" as a date/);
  });

  it('bad flag values are usage errors (exit 2) in ship, quote and the lists; a well-formed value the rules refuse is exit 1', async () => {
    for (const [args, pattern] of [
      [['--terms', 'bogus'], /--terms.*must be one of prepaid, collect, third-party/],
      [['--fob', 'sideways'], /--fob.*must be one of origin, destination/],
      [['--cod', '10', '--cod-fee', 'never'], /--cod-fee.*must be one of collect, prepaid/],
      [['--ready', '25:00', '--close', '26:00'], /--ready/],
      [['--ready', '13:00 PM', '--close', '14:00'], /an hour before AM or PM is 1 to 12/],
      [['--pickup-date', '2026-02-30'], /--pickup-date: 2026-02-30 is not a real calendar date/],
    ] as const) {
      const result = await ship([...args]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(pattern);
    }
    expect((await cli(['shipment', 'list', '--to', '1234'])).code).toBe(2);
    expect((await cli(['quote', 'list', '--to', 'abc'])).code).toBe(2);
    // Well-formed but refused by the rules: rejected input.
    expect((await ship(['--pickup-date', '2026-11-20'])).code).toBe(1);
    // Written as people write them: read.
    const window = await ship(['--ready', '8:00 AM', '--close', '4:30 pm', '--terms', 'Third Party', '--bill-to', CONSIGNEE, '--fob', 'Origin']);
    expect(window.code, window.stderr).toBe(0);
    expect(JSON.parse(window.stdout)).toMatchObject({ pickupWindow: { readyTime: '08:00', closeTime: '16:30' }, freightChargeTerms: { terms: 'THIRD_PARTY' }, fob: 'ORIGIN' });
  });

  it('shipment get with what looks like a reference says how to find it by reference (exit 4)', async () => {
    const result = await cli(['shipment', 'get', 'PO-7001']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      'shipper: shipment PO-7001 not found: it is not a shipment id (sh_...), an order number (SO-...) or a BOL number; if it is your reference, find it with: shipper shipment list --ref PO-7001\n',
    );
    // An id of the API's form that does not exist: plain not found, no hint (the boundary).
    const unknown = await cli(['shipment', 'get', 'sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).not.toContain('--ref');
    const spaced = await cli(['shipment', 'get', 'PO 7001']);
    expect(spaced.stderr).toContain("shipper shipment list --ref 'PO 7001'");
  });
});
