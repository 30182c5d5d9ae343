/**
 * The carrier handoff as a user does it through the CLI, with default output (no -q, no --json,
 * no -o): `ship` with the carrier flags, `shipment update` after booking, the reprinted BOL,
 * `labels` and `tender` writing their files in the working directory. Every file is read back with
 * a real decoder: pdfjs and ZXing for the PDFs, node-x12 for the 204 and 211, the published eBOL
 * 2.1 BOL_Request schema for the eBOL.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shipment } from '../../src/domain/schemas.js';
import { proCheckDigit } from '../../src/domain/proNumber.js';
import { readPdf } from '../bol/pdf-reader.js';
import { bolRequestValidator } from '../edi/ebolSchema.js';
import { el, find, findAll, groupsStartingAt, parseX12 } from '../edi/x12Reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

const SHIPPER = withContact('name=Acme DC,address1=2100 S Halsted St,city=Chicago,state=IL,zip=60608,phone=312-555-0142');
const CONSIGNEE = withContact('name=Store 12,address1=1 Penn Plaza,city=New York,state=NY,zip=10001,phone=212-555-0100');
const PARTS = 'pallets=2,weight=1200,dims=48x40x48,desc=Machine parts,nmfc=161030-02,pkg=crates,pieces=10';
const PAINT = 'pallets=1,weight=400,dims=48x40x40,desc=Paint,un=UN1263,psn=Paint,hazclass=3,pg=III,pkg=pails,pieces=20';
const CARRIER_FLAGS = [
  '--scac',
  'ODFL',
  '--terms',
  'collect',
  '--ready',
  '08:00',
  '--close',
  '16:30',
  '--cod',
  '1,250',
  '--cod-fee',
  'prepaid',
  '--declared-value',
  '5000',
  '--fob',
  'origin',
  '--master-bol',
  '--emergency-phone',
  '800-424-9300',
];

let dir: string;
let cleanup: () => Promise<void>;
let env: Record<string, string>;
const run = (args: string[]) => runInProcess(args, { env, cwd: dir });
const shipmentOf = async (id: string) => JSON.parse((await run(['shipment', 'get', id, '--json'])).stdout) as Shipment;
const pdfText = async (file: string) => (await readPdf(new Uint8Array(await readFile(file)))).pages.map((page) => page.text).join(' ');

let id: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-handoff-'));
  env = { SHIPPER_STORE: join(dir, 'store'), SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: '2026-11-23T15:00:00Z', SHIPPER_BOL_COMPANY_PREFIX: '0614141' };
  const block = { name: 'Old Dominion Freight Line', pickupCutoff: '15:00', proRange: { scac: 'ODFL', first: '70000000', last: '70000999', checkDigit: 'MOD7' } };
  expect((await run(['config', 'set', 'carriers.ODFL', JSON.stringify(block)])).code).toBe(0);
  expect((await run(['config', 'set', 'x12', JSON.stringify({ senderId: 'ACMESHIP' })])).code).toBe(0);
  const booked = await run(['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', PARTS, '-c', PAINT, '--ref', 'PO-1', ...CARRIER_FLAGS]);
  expect(booked.code, booked.stderr).toBe(0);
  id = /Confirmed shipment (sh_\w+)/.exec(booked.stdout)![1]!;
});
afterAll(() => cleanup());

describe('the carrier handoff through the CLI', () => {
  it('ship books every carrier flag: the carrier named from the settings, a PRO from its block, an SSCC per pallet, the hazardous line', async () => {
    const shipment = await shipmentOf(id);
    expect(shipment).toMatchObject({
      carrier: { name: 'Old Dominion Freight Line', scac: 'ODFL' },
      proNumber: `70000000${proCheckDigit('MOD7', '70000000')}`,
      freightChargeTerms: { terms: 'COLLECT', billTo: null },
      cod: { amountInCents: 125_000, feeTerms: 'PREPAID', customerCheckAcceptable: false },
      declaredValue: { amountInCents: 500_000, per: 'SHIPMENT' },
      pickupWindow: { readyTime: '08:00', closeTime: '16:30' },
      fob: 'ORIGIN',
      masterBol: true,
      emergencyContactPhone: '800-424-9300',
    });
    expect(shipment.ssccs).toHaveLength(3);
    expect(shipment.orderComponents.map((component) => component.hazmat)).toEqual([
      null,
      { unNumber: 'UN1263', properShippingName: 'Paint', hazardClass: '3', packingGroup: 'III' },
    ]);
  });

  it('ship refuses a dock closing at or before the ready time (exit 1, the field named) and books one minute after', async () => {
    const base = ['ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=1,weight=400,dims=48x40x40,desc=Parts', '--scac', 'ODFL'];
    const equal = await run([...base, '--ready', '14:00', '--close', '14:00']);
    expect(equal).toMatchObject({ code: 1, stdout: '' });
    expect(equal.stderr).toContain('(pickupWindow.closeTime)');
    expect((await run([...base, '--ready', '14:00', '--close', '13:59'])).code).toBe(1);
    const after = await run([...base, '--ready', '14:00', '--close', '14:01']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).not.toMatch(/cut-off/);
    // Ready at the carrier's cut-off: booked, with a warning.
    const late = await run([...base, '--ready', '15:00', '--close', '18:00']);
    expect(late.code).toBe(0);
    expect(late.stderr).toMatch(/cut-off 15:00/);
  });

  it('shipment update sets what the carrier assigns, prints it, and the reprinted BOL shows it; the freight cannot change', async () => {
    const pro = `70000050${proCheckDigit('MOD7', '70000050')}`;
    const updated = await run(['shipment', 'update', id, '--pro', pro, '--trailer', '53-1187', '--seal', '004471', '--seal', '004472']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(`PRO ${pro}`);
    expect(updated.stdout).toContain('trailer 53-1187 · seals 004471, 004472');
    expect(await shipmentOf(id)).toMatchObject({ proNumber: pro, trailerNumber: '53-1187', sealNumbers: ['004471', '004472'] });
    const bol = await run(['bol', id]);
    expect(bol.code, bol.stderr).toBe(0);
    const text = await pdfText(join(dir, 'BOL-SO-000001.pdf'));
    for (const expected of ['Old Dominion Freight Line', 'ODFL', pro, '53-1187', '004471', '004472', 'UN1263, Paint, 3, PG III', '800-424-9300', '$1,250.00'])
      expect(text).toContain(expected);
    const wrong = await run(['shipment', 'update', id, '--pro', `70000050${(Number(proCheckDigit('MOD7', '70000050')) + 1) % 7}`]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('(proNumber)');
    expect((await run(['shipment', 'update', id, '-c', 'pallets=1,weight=1,dims=1x1x1,desc=Parts'])).code).toBe(2);
    expect((await shipmentOf(id)).proNumber).toBe(pro);
  });

  it('labels writes labels-<order>.pdf here: one page per pallet, each barcode its SSCC', async () => {
    const result = await run(['labels', id]);
    expect(result.code, result.stderr).toBe(0);
    const pdf = await readPdf(new Uint8Array(await readFile(join(dir, 'labels-SO-000001.pdf'))), { barcodes: true });
    const { ssccs } = await shipmentOf(id);
    expect(pdf.pages).toHaveLength(3);
    expect(pdf.barcodes.map((codes) => codes.find((code) => code.startsWith(']C100')))).toEqual(ssccs.map((sscc) => `]C100${sscc}`));
    expect(pdf.pages[2]!.text).toMatch(/3 of 3/);
    const zpl = await run(['labels', id, '--format', 'zpl']);
    expect(zpl.code).toBe(0);
    const text = await readFile(join(dir, 'labels-SO-000001.zpl'), 'utf8');
    for (const sscc of ssccs) expect(text).toContain(`>;>800${sscc}`);
  });

  it('tender writes the eBOL here, valid against the published BOL_Request schema, with the carrier fields', async () => {
    const result = await run(['tender', id, '--format', 'ebol']);
    expect(result.code, result.stderr).toBe(0);
    const shipment = await shipmentOf(id);
    const request = JSON.parse(await readFile(join(dir, `${shipment.bolNumber}.ebol.json`), 'utf8')) as Record<string, unknown>;
    const validate = bolRequestValidator();
    expect(validate(request), JSON.stringify(validate.errors)).toBe(true);
    expect(request).toMatchObject({
      payment: { terms: 'Collect' },
      referenceNumbers: { pro: shipment.proNumber, masterBol: shipment.bolNumber, trailerId: '53-1187', bol: [shipment.bolNumber], po: [{ number: 'PO-1' }] },
      shipmentTotals: { grossWeight: 1600, handlingUnits: 3, declaredValue: 5000 },
      accessorials: { codes: ['HAZ', 'COD'], cod: { amount: '1250.00', terms: 'Prepaid' }, hazardousDetails: { emergencyContact: { phone: '8004249300' } } },
    });
  });

  it('tender writes the 204 and the 211 here, read back with node-x12: ids from the settings, control numbers that never repeat, every line item', async () => {
    const shipment = await shipmentOf(id);
    const tender = await run(['tender', id, '--format', 'x12-204']);
    expect(tender.code, tender.stderr).toBe(0);
    const first = Number(/control number (\d+)/.exec(tender.stderr)![1]);
    const parsed = parseX12(await readFile(join(dir, `${shipment.bolNumber}.204.edi`), 'utf8'), {
      interchangeControlNumber: first,
      groupControlNumber: first,
      transactionSet: '204',
      functionalId: 'SM',
    });
    expect([parsed.isa[4], parsed.isa[5]!.trim(), parsed.isa[6], parsed.isa[7]!.trim()]).toEqual(['ZZ', 'ACMESHIP', '02', 'ODFL']);
    // ISA15: test, as nothing said production (the setting is only a sender id).
    expect(parsed.isa[14]).toBe('T');
    expect([el(find(parsed.body, 'B2'), 2), el(find(parsed.body, 'B2'), 6)]).toEqual(['ODFL', 'CC']);
    expect(findAll(parsed.body, 'L11').map((segment) => segment.elements)).toEqual(
      expect.arrayContaining([
        [shipment.bolNumber, 'BM'],
        [shipment.proNumber, 'CN'],
        ['PO-1', 'PO'],
        ['53-1187', 'EQ'],
        ['004471', 'SN'],
        ['004472', 'SN'],
      ]),
    );
    const items = groupsStartingAt(groupsStartingAt(parsed.body, 'S5', 'L3')[0]!, 'OID');
    expect(
      items.map((segments) => {
        const [l5, at8, lad, lh1] = ['L5', 'AT8', 'LAD', 'LH1'].map((tag) => find(segments, tag));
        return [
          el(l5, 2),
          el(l5, 3),
          el(l5, 9),
          Number(el(at8, 3)),
          Number(el(at8, 5)),
          Number(el(lad, 2)),
          el(lh1, 3),
          el(lh1, 10),
          el(find(segments, 'LH2'), 1),
          el(find(segments, 'LH3'), 1),
        ];
      }),
    ).toEqual(
      shipment.orderComponents.map((component) => [
        component.description,
        component.nmfcCode ?? '',
        component.freightClass,
        component.poundsWeight,
        component.palletCount,
        component.pieceCount,
        component.hazmat?.unNumber ?? '',
        component.hazmat?.packingGroup ?? '',
        component.hazmat?.hazardClass ?? '',
        component.hazmat?.properShippingName ?? '',
      ]),
    );
    const bill = await run(['tender', id, '--format', 'x12-211']);
    expect(bill.code, bill.stderr).toBe(0);
    const second = Number(/control number (\d+)/.exec(bill.stderr)![1]);
    expect(second).toBeGreaterThan(first);
    const billOfLading = parseX12(await readFile(join(dir, `${shipment.bolNumber}.211.edi`), 'utf8'), {
      interchangeControlNumber: second,
      groupControlNumber: second,
      transactionSet: '211',
      functionalId: 'BL',
    });
    expect(groupsStartingAt(billOfLading.body, 'AT1')).toHaveLength(2);
    // The file is there: a second tender of the same format writes nothing without --force.
    const again = await run(['tender', id, '--format', 'x12-204']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/exists already; nothing was written/);
  });

  it('tender without --format, or with an unknown one, is a usage error', async () => {
    expect(await run(['tender', id])).toMatchObject({ code: 2, stdout: '' });
    const unknown = await run(['tender', id, '--format', 'x12-210']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('must be one of ebol, x12-204, x12-211');
  });
});

describe('a PRO block through the CLI', () => {
  it('gives its PROs in order, refuses the booking when used up (nothing booked), goes on when its last number is raised, and a next block starts at its own first', async () => {
    const { dir: blockDir, cleanup: done } = await tempDir('shipper-pro-block-');
    try {
      const blockEnv = {
        SHIPPER_STORE: join(blockDir, 'store'),
        SHIPPER_CONFIG_DIR: join(blockDir, 'config'),
        SHIPPER_NOW: '2026-11-23T15:00:00Z',
        SHIPPER_BOL_COMPANY_PREFIX: '0614141',
      };
      const cli = (args: string[]) => runInProcess(args, { env: blockEnv, cwd: blockDir });
      const setBlock = async (first: string, last: string) =>
        expect(
          (await cli(['config', 'set', 'carriers.ODFL', JSON.stringify({ name: 'Old Dominion Freight Line', proRange: { scac: 'ODFL', first, last, checkDigit: 'MOD7' } })])).code,
        ).toBe(0);
      const book = async () => {
        const result = await cli(['-q', 'ship', '--shipper', SHIPPER, '--consignee', CONSIGNEE, '-c', 'pallets=1,weight=400,dims=48x40x40,desc=Parts', '--scac', 'ODFL']);
        if (result.code !== 0) return { ...result, pro: undefined };
        return { ...result, pro: (JSON.parse((await cli(['shipment', 'get', result.stdout.trim(), '--json'])).stdout) as Shipment).proNumber };
      };
      const pro = (base: string) => `${base}${proCheckDigit('MOD7', base)}`;
      const count = async () => (await cli(['-q', 'shipment', 'list'])).stdout.split('\n').filter(Boolean).length;

      await setBlock('70000000', '70000001');
      expect((await book()).pro).toBe(pro('70000000'));
      expect((await book()).pro).toBe(pro('70000001'));
      for (const attempt of [1, 2]) {
        const refused = await book();
        expect(refused.code, `attempt ${attempt}`).not.toBe(0);
        expect(refused.stderr).toContain('the ODFL PRO block 70000000-70000001 is used up');
      }
      expect(await count()).toBe(2);
      // The refused attempts took no number: raising the last one goes on at the next.
      await setBlock('70000000', '70000002');
      expect((await book()).pro).toBe(pro('70000002'));
      // A next block of the same size starts at its own first PRO.
      await setBlock('70001000', '70001002');
      expect((await book()).pro).toBe(pro('70001000'));
      expect((await book()).pro).toBe(pro('70001001'));
      expect(await count()).toBe(5);
    } finally {
      await done();
    }
  });
});
