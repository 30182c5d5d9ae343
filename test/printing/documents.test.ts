/**
 * `invoice --print` and `audit --dispute-dir DIR --print` (issue 43 item 1): the PDFs reach the
 * stand-in lp as written, with Letter media; read back with pdfjs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LocalApi } from '../../src/api/local.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { ATLANTA, CHICAGO, MACHINE_PARTS, SPARE_BELTS } from '../audit/fixtures.js';
import { standInSpooler } from './standIns.js';

describe('invoice and dispute packs to the printer', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let shipment: Shipment;
  let lp: Awaited<ReturnType<typeof standInSpooler>>;
  let env: Record<string, string>;
  const shipper = (args: string[], extra: Record<string, string> = {}) => runInProcess(['--store', join(dir, 'store'), ...args], { env: { ...env, ...extra }, cwd: dir });

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-print-docs-'));
    const api = new LocalApi({ storeDir: join(dir, 'store'), now: () => new Date('2026-11-18T18:00:00.000Z') });
    ({ data: shipment } = await api.createShipment({
      refNumber: 'PO-1',
      pickupAddress: CHICAGO,
      deliveryAddress: ATLANTA,
      accessorials: ['LIFTGATE_DELIVERY'],
      carrier: { name: 'Roadrunner Freight', scac: 'RRFT' },
      proNumber: '7204801',
      orderComponents: [MACHINE_PARTS, SPARE_BELTS],
    } as never));
    await api.close();
    lp = await standInSpooler(join(dir, 'spool'));
    env = { SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: '2026-12-02T10:00:00Z', PATH: lp.bin };
  });
  afterAll(() => cleanup());

  it('invoice --print: the invoice PDF on the print.invoice printer, with the JSON of the invoice and of the run', async () => {
    expect((await shipper(['config', 'set', 'print.invoice', 'office'])).code).toBe(0);
    const result = await shipper(['invoice', shipment.orderNumber, '--print', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { invoice: { invoiceNumber: string }; printed: number; documents: Array<{ document: string }> };
    expect(report.printed).toBe(1);
    expect(report.documents[0]!.document).toBe(report.invoice.invoiceNumber);
    const [job] = await lp.jobs();
    expect(job!.args.slice(0, 6)).toEqual(['-d', 'office', '-n', '1', '-o', 'media=Letter']);
    const pdf = await readPdf(new Uint8Array(job!.file));
    expect(pdf.pages[0]!.text).toContain(report.invoice.invoiceNumber);
  });

  it('audit --dispute-dir --print: each pack printed as written; still exit 6 for the dispute, 7 when the printer refuses', async () => {
    const bills = join(dir, 'bills.csv');
    await writeFile(
      bills,
      [
        'Invoice Number,PRO Number,BOL Number,SCAC,Bill Date,Billed Weight,Billed Class,Description,NMFC,Pieces,Linehaul,Discount,Fuel,Accessorials,Total',
        'I7204801,7204801,,RRFT,2026-12-01,"1,450",92.5,Machine parts,161030,10,"$1,618.57",-1133.00,145.67,LFT=75.00,706.24',
        ',,,,,300,175,Spare belts,,,,,,,',
      ].join('\r\n'),
    );
    const before = (await lp.jobs()).length;
    const result = await shipper(['audit', bills, '--no-save', '--dispute-dir', 'packs', '--print', '--printer', 'claims', '--copies', '2']);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stdout).toContain('printed  dispute-I7204801  on claims  (2 copies)');
    const jobs = (await lp.jobs()).slice(before);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.args.slice(0, 6)).toEqual(['-d', 'claims', '-n', '2', '-o', 'media=Letter']);
    expect(jobs[0]!.file.equals(await readFile(join(dir, 'packs', 'dispute-I7204801.pdf')))).toBe(true);
    expect((await readPdf(new Uint8Array(jobs[0]!.file))).pages.length).toBeGreaterThan(1);

    const refused = await shipper(['audit', bills, '--no-save', '--force', '--dispute-dir', 'packs', '--print', '--printer', 'nosuch', '--json']);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('lp: queue nosuch does not exist');
    expect((JSON.parse(refused.stdout) as { print: { printed: number; notPrinted: number } }).print).toMatchObject({ printed: 0, notPrinted: 1 });
    expect((await shipper(['audit', bills, '--no-save', '--print'])).code).toBe(2);
  });
});

describe('remote mode: documents fetched from the server, printed here, the run recorded in the local store', () => {
  it('labels and a BOL of a shipment booked on the server', async () => {
    const { startServe } = await import('../helpers/serve.js');
    const { thermalPrinter } = await import('./standIns.js');
    const { dir, cleanup } = await tempDir('shipper-print-remote-');
    const serverStore = join(dir, 'server');
    const api = new LocalApi({ storeDir: serverStore, now: () => new Date('2026-11-18T18:00:00.000Z') });
    const { data: shipment } = await api.createShipment({ refNumber: 'PO-9', pickupAddress: CHICAGO, deliveryAddress: ATLANTA, orderComponents: [MACHINE_PARTS] } as never);
    await api.close();
    const server = await startServe({ store: serverStore });
    const zebra = await thermalPrinter();
    const lp = await standInSpooler(join(dir, 'spool'));
    try {
      const env = { SHIPPER_CONFIG_DIR: join(dir, 'config'), PATH: lp.bin };
      const remote = (args: string[]) => runInProcess(['--base-url', server.url, '--store', join(dir, 'local'), ...args], { env, cwd: dir });
      const labels = await remote(['labels', shipment.orderNumber, '--print', '--printer', zebra.url]);
      expect(labels.code, labels.stderr).toBe(0);
      const local = await runInProcess(['--store', serverStore, 'labels', shipment.id, '--format', 'zpl', '-o', '-'], { env, cwd: dir });
      expect(zebra.documents).toHaveLength(1);
      expect(zebra.documents[0]!.toString('latin1')).toBe(local.stdout);
      const bol = await remote(['bol', shipment.id, '--print', '--printer', 'dock']);
      expect(bol.code, bol.stderr).toBe(0);
      const [job] = await lp.jobs();
      expect((await readPdf(new Uint8Array(job!.file))).pages[0]!.text).toContain(shipment.bolNumber);
      // The runs are the user's own: in the local store, none in the server's.
      const { readdir } = await import('node:fs/promises');
      expect((await readdir(join(dir, 'local', 'print-runs'))).filter((name) => name.endsWith('.json'))).toHaveLength(2);
      await expect(readdir(join(serverStore, 'print-runs'))).rejects.toThrow();
    } finally {
      await zebra.close();
      await server.stop();
      await cleanup();
    }
  });
});
