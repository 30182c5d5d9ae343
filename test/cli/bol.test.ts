import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { tempDir } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { readPdf } from '../bol/pdf-reader.js';

let store: string;
let out: string;
let cleanups: Array<() => Promise<void>> = [];
let cli: ReturnType<typeof storeInProcess>;
let shipments: Shipment[];

const address = (name: string, zipCode: string, city: string, state: string) => ({ name, address1: '1 Dock Rd', city, state, zipCode });

beforeAll(async () => {
  const storeTemp = await tempDir();
  const outTemp = await tempDir();
  store = storeTemp.dir;
  out = outTemp.dir;
  cleanups = [storeTemp.cleanup, outTemp.cleanup];
  cli = storeInProcess(store);
  const api = new LocalApi({ storeDir: store });
  shipments = [];
  for (const refNumber of ['PO-7781', null]) {
    const { data } = await api.createShipment({
      refNumber,
      pickupAddress: address('Acme Widgets', '60601', 'Chicago', 'IL'),
      deliveryAddress: address('Métro Électrique', '10001', 'New York', 'NY'),
      orderComponents: [
        {
          palletCount: 2,
          poundsWeight: 1200,
          dimensions: { length: 48, width: 40, height: 48 },
          description: 'Steel brackets',
          nmfcCode: '161030',
          packagingType: 'crates',
          pieceCount: 12,
        },
        { palletCount: 1, poundsWeight: 300, dimensions: { length: 48, width: 40, height: 60 }, description: 'Foam panels' },
      ],
    });
    shipments.push(data);
  }
});
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())));

describe('shipper bol (in process)', () => {
  it('writes one PDF to the named file with the BOL number, the rows and the partner reference line', async () => {
    const file = join(out, 'one.pdf');
    const result = await cli(['bol', shipments[0]!.id, '--template', 'acme-logistics', '-o', file]);
    expect(result.code).toBe(0);
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await readPdf(new Uint8Array(bytes))).pages.map((page) => page.text).join('\n');
    expect(text).toContain(shipments[0]!.bolNumber);
    expect(text).toContain(`PO-7781 (${shipments[0]!.orderNumber})`);
    expect(text).toContain('Steel brackets');
    expect(text).toContain('Foam panels');
  });

  it('renders several shipments into a directory and reports them as JSON', async () => {
    const dir = join(out, 'many');
    const result = await cli(['bol', ...shipments.map((shipment) => shipment.id), '-o', dir, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.written).toHaveLength(2);
    expect((await readdir(dir)).sort()).toEqual(shipments.map((shipment) => `BOL-${shipment.orderNumber}.pdf`).sort());
  });

  it('reads ids from stdin and renders --all', async () => {
    const fromStdin = await cli(['bol', '-', '-o', join(out, 'stdin')], { input: `${shipments[1]!.id}\n` });
    expect(fromStdin.code).toBe(0);
    expect(await readdir(join(out, 'stdin'))).toEqual([`BOL-${shipments[1]!.orderNumber}.pdf`]);
    const all = await cli(['bol', '--all', '-o', join(out, 'all')]);
    expect(all.code).toBe(0);
    expect(await readdir(join(out, 'all'))).toHaveLength(2);
  });

  it('lists the templates', async () => {
    const result = await cli(['bol', '--templates', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((template: { name: string }) => template.name)).toEqual(expect.arrayContaining(['standard', 'acme-logistics']));
  });

  it('exits 4 for an unknown shipment and still writes the others; bad templates and -o misuse are clear errors', async () => {
    const dir = join(out, 'partial');
    const missing = 'sh_01JD3Y7T9Q2W5E8R1T4Y7V0A3B';
    const result = await cli(['bol', shipments[0]!.id, missing, '-o', dir]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(missing);
    expect(await readdir(dir)).toEqual([`BOL-${shipments[0]!.orderNumber}.pdf`]);
    const empty = await tempDir();
    try {
      const none = await storeInProcess(empty.dir)(['bol', '--all', '-o', join(out, 'none'), '--json']);
      expect(none.code).toBe(0);
      expect(JSON.parse(none.stdout)).toEqual({ written: [], skipped: [], failed: [] });
    } finally {
      await empty.cleanup();
    }
    const alone = await cli(['bol', missing, '-o', dir]);
    expect(alone.code).toBe(4);
    expect(alone.stderr.trim()).toBe(`shipper: shipment ${missing} not found`);
    const badTemplate = await cli(['bol', shipments[0]!.id, '--template', 'nope', '-o', join(out, 'bad')]);
    expect(badTemplate.code).not.toBe(0);
    expect(badTemplate.stderr).toMatch(/nope/);
    expect(badTemplate.stderr).not.toMatch(/\n\s+at /);
    await writeFile(join(out, 'plain-file'), 'x');
    const notDir = await cli(['bol', ...shipments.map((shipment) => shipment.id), '-o', join(out, 'x.pdf')]);
    expect(notDir.code).toBe(2);
  });
});
