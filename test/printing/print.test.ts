/**
 * `--print` at the dock (issue 43): labels to a real TCP listener standing in for a thermal
 * printer, BOLs and labels to a stand-in `lp` on PATH (its files read back with pdfjs), a batch
 * that a printer drops half-way and its --resume, and the failures' messages and exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { runInProcess } from '../helpers/inProcess.js';
import { readPdf } from '../bol/pdf-reader.js';
import { HEAD_OPEN_PAPER_OUT, PAUSED, READY, standInSpooler, thermalPrinter, type ThermalPrinter } from './standIns.js';

interface Dock {
  dir: string;
  env: Record<string, string>;
  shipper(args: string[], env?: Record<string, string>): ReturnType<typeof runInProcess>;
  ids: string[];
  orderNumbers: string[];
  cleanup(): Promise<void>;
}

/** A store with `count` shipments booked from a CSV (in file order), and a config directory of its own. */
async function dock(count: number): Promise<Dock> {
  const { dir, cleanup } = await tempDir('shipper-print-');
  const env = { SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: '2026-11-18T18:00:00.000Z', SHIPPER_BOL_COMPANY_PREFIX: '0614141' };
  const shipper = (args: string[], extra: Record<string, string> = {}) => runInProcess(['--store', join(dir, 'store'), ...args], { env: { ...env, ...extra }, cwd: dir });
  await writeFile(join(dir, 'batch.csv'), shipmentsCsv(count, 1));
  const imported = await shipper(['import', 'batch.csv', '--json']);
  expect(imported.code, imported.stderr).toBe(0);
  const listed = await shipper(['shipment', 'list', '--json', '--limit', String(count)]);
  const items = (JSON.parse(listed.stdout) as { items: Array<{ id: string; orderNumber: string }> }).items.reverse();
  expect(items).toHaveLength(count);
  return { dir, env, shipper, ids: items.map((item) => item.id), orderNumbers: items.map((item) => item.orderNumber), cleanup };
}

async function zplOf(d: Dock, id: string): Promise<Buffer> {
  const result = await runInProcess(['--store', join(d.dir, 'store'), 'labels', id, '--format', 'zpl', '-o', '-'], { env: d.env, cwd: d.dir });
  expect(result.code, result.stderr).toBe(0);
  return Buffer.from(result.stdout, 'latin1');
}

