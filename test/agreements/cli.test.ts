/**
 * Carrier agreements through the CLI (issue 25; main() in process, as test/cli/inProcess.test.ts
 * holds it to the binary): the worked examples, booking on a carrier's quote, rate shopping on the
 * samples, fuel weeks and `tariff check` faults.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratesSchema } from '../../src/domain/rates.js';
import { quoteSchema, shipmentSchema } from '../../src/domain/schemas.js';
import { invoiceSchema } from '../../src/domain/invoice.js';
import { runInProcess } from '../helpers/inProcess.js';
import { FUEL_TABLE, WORKED_AGREEMENT, WORKED_BASE_RATES, writeAgreement } from './fixtures.js';
import { withContact } from '../helpers/fixtures.js';

let dir: string;
let agreements: string;
let env: Record<string, string>;
const shipper = (args: string[], extra: Record<string, string> = {}) => runInProcess(args, { env: { ...env, ...extra } });
const LANE = ['--from', '60601', '--to', '10001', '--pickup-date', '2026-12-02'];
const ADDRESSES = [
  '--shipper',
  withContact('name=Acme DC,address1=1 Main St,city=Chicago,state=IL,zip=60601'),
  '--consignee',
  withContact('name=Store 9,address1=5 5th Ave,city=New York,state=NY,zip=10001'),
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipper-agreements-'));
  agreements = join(dir, 'agreements');
  writeAgreement(agreements, 'tstc', { 'agreement.json': WORKED_AGREEMENT, 'base-rates.csv': WORKED_BASE_RATES, 'fuel.json': FUEL_TABLE });
  await writeFile(join(dir, 'diesel.csv'), 'week,usdPerGallon\n2026-11-16,3.689\n2026-11-30,3.712\n');
  env = { SHIPPER_STORE: join(dir, 'store'), SHIPPER_NOW: '2026-11-30T15:00:00Z', SHIPPER_TARIFFS: agreements };
  const imported = await shipper(['fuel', 'import', join(dir, 'diesel.csv')]);
  expect(imported.stdout).toContain('imported 2 weeks (2026-11-16 to 2026-11-30): 2 new');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the worked examples through the CLI', () => {
  it('4,200 lb class 85 (FAK 70), deficit-rated as 5,000 lb, with a notify charge: $982.78', async () => {
    const result = await shipper(['--json', 'quote', ...LANE, '-c', 'pallets=4,weight=4200,dims=48x40x72,desc=Parts', '-a', 'NOTIFY', '--carrier', 'TSTC']);
    expect(result.code, result.stderr).toBe(0);
    const [quote, ...rest] = quoteSchema.array().parse(JSON.parse(result.stdout));
    expect(rest).toEqual([]);
    expect(quote!.quotedPriceInCents).toBe(98278);
    expect(quote!.carrier).toEqual({ scac: 'TSTC', name: 'Test Carrier Lines' });
    expect(quote!.priceBreakdown).toMatchObject({
      linehaulInCents: 249900,
      discountInCents: 179928,
      fuelSurchargeInCents: 22706,
      accessorialsInCents: [{ code: 'NOTIFY', amountInCents: 5600 }],
    });
    expect(quote!.pricedBy).toMatchObject({
      kind: 'AGREEMENT',
      agreement: 'TST-2026-001',
      ratedAsPounds: 5000,
      weightBreak: 'M5M',
      fuel: { indexWeek: '2026-11-30', percent: '32.45' },
      lines: [{ actualClass: '85', ratedClass: '70' }],
    });
  });

  it('300 lb class 125: raised to the absolute minimum charge, $165.56, shown in the table', async () => {
    const result = await shipper(['quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'all']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/cheapest, fastest .*TSTC Test Carrier Lines.*\$125\.00.*\$40\.56.*\$0\.00.*\$165\.56/);
  });

  it('a pickup whose index week has no price quotes with the last price and says which', async () => {
    // Pickup Tuesday 2026-12-01: index Monday 2026-11-23, not in the store; 2026-11-16 is used.
    const result = await shipper([
      '--json',
      'quote',
      '--from',
      '60601',
      '--to',
      '10001',
      '--pickup-date',
      '2026-12-01',
      '-c',
      'pallets=1,weight=300,dims=48x40x40,desc=Parts',
      '--carrier',
      'TSTC',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('TSTC: the DOE diesel price of the week of 2026-11-23 is not in the store; quoted with the last price, $3.689 of the week of 2026-11-16');
    expect(JSON.parse(result.stdout)[0].pricedBy.fuel).toMatchObject({ indexWeek: '2026-11-23', week: '2026-11-16' });
  });

  it('quote get shows what priced it: carrier, agreement, rated-as weight and break, classes, gross, discount, minimum, fuel week', async () => {
    const id = (await shipper(['-q', 'quote', ...LANE, '-c', 'pallets=4,weight=4200,dims=48x40x72,desc=Parts', '--carrier', 'TSTC'])).stdout.trim();
    const shown = await shipper(['quote', 'get', id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('Carrier   TSTC Test Carrier Lines · agreement TST-2026-001 · transit estimated from distance');
    expect(shown.stdout).toContain('Rated as  5,000 lb at M5M · class 85 as 70 (FAK)');
    expect(shown.stdout).toContain('Rating    gross $2,499.00 · discount 72 % $1,799.28 · fuel 32.45 % on $3.712/gal of the week of 2026-11-30');
  });

  it('config set tariffs DIR is used without the flag or the environment', async () => {
    const configDir = join(dir, 'config');
    const set = await shipper(['config', 'set', 'tariffs', agreements], { SHIPPER_CONFIG_DIR: configDir });
    expect(set.code, set.stderr).toBe(0);
    const quoted = await shipper(['--json', 'quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'all'], {
      SHIPPER_CONFIG_DIR: configDir,
      SHIPPER_TARIFFS: '',
    });
    expect(quoted.code, quoted.stderr).toBe(0);
    expect(JSON.parse(quoted.stdout)[0].quotedPriceInCents).toBe(16556);
  });

  it('fuel show names the index week, the price used and the percentage', async () => {
    const result = await shipper(['--json', 'fuel', 'show', '--carrier', 'tstc', '--date', '2026-12-02']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ indexWeek: '2026-11-30', priceWeek: '2026-11-30', usdPerGallon: '3.712', percent: '32.45', tableFrom: '2026-01-01' });
    const stale = await shipper(['--json', 'fuel', 'show', '--carrier', 'TSTC', '--date', '2026-12-23']);
    expect(JSON.parse(stale.stdout)).toMatchObject({ indexWeek: '2026-12-21', priceWeek: '2026-11-30', stale: true, substituted: true });
  });
});

describe('booking a carrier quote', () => {
  it('ship --quote books it unchanged on that carrier; the invoice reads the recorded linehaul and the agreement', async () => {
    const quoted = await shipper(['-q', 'quote', ...LANE, '-c', 'pallets=4,weight=4200,dims=48x40x72,desc=Parts', '-a', 'NOTIFY', '--carrier', 'TSTC']);
    const quoteId = quoted.stdout.trim();
    const booked = await shipper(['--json', 'ship', '--quote', quoteId, ...ADDRESSES, '-c', 'pallets=4,weight=4200,dims=48x40x72,desc=Parts']);
    expect(booked.code, booked.stderr).toBe(0);
    const shipment = shipmentSchema.parse(JSON.parse(booked.stdout));
    expect(shipment).toMatchObject({ quoteId, totalPriceInCents: 98278, carrier: { scac: 'TSTC', name: 'Test Carrier Lines' }, pricedBy: { kind: 'AGREEMENT', scac: 'TSTC' } });
    const invoice = await shipper(['--json', 'invoice', shipment.id]);
    expect(invoice.code, invoice.stderr).toBe(0);
    const parsed = invoiceSchema.parse(JSON.parse(invoice.stdout));
    expect(parsed.totals.totalInCents).toBe(98278);
    expect(parsed.carrier).toEqual({ name: 'Test Carrier Lines', scac: 'TSTC' });
    expect(parsed.lines.find((line) => line.kind === 'ACCESSORIAL')).toMatchObject({ code: 'NOTIFY', description: 'Notify before delivery', amountInCents: 5600 });
  });

  it("the quoted carrier's PRO block gives the booking its PRO", async () => {
    const configDir = join(dir, 'config-pro');
    const block = { proRange: { scac: 'TSTC', first: '70000000', last: '70000999', checkDigit: 'MOD7' } };
    expect((await shipper(['config', 'set', 'carriers.TSTC', JSON.stringify(block)], { SHIPPER_CONFIG_DIR: configDir })).code).toBe(0);
    const quoteId = (
      await shipper(['-q', 'quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'TSTC'], { SHIPPER_CONFIG_DIR: configDir })
    ).stdout.trim();
    const booked = await shipper(['--json', 'ship', '--quote', quoteId, ...ADDRESSES, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts'], { SHIPPER_CONFIG_DIR: configDir });
    expect(booked.code, booked.stderr).toBe(0);
    expect(shipmentSchema.parse(JSON.parse(booked.stdout))).toMatchObject({ carrier: { scac: 'TSTC' }, proNumber: expect.stringMatching(/^70000000/) });
  });

  it("another carrier on the booking is refused: the price is the quoted carrier's", async () => {
    const quoteId = (await shipper(['-q', 'quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'TSTC'])).stdout.trim();
    const booked = await shipper(['ship', '--quote', quoteId, ...ADDRESSES, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'Other', '--scac', 'OTHR']);
    expect(booked.code).toBe(1);
    expect(booked.stderr).toContain('is priced by the agreement of TSTC (Test Carrier Lines), not OTHR');
  });
});

describe('rate shopping on the shipped samples', () => {
  const samples = { SHIPPER_TARIFFS: 'samples' };
  it('--carrier all: every sample carrier on a covered lane, cheapest first, as a JSON array of quotes', async () => {
    const result = await shipper(['--json', 'quote', ...LANE, '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts', '--carrier', 'all'], samples);
    expect(result.code, result.stderr).toBe(0);
    const quotes = quoteSchema.array().parse(JSON.parse(result.stdout));
    expect(quotes.map((quote) => quote.carrier!.scac).sort()).toEqual(['SAML', 'SCFR', 'SPLX']);
    const prices = quotes.map((quote) => quote.quotedPriceInCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('a lane some carriers do not cover: one line per carrier, not an error for the others', async () => {
    const result = await shipper(
      ['quote', '--from', '90001', '--to', '98101', '--pickup-date', '2026-12-02', '-c', 'pallets=1,weight=800,dims=48x40x48,desc=Parts', '--carrier', 'all'],
      samples,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/SAML Sample Motor Lines/);
    expect(result.stdout).toMatch(/SPLX Sample Plains Express not quoted: no base rates for lane 900 -> 981/);
  });

  it('rate shopping that prices nothing fails (exit 1) with each reason on stderr, nothing on stdout for -q, a no_coverage ProblemDetail for --json', async () => {
    const FREIGHT = ['-c', 'pallets=1,weight=800,dims=48x40x48,desc=Parts'];
    const none = await shipper(['quote', '--from', '33101', '--to', '10001', ...FREIGHT, '--carrier', 'SAML', '--carrier', 'ZZZZ'], samples);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain(
      'shipper: no carrier prices this shipment: ZZZZ: no agreement with this carrier is loaded; SAML Sample Motor Lines: no base rates for lane 331 -> 100\n',
    );
    // Q=$(shipper -q ...) gets no id and a failure, not an empty id and success.
    const quiet = await shipper(['-q', 'quote', '--from', '33101', '--to', '10001', ...FREIGHT, '--carrier', 'ODFL'], samples);
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toContain('shipper: no carrier prices this shipment: ODFL: no agreement with this carrier is loaded\n');
    const json = await shipper(['--json', 'quote', '--from', '33101', '--to', '10001', ...FREIGHT, '--carrier', 'all'], samples);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      type: 'urn:shipper:problem:no-coverage',
      title: 'No Coverage',
      status: 422,
      detail: expect.stringMatching(/^no carrier prices this shipment: SAML Sample Motor Lines: no base rates for lane 331 -> 100; /),
      reason: 'no_coverage',
      violations: ['SAML', 'SCFR', 'SPLX'].map((scac) => ({ field: `carrier.${scac}`, reason: 'no base rates for lane 331 -> 100' })),
    });
    // One carrier that prices is success, as before (exit 0, its quote).
    const one = await shipper(['-q', 'quote', ...LANE, '-c', 'pallets=2,weight=1200,dims=48x40x48,desc=Parts', '--carrier', 'SAML', '--carrier', 'ZZZZ'], samples);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/^qt_\w+\n$/);
  });

  it('without --tariffs the shipped tariff prices as before, and --carrier says what is missing', async () => {
    const plain = await shipper(['--json', 'quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts'], { SHIPPER_TARIFFS: '' });
    expect(plain.code, plain.stderr).toBe(0);
    const quote = quoteSchema.parse(JSON.parse(plain.stdout));
    expect(quote.carrier).toBeUndefined();
    expect(quote.pricedBy).toMatchObject({ kind: 'TARIFF' });
    const shopping = await shipper(['quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'all'], { SHIPPER_TARIFFS: '' });
    expect(shopping.code).toBe(1);
    expect(shopping.stderr).toContain('no carrier agreements are loaded');
  });

  it('the samples validate, and rates answer the same shape over the API schema', async () => {
    const check = await shipper(['tariff', 'check', 'samples']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('3 agreements OK');
    expect(ratesSchema.shape.items).toBeDefined();
  });
});

describe('tariff check and bad files', () => {
  it('each fault as file:line, exit 5; a broken directory prices nothing', async () => {
    const bad = join(dir, 'bad');
    writeAgreement(bad, 'tstc', {
      'agreement.json': `{\n  "scac": "TSTC",\n  "carrierName": "T",\n  "agreement": "1",\n  "effective": "2026-01-01",\n  "expires": "2026-12-31",\n  "discount": { "percent": "72" },\n  "absoluteMinimumChargeInCents": 100,\n  "deficitRatng": true\n}\n`,
      'base-rates.csv': `${WORKED_BASE_RATES}\n610-639,110-129,125,1,1,1,1,1,1,1,1,1,1\nabc,100,70,1,1,1,1,1,1,1,1,1,1\n`,
      'fuel.json': '{ "effectiveDaysAfterIndexMonday": 9, "versions": [] }',
      'transit.csv': 'origin_zip3,dest_zip3,days,service\n606,100,1,X\n',
    });
    writeAgreement(bad, 'empty', {});
    const result = await shipper(['tariff', 'check', bad]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('tstc/agreement.json:9: deficitRatng: unknown field deficitRatng (did you mean deficitRating?)');
    expect(result.stderr).toContain('tstc/agreement.json:1: deficitRating: deficitRating is true or false');
    expect(result.stderr).toContain('tstc/base-rates.csv:5: origin_zip3 "abc"');
    expect(result.stderr).toContain('tstc/fuel.json:1: effectiveDaysAfterIndexMonday');
    expect(result.stderr).toContain('tstc/transit.csv:2: service "X" is D (direct) or I (interline)');
    expect(result.stderr).toContain('empty/agreement.json:1: missing');
    expect(result.stderr).not.toMatch(/ at .*\.js:\d+/);
    const conflict = join(dir, 'conflict');
    writeAgreement(conflict, 'tstc', { 'agreement.json': WORKED_AGREEMENT, 'base-rates.csv': `${WORKED_BASE_RATES}\n610-639,110-129,125,1,1,1,1,1,1,1,1,1,1\n` });
    const checked = await shipper(['tariff', 'check', conflict]);
    expect(checked.code).toBe(5);
    expect(checked.stderr).toContain('tstc/base-rates.csv:4: as specific as line 3 for class 125 on lane 610-629 -> 110-119');
    const quoted = await shipper(['quote', ...LANE, '-c', 'pallets=1,weight=300,dims=48x40x40,desc=Parts', '--carrier', 'all'], { SHIPPER_TARIFFS: conflict });
    expect(quoted.code).toBe(5);
    expect(quoted.stderr).toContain('tstc/base-rates.csv:4');
  });

  it('77.5 and the other classes density never yields are taken in FAK and base rates: tariff check passes, a quote rates class 85 as 77.5 (issue 39)', async () => {
    const root = join(dir, 'nmfc18');
    writeAgreement(root, 'tstc', {
      'agreement.json': {
        ...WORKED_AGREEMENT,
        fak: [
          { classes: ['50', '55', '60', '65', '70', '77.5', '85'], ratedAs: '77.5' },
          { classes: ['110', '150', '200', '500'], ratedAs: '125' },
        ],
      },
      'base-rates.csv': `${WORKED_BASE_RATES}\n606,100,77.5,9500,9000,8100,7500,6800,5400,4900,4600,4400,4300\n606,100,500,9500,30000,29000,28000,27000,26000,25000,24000,23000,22000\n`,
      'fuel.json': FUEL_TABLE,
    });
    const checked = await shipper(['tariff', 'check', root]);
    expect(checked.stderr).toBe('');
    expect(checked.stdout).toContain('tstc: TSTC Test Carrier Lines, agreement TST-2026-001 (2026-01-01 to 2027-12-31), 4 base rate rows');
    expect(checked.code).toBe(0);
    const quoted = await shipper(['--json', 'quote', ...LANE, '-c', 'pallets=4,weight=4200,dims=48x40x72,desc=Parts', '--carrier', 'TSTC'], { SHIPPER_TARIFFS: root });
    expect(quoted.code, quoted.stderr).toBe(0);
    const [quote] = quoteSchema.array().parse(JSON.parse(quoted.stdout));
    expect(quote!.pricedBy).toMatchObject({ kind: 'AGREEMENT', ratedAsPounds: 5000, weightBreak: 'M5M', lines: [{ actualClass: '85', ratedClass: '77.5' }] });
    // $2,700.00 gross, 72 % off: $756.00; fuel 32.45 % of it $245.32.
    expect(quote!.quotedPriceInCents).toBe(100132);
  });

  it('fuel import refuses a bad file whole and reads the EIA download format', async () => {
    await writeFile(join(dir, 'bad.csv'), 'week,usdPerGallon\n2026-11-17,3.7\n2026-11-23,abc\n');
    const bad = await shipper(['fuel', 'import', join(dir, 'bad.csv')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bad.csv:2: 2026-11-17 is not a Monday');
    expect(bad.stderr).toContain('bad.csv:3: "abc" is not a price');
    const eia =
      'Weekly U.S. No 2 Diesel Retail Prices  (Dollars per Gallon)\nSourcekey,EMD_EPD2D_PTE_NUS_DPG\nDate,Weekly U.S. No 2 Diesel Retail Prices  (Dollars per Gallon)\n"Nov 09, 2026",3.650\n11/02/2026,3.641\n';
    await writeFile(join(dir, 'eia.csv'), eia);
    const good = await shipper(['--json', 'fuel', 'import', join(dir, 'eia.csv')], { SHIPPER_STORE: join(dir, 'store-eia') });
    expect(good.code, good.stderr).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ added: 2, changed: 0, total: 2, from: '2026-11-02', to: '2026-11-09' });
  });
});
