/**
 * The freight check through the CLI: `quote` on each rule's threshold (stderr `warning: [CODE]`,
 * --json warnings[] with the price at stake against the rating), `shipper check` on a CSV (with a
 * Stackable column), a saved quote and a booked shipment, --fail-on levels and exit codes, and the
 * import's summary and --json lines. In process (main()), but for one `shipper check FILE` by the
 * built binary (the command's lazily loaded code in the bundle).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteSchema } from '../../src/domain/schemas.js';
import type { Warning } from '../../src/domain/warnings.js';
import { storeCli, tempDir } from '../helpers/cli.js';
import { BOUNDARY_CASES, componentSpec, expectedAtRisk } from '../helpers/freightCases.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { withContact } from '../helpers/fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
let cli: ReturnType<typeof storeInProcess>;
let spawned: ReturnType<typeof storeCli>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('shipper-check-'));
  cli = storeInProcess(join(dir, 'store'));
  spawned = storeCli(join(dir, 'store'));
});
afterAll(async () => cleanup());

const LANE = ['quote', '--from', '60601', '--to', '30301'];

describe('shipper quote: each rule on its threshold, just below and just above', () => {
  for (const boundary of BOUNDARY_CASES) {
    it(`${boundary.code}, ${boundary.name}`, async () => {
      const result = await cli([...LANE, ...boundary.lines.flatMap((line) => ['-c', componentSpec(line)]), '--json']);
      if (boundary.refused) {
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('beyond 95x95x96 in, the largest pallet carried');
        return;
      }
      expect(result.code, result.stderr).toBe(0);
      const json = JSON.parse(result.stdout) as { warnings: Warning[] };
      const quote = quoteSchema.parse(json);
      const warnings = json.warnings.filter((item) => item.code === boundary.code);
      expect(warnings.length > 0).toBe(boundary.warns);
      // One stderr line per warning, with its code.
      expect(result.stderr.split('\n').filter((line) => line.startsWith(`warning: [${boundary.code}] `))).toHaveLength(warnings.length);
      for (const item of warnings) expect(item.priceAtStake!.atRiskPriceInCents).toBe(expectedAtRisk(quote, item));
    });
  }
});

const HEADER =
  'refNumber,shipperName,shipperStreet1,shipperCity,shipperState,shipperPostalCode,consigneeName,consigneeStreet1,consigneeCity,consigneeState,consigneePostalCode,Pallets,Weight,L,W,H,Commodity,Stackable';
const ADDRESSES = 'Acme,100 N State St,Chicago,IL,60601,Peach Supply,1 Peachtree St NE,Atlanta,GA,30301';
const row = (ref: string, pallets: number, weight: number, dims: string, description: string, stackable = '') =>
  `${ref},${ADDRESSES},${pallets},${weight},${dims.replace(/x/g, ',')},${description},${stackable}`;

describe('shipper check FILE.csv', () => {
  let file: string;
  beforeAll(async () => {
    file = join(dir, 'orders.csv');
    await writeFile(
      file,
      [
        HEADER,
        row('CLEAN', 2, 1200, '48x40x48', 'Machine parts', 'yes'),
        row('MARGIN', 1, 870, '48x40x52', 'Machine parts'),
        row('FLAT', 1, 400, '48x40x48', 'Display cases', 'no'),
        row('FLAT', 1, 300, '48x40x40', 'Display cases', 'y'),
      ].join('\n') + '\n',
    );
  });

  it('lists each warning with its CSV line, level and code; exit 0 without --fail-on', async () => {
    const result = await spawned(['check', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Checked .*orders\.csv \(3 shipments\): 2 warnings \(1 risk, 1 warn: 1 DENSITY_MARGIN, 1 NON_STACKABLE_HEIGHT\), up to \$[\d,.]+ at stake\n/);
    expect(result.stdout).toContain('  line 3  warn  DENSITY_MARGIN  870 lb on 1 pallet of 48x40x52 in is 15.06 pcf, class 70; with 1 in more height');
    expect(result.stdout).toMatch(/ {2}line 4 {2}risk {2}NON_STACKABLE_HEIGHT {2}not stackable: carriers class it as 96 in high/);
  });

  it('--fail-on risk and --fail-on warn exit 1; --json is the report, nothing booked', async () => {
    const risk = await cli(['check', file, '--fail-on', 'risk', '--json']);
    expect(risk.code).toBe(1);
    const report = JSON.parse(risk.stdout) as { failed: boolean; counts: { risk: number; warn: number }; warnings: Array<Warning & { csvLine: number; level: string }> };
    expect(report).toMatchObject({ kind: 'csv', shipments: 3, failOn: 'risk', failed: true, counts: { risk: 1, warn: 1 } });
    expect(report.warnings.map((item) => [item.csvLine, item.level, item.code])).toEqual([
      [3, 'warn', 'DENSITY_MARGIN'],
      [4, 'risk', 'NON_STACKABLE_HEIGHT'],
    ]);
    expect(risk.stderr).toBe('shipper: 1 warning at or above risk: the check fails (--fail-on risk)\n');
    expect((await cli(['check', file, '--fail-on', 'warn'])).code).toBe(1);
    expect((await cli(['shipment', 'list', '--json'])).stdout).toMatch(/"items": \[\]/);
  });

  it('a file without risk passes --fail-on risk; one with only a warn passes risk and fails warn', async () => {
    const clean = join(dir, 'clean.csv');
    await writeFile(clean, `${HEADER}\n${row('CLEAN', 2, 1200, '48x40x48', 'Machine parts')}\n`);
    const passed = await cli(['check', clean, '--fail-on', 'warn']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/the freight check found no risk/);
    const warnOnly = join(dir, 'warn.csv');
    await writeFile(warnOnly, `${HEADER}\n${row('MARGIN', 1, 870, '48x40x52', 'Machine parts')}\n`);
    expect((await cli(['check', warnOnly, '--fail-on', 'risk'])).code).toBe(0);
    expect((await cli(['check', warnOnly, '--fail-on', 'warn'])).code).toBe(1);
  });

  it('a Stackable cell that is not yes or no is refused, naming its line; a --fail-on level that does not exist is a usage error', async () => {
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, `${HEADER}\n${row('BAD', 1, 500, '48x40x48', 'Parts', 'perhaps')}\n`);
    const refused = await cli(['check', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 shipment of .*bad\.csv would not import/);
    const dry = await cli(['import', bad, '--dry-run']);
    expect(dry.stderr).toMatch(/line 2, column Stackable \(orderComponents\[0\]\.stackable\): "perhaps" is not yes or no/);
    expect((await cli(['check', bad, '--fail-on', 'maybe'])).code).toBe(2);
  });

  it("import --dry-run: the summary counts the warnings by code, the --json lines carry each shipment's", async () => {
    const human = await cli(['import', file, '--dry-run']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/warnings: 1 DENSITY_MARGIN, 1 NON_STACKABLE_HEIGHT \(shipper check .*orders\.csv lists each with the price at stake\)/);
    expect(human.stderr).toMatch(/^warning: \[DENSITY_MARGIN\] line 3: 870 lb on 1 pallet/m);
    const json = JSON.parse((await cli(['import', file, '--dry-run', '--json'])).stdout) as {
      shipments: Array<{ refNumber: string; warnings?: Warning[] }>;
      summary: { warnings: Record<string, number> };
    };
    // The file has no contact columns: each order would stay INITIALIZED (said on the summary's line of its own).
    expect(json.summary.warnings).toEqual({ NOT_CONFIRMED: 3, DENSITY_MARGIN: 1, NON_STACKABLE_HEIGHT: 1 });
    expect(human.stdout).toContain('0 would be confirmed, 3 would be left INITIALIZED');
    const codes = (refNumber: string) => json.shipments.find((shipment) => shipment.refNumber === refNumber)!.warnings!.map((item) => [item.code, item.line]);
    expect(codes('CLEAN')).toEqual([['NOT_CONFIRMED', undefined]]);
    expect(codes('FLAT')).toEqual([
      ['NOT_CONFIRMED', undefined],
      ['NON_STACKABLE_HEIGHT', 0],
    ]);
  });
});

describe('shipper check ID', () => {
  it('a saved quote and a booked shipment (by order number): the same findings; ship --json has warnings[]', async () => {
    const quoted = await cli([...LANE, '-c', 'pallets=1,weight=400,dims=48x72x40,desc=Cases,stackable=false', '--json']);
    expect(quoted.code, quoted.stderr).toBe(0);
    const quote = JSON.parse(quoted.stdout) as { id: string; warnings: Warning[] };
    // 72 in wide is beyond the published standard pallet too: charged as oversize (a request's warning, not the check's).
    expect(quote.warnings.map((item) => item.code)).toEqual(['OVERSIZE_PALLET', 'NON_STACKABLE_HEIGHT', 'WIDE_FREIGHT']);
    expect(quoted.stderr).toMatch(/^warning: \[NON_STACKABLE_HEIGHT\] line 1 \(the 1st -c\): not stackable/m);
    const checked = await cli(['check', quote.id, '--fail-on', 'risk', '--json']);
    expect(checked.code).toBe(1);
    const report = JSON.parse(checked.stdout) as { warnings: Warning[]; differenceInCents: number };
    expect(report.warnings.map((item) => item.code)).toEqual(['NON_STACKABLE_HEIGHT', 'WIDE_FREIGHT']);
    // Both rules rebill the same line: it is at stake once, at the larger of the two.
    expect(report.differenceInCents).toBe(Math.max(...report.warnings.map((item) => item.priceAtStake!.differenceInCents)));

    const shipped = await cli([
      'ship',
      '--quote',
      quote.id,
      '--shipper',
      withContact('name=Acme,address1=100 N State St,city=Chicago,state=IL,zipCode=60601'),
      '--consignee',
      withContact('name=Peach Supply,address1=1 Peachtree St NE,city=Atlanta,state=GA,zipCode=30301'),
      '-c',
      'pallets=1,weight=400,dims=48x72x40,desc=Cases,stackable=false',
      '--json',
    ]);
    expect(shipped.code, shipped.stderr).toBe(0);
    const shipment = JSON.parse(shipped.stdout) as { orderNumber: string; warnings: Warning[] };
    expect(shipment.warnings.map((item) => item.code)).toEqual(expect.arrayContaining(['NON_STACKABLE_HEIGHT', 'WIDE_FREIGHT']));
    const byOrder = await cli(['check', shipment.orderNumber]);
    expect(byOrder.code).toBe(0);
    expect(byOrder.stdout).toMatch(new RegExp(`^Checked shipment sh_\\w+: 2 warnings \\(2 risk, 0 warn`));
    expect((await cli(['check', 'qt_00000000000000000000000000'])).code).toBe(4);
  });
});