describe('labels --print to a thermal printer (raw ZPL over TCP)', () => {
  let d: Dock;
  let printer: ThermalPrinter;
  beforeAll(async () => {
    d = await dock(3);
  });
  afterAll(async () => {
    await printer?.close();
    await d.cleanup();
  });

  it('sends exactly the ZPL that labels --format zpl writes, in order, each document on its own connection, the copies asked for', async () => {
    printer = await thermalPrinter();
    const result = await d.shipper(['labels', ...d.ids, '--print', '--printer', printer.url, '--copies', '2', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(printer.statusQueries).toBe(1);
    expect(printer.documents).toHaveLength(3);
    for (const [index, id] of d.ids.entries()) {
      const zpl = await zplOf(d, id);
      expect(zpl.toString('latin1')).toMatch(/^\^XA/);
      expect(printer.documents[index]!.equals(Buffer.concat([zpl, zpl]))).toBe(true);
    }
    const report = JSON.parse(result.stdout) as { printed: number; notPrinted: number; documents: Array<{ shipmentId: string; printed: boolean; document: string }> };
    expect(report).toMatchObject({ printed: 3, notPrinted: 0 });
    expect(report.documents.map((document) => [document.shipmentId, document.printed, document.document])).toEqual(
      d.ids.map((id, index) => [id, true, `labels-${d.orderNumbers[index]}`]),
    );
    await printer.close();
  });

  it('asks ~HS first; a paused printer stops the batch before anything is sent, and the message says so', async () => {
    printer = await thermalPrinter();
    printer.status = PAUSED;
    const result = await d.shipper(['labels', '--all', '--print', '--printer', printer.url]);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`printer ${printer.url} is not ready: paused; nothing was sent`);
    expect(printer.statusQueries).toBe(1);
    expect(printer.documents).toHaveLength(0);
    expect(result.stdout).not.toContain('printed ');

    printer.status = HEAD_OPEN_PAPER_OUT;
    const json = await d.shipper(['labels', '--all', '--print', '--printer', printer.url, '--json']);
    expect(json.code).toBe(7);
    expect(json.stderr).toContain('is not ready: paper out, head open');
    const report = JSON.parse(json.stdout) as { printed: number; documents: Array<{ printed: boolean; reason: string }> };
    expect(report.printed).toBe(0);
    expect(report.documents.every((document) => !document.printed && /printer check failed/.test(document.reason))).toBe(true);
    expect(printer.documents).toHaveLength(0);

    // A raw printer that does not speak ~HS (closes without an answer) is printed to.
    printer.status = undefined;
    const silent = await d.shipper(['labels', '--all', '--print', '--printer', printer.url]);
    expect(silent.code, silent.stderr).toBe(0);
    expect(printer.documents).toHaveLength(3);
    printer.status = READY;
    await printer.close();
  });

  it('refuses a BOL for a ZPL-only printer, saying why, and sends nothing', async () => {
    printer = await thermalPrinter();
    const result = await d.shipper(['bol', d.ids[0]!, '--print', '--printer', printer.url]);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`printer ${printer.url} takes ZPL only: a BOL is a letter-size PDF and is not sent to it`);
    expect(printer.statusQueries + printer.documents.length).toBe(0);
    await printer.close();
  });
});

describe('the system spooler (a stand-in lp on PATH)', () => {
  let d: Dock;
  beforeAll(async () => {
    d = await dock(2);
  });
  afterAll(() => d.cleanup());

  it('BOLs: queue, copies and Letter media as lp options; each file a PDF that pdfjs reads, with its BOL', async () => {
    const lp = await standInSpooler(join(d.dir, 'lp1'));
    const result = await d.shipper(['bol', ...d.orderNumbers, '--print', '--printer', 'dock-laser', '--copies', '3'], { PATH: lp.bin });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`printed  BOL-${d.orderNumbers[0]}  on dock-laser  (3 copies)  dock-laser-1`);
    const jobs = await lp.jobs();
    expect(jobs).toHaveLength(2);
    for (const [index, job] of jobs.entries()) {
      expect(job.args.slice(0, -1)).toEqual(['-d', 'dock-laser', '-n', '3', '-o', 'media=Letter', '-t', `BOL-${d.orderNumbers[index]}`, '--']);
      expect(job.fileName).toBe(`BOL-${d.orderNumbers[index]}.pdf`);
      const pdf = await readPdf(new Uint8Array(job.file));
      expect(pdf.pages[0]!.text).toContain('BILL OF LADING');
      expect(pdf.pages[0]!.text).toContain(d.orderNumbers[index]);
    }
    // Without -o nothing is written in the working directory.
    expect((await import('node:fs/promises').then(({ readdir }) => readdir(d.dir))).filter((name) => name.endsWith('.pdf'))).toEqual([]);
  });

  it('labels to a queue: 4x6 PDF pages, the system default queue when no printer is named; -o writes the file too', async () => {
    const lp = await standInSpooler(join(d.dir, 'lp2'));
    const result = await d.shipper(['labels', d.ids[1]!, '--print', '-o', 'out/labels.pdf', '--json'], { PATH: lp.bin });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { file: string; printed: number; documents: Array<{ requestId: string }> };
    expect(report.file).toBe(join(d.dir, 'out', 'labels.pdf'));
    expect(report.printed).toBe(1);
    expect(report.documents[0]!.requestId).toBe('default-1');
    const [job] = await lp.jobs();
    expect(job!.args.slice(0, 4)).toEqual(['-n', '1', '-o', 'media=4x6']);
    const pdf = await readPdf(new Uint8Array(job!.file));
    expect(pdf.pages[0]!.width).toBeCloseTo(288, 0);
    expect(pdf.pages[0]!.height).toBeCloseTo(432, 0);
    expect(pdf.pages[0]!.text).toContain(d.orderNumbers[1]);
  });

  it('lpr where there is no lp: -P, -#copies', async () => {
    const lpr = await standInSpooler(join(d.dir, 'lpr'), 'lpr');
    const result = await d.shipper(['bol', d.ids[0]!, '--print', '--printer', 'office'], { PATH: lpr.bin });
    expect(result.code, result.stderr).toBe(0);
    const [job] = await lpr.jobs();
    expect(job!.args.slice(0, 5)).toEqual(['-P', 'office', '-#1', '-o', 'media=Letter']);
  });
});

describe('failures: one line naming the printer, exit 7, nothing reported printed that was not accepted', () => {
  let d: Dock;
  beforeAll(async () => {
    d = await dock(1);
  });
  afterAll(() => d.cleanup());

  it('no spooler installed', async () => {
    const result = await d.shipper(['bol', d.ids[0]!, '--print', '--json'], { PATH: join(d.dir, 'empty') });
    expect(result.code).toBe(7);
    expect(result.stderr.trim()).toBe(
      'shipper: no print spooler: neither lp nor lpr is on the PATH; install CUPS (Debian/Ubuntu: apt install cups-client; macOS has it), or print to a thermal printer with --printer tcp://HOST:9100',
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ printed: 0, notPrinted: 1, documents: [{ printed: false }] });
  });

  it('an unknown queue, and no default queue', async () => {
    const lp = await standInSpooler(join(d.dir, 'lp'));
    const result = await d.shipper(['bol', d.ids[0]!, '--print', '--printer', 'nosuch', '--json'], { PATH: lp.bin });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('shipper: lp: queue nosuch does not exist (lp: The printer or class does not exist.); lpstat -p lists the queues');
    expect(JSON.parse(result.stdout)).toMatchObject({ printed: 0, documents: [{ printed: false, reason: expect.stringContaining('queue nosuch does not exist') }] });
    const noDefault = await d.shipper(['bol', d.ids[0]!, '--print'], { PATH: lp.bin, LP_NO_DEFAULT: '1' });
    expect(noDefault.code).toBe(7);
    expect(noDefault.stderr).toContain('lp: no default queue on this machine; give --printer NAME, set print.bol');
    expect(await lp.jobs()).toEqual([]);
  });

  it('a printer that refuses the connection, and a host that does not exist', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await d.shipper(['labels', d.ids[0]!, '--print', '--printer', `tcp://127.0.0.1:${port}`, '--json']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`printer tcp://127.0.0.1:${port} refused the connection; check that it is on and that the port is its raw port (9100)`);
    expect(JSON.parse(result.stdout)).toMatchObject({ printed: 0, documents: [{ printed: false }] });
    const unknown = await d.shipper(['labels', d.ids[0]!, '--print', '--printer', 'tcp://no-such-printer.invalid']);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr).toContain('printer tcp://no-such-printer.invalid:9100: host no-such-printer.invalid not found');
  });

  it('a printer that takes the bytes but never closes: the timeout (print.timeoutMs / SHIPPER_PRINT_TIMEOUT_MS) reports it not printed', async () => {
    const held: import('node:net').Socket[] = [];
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
      socket.resume(); // reads everything, never answers, never closes
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await d.shipper(['labels', d.ids[0]!, '--print', '--printer', url, '--json'], { SHIPPER_PRINT_TIMEOUT_MS: '200' });
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`printer ${url} stopped taking data for 200 ms; the document may be incomplete`);
    expect(JSON.parse(result.stdout)).toMatchObject({ printed: 0, documents: [{ printed: false }] });
  });

  it('--printer or --copies without --print is a usage error; --copies 0 and 100 are refused', async () => {
    expect((await d.shipper(['bol', d.ids[0]!, '--printer', 'x'])).code).toBe(2);
    expect((await d.shipper(['bol', d.ids[0]!, '--print', '--copies', '0'])).code).toBe(2);
    expect((await d.shipper(['bol', d.ids[0]!, '--print', '--copies', '100'])).code).toBe(2);
  });
});

describe('a batch of 50 that the printer drops after 20, and --resume', () => {
  let d: Dock;
  let printer: ThermalPrinter;
  beforeAll(async () => {
    d = await dock(50);
    printer = await thermalPrinter();
  });
  afterAll(async () => {
    await printer.close();
    await d.cleanup();
  });

  it('20 reported printed, 30 not; --resume sends exactly the 30, in order; then nothing is left to resume', async () => {
    printer.acceptDocuments = 20;
    const first = await d.shipper(['labels', '--all', '--print', '--printer', printer.url, '--json']);
    expect(first.code).toBe(7);
    expect(first.stderr).toContain(`printer ${printer.url} dropped the connection before the document was complete`);
    const report = JSON.parse(first.stdout) as { printed: number; notPrinted: number; documents: Array<{ shipmentId: string; printed: boolean; reason?: string }> };
    expect(report).toMatchObject({ printed: 20, notPrinted: 30 });
    expect(report.documents.map((document) => document.shipmentId)).toEqual(d.ids);
    expect(report.documents.slice(0, 20).every((document) => document.printed)).toBe(true);
    expect(report.documents.slice(20).every((document) => !document.printed && document.reason)).toBe(true);
    expect(printer.documents).toHaveLength(20);

    printer.acceptDocuments = Infinity;
    const resumed = await d.shipper(['labels', '--resume', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ printRun: (JSON.parse(first.stdout) as { printRun: string }).printRun, printed: 50, notPrinted: 0 });
    expect(printer.documents).toHaveLength(50);
    for (const [index, id] of d.ids.entries()) expect(printer.documents[index]!.equals(await zplOf(d, id)), `document ${index}`).toBe(true);

    const again = await d.shipper(['labels', '--resume']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('nothing to resume: every --print run of shipper labels finished');
    expect(printer.documents).toHaveLength(50);
  });
});

describe("import --print: every booked shipment's BOL and labels, in file order, and a re-run finishes the rest", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let zebra: ThermalPrinter;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-import-print-'));
    zebra = await thermalPrinter();
  });
  afterAll(async () => {
    await zebra.close();
    await cleanup();
  });

  it('BOLs to the spooler, labels to the thermal printer; a printer that stops leaves the rest to a re-run of the same file', async () => {
    const lp = await standInSpooler(join(dir, 'spool'));
    const env = { SHIPPER_CONFIG_DIR: join(dir, 'config'), SHIPPER_NOW: '2026-11-18T18:00:00.000Z', PATH: lp.bin };
    const shipper = (args: string[]) => runInProcess(['--store', join(dir, 'store'), ...args], { env, cwd: dir });
    await writeFile(join(dir, 'batch.csv'), shipmentsCsv(4, 1));
    zebra.acceptDocuments = 2;
    const first = await shipper(['import', 'batch.csv', '--print', '--bol-printer', 'dock-laser', '--label-printer', zebra.url, '--copies', '3', '--json']);
    expect(first.code, first.stderr).toBe(7);
    const document = JSON.parse(first.stdout) as {
      shipments: Array<{ id: string; orderNumber: string; line: number }>;
      summary: { booked: number };
      print: { printed: number; notPrinted: number; documents: Array<{ kind: string; shipmentId: string; printed: boolean }> };
    };
    expect(document.summary.booked).toBe(4);
    const inFileOrder = [...document.shipments].sort((a, b) => a.line - b.line);
    expect(document.print.documents.map((entry) => `${entry.kind}:${entry.shipmentId}`)).toEqual(inFileOrder.flatMap(({ id }) => [`bol:${id}`, `labels:${id}`]));
    // BOL 1, labels 1, BOL 2, labels 2 went out; the third labels were refused, and nothing after them was sent.
    expect(document.print.documents.map((entry) => entry.printed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(first.stderr).toContain('dropped the connection');
    const jobs = await lp.jobs();
    expect(jobs.map((job) => job.fileName)).toEqual(inFileOrder.slice(0, 3).map(({ orderNumber }) => `BOL-${orderNumber}.pdf`));
    expect(jobs.every((job) => job.args.join(' ').startsWith('-d dock-laser -n 3 -o media=Letter'))).toBe(true);

    zebra.acceptDocuments = Infinity;
    const again = await shipper(['import', 'batch.csv', '--print', '--bol-printer', 'dock-laser', '--label-printer', zebra.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('continuing print run');
    expect(again.stdout).toContain(`printed  labels-${inFileOrder[2]!.orderNumber}`);
    expect(again.stdout).not.toContain(`printed  BOL-${inFileOrder[2]!.orderNumber}`);
    expect((await lp.jobs()).map((job) => job.fileName)).toEqual(inFileOrder.map(({ orderNumber }) => `BOL-${orderNumber}.pdf`));
    expect(zebra.documents).toHaveLength(4);
  });
});

describe('Ctrl-C in the middle of a batch (a real process)', () => {
  let d: Dock;
  let printer: ThermalPrinter;
  beforeAll(async () => {
    d = await dock(8);
    printer = await thermalPrinter();
  });
  afterAll(async () => {
    await printer.close();
    await d.cleanup();
  });

  it('finishes the document being sent, says which were sent and which not (exit 7), and --resume sends the rest', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN, ISOLATED_SETTINGS } = await import('../helpers/cli.js');
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, ...d.env };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const child = spawn(process.execPath, [BIN, '--store', join(d.dir, 'store'), '--json', 'labels', '--all', '--print', '--printer', printer.url], { env, cwd: d.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The third document is held open by the printer until Ctrl-C has been sent.
    printer.onDocument = (index) => {
      if (index !== 2) return;
      child.kill('SIGINT');
      return new Promise<void>((resolve) => child.stderr.on('data', () => stderr.includes('stopping after the document being sent') && resolve()));
    };
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    printer.onDocument = undefined;
    expect(code, stderr).toBe(7);
    expect(stderr).toContain('stopped by Ctrl-C; run the command again with --resume to print the rest');
    const report = JSON.parse(stdout) as { printed: number; notPrinted: number; documents: Array<{ printed: boolean; reason?: string }> };
    expect(report).toMatchObject({ printed: 3, notPrinted: 5 });
    expect(report.documents.slice(3).every((document) => !document.printed && document.reason)).toBe(true);
    expect(printer.documents).toHaveLength(3);

    const resumed = await d.shipper(['labels', '--resume', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ printed: 8, notPrinted: 0 });
    expect(printer.documents).toHaveLength(8);
    for (const [index, id] of d.ids.entries()) expect(printer.documents[index]!.equals(await zplOf(d, id)), `document ${index}`).toBe(true);
  });
});

describe('the progress bar', () => {
  it('counts documents on a terminal, and is never drawn when stderr is not one', async () => {
    const d = await dock(2);
    const printer = await thermalPrinter();
    try {
      const shown = await runInProcess(['--store', join(d.dir, 'store'), 'labels', '--all', '--print', '--printer', printer.url], {
        env: { ...d.env, CI: undefined },
        cwd: d.dir,
        stderrColumns: 100,
      });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stderr).toMatch(/Printing .*2\/2 documents/);
      const piped = await d.shipper(['labels', '--all', '--print', '--printer', printer.url]);
      expect(piped.stderr).not.toContain('Printing');
      expect(piped.stderr).toContain('Printed 2 documents');
    } finally {
      await printer.close();
      await d.cleanup();
    }
  });
});
