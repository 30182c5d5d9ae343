/**
 * `shipper printer add|list|remove|test` (issue 43 item 3): profiles kept with the config, used by
 * --print without --printer, tested on a real TCP listener and a stand-in lp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { readPdf } from '../bol/pdf-reader.js';
import { BOOK_ONE_PALLET } from '../helpers/shipmentsRead.js';
import { standInSpooler, thermalPrinter, type ThermalPrinter } from './standIns.js';

describe('shipper printer', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let zebra: ThermalPrinter;
  let env: Record<string, string>;
  let lp: Awaited<ReturnType<typeof standInSpooler>>;
  const shipper = (args: string[]) => runInProcess(['--store', join(dir, 'store'), ...args], { env, cwd: dir });

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-printer-'));
    zebra = await thermalPrinter();
    lp = await standInSpooler(join(dir, 'spool'));
    env = { SHIPPER_CONFIG_DIR: join(dir, 'config'), PATH: lp.bin, SHIPPER_NOW: '2026-11-18T18:00:00.000Z' };
  });
  afterAll(async () => {
    await zebra.close();
    await cleanup();
  });

  it('adds a ZPL printer and a queue, each the default of its documents, kept in the config file, not the store', async () => {
    const added = await shipper(['printer', 'add', 'zebra-2', '--zpl', zebra.url, '--default-for', 'labels']);
    expect(added.code, added.stderr).toBe(0);
    expect((await shipper(['printer', 'add', 'dock-laser', '--queue', 'HP_M507', '--copies', '3', '--default-for', 'bol,invoice'])).code).toBe(0);
    const listed = await shipper(['printer', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual({
      printers: [
        { name: 'dock-laser', queue: 'HP_M507', copies: 3, defaultFor: ['bol', 'invoice'] },
        { name: 'zebra-2', zpl: zebra.url, defaultFor: ['labels'] },
      ],
      print: { bol: 'dock-laser', labels: 'zebra-2', invoice: 'dock-laser' },
    });
    const config = JSON.parse(await readFile(join(dir, 'config', 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config.printers).toEqual({ 'zebra-2': { zpl: zebra.url }, 'dock-laser': { queue: 'HP_M507', copies: 3 } });
    const table = await shipper(['printer', 'list']);
    expect(table.stdout).toMatch(/zebra-2[\s│]+zpl tcp:\/\/127\.0\.0\.1:\d+/);
    expect(table.stdout).toMatch(/dock-laser[\s│]+queue HP_M507/);
  });

  it("--print without --printer uses each document kind's printer and the profile's copies", async () => {
    const booked = await shipper([...BOOK_ONE_PALLET]);
    expect(booked.code, booked.stderr).toBe(0);
    const id = (JSON.parse(booked.stdout) as { id: string }).id;
    const labels = await shipper(['labels', id, '--print']);
    expect(labels.code, labels.stderr).toBe(0);
    expect(labels.stdout).toContain('on zebra-2');
    expect(zebra.documents).toHaveLength(1);
    const bol = await shipper(['bol', id, '--print']);
    expect(bol.code, bol.stderr).toBe(0);
    const [job] = await lp.jobs();
    expect(job!.args.slice(0, 6)).toEqual(['-d', 'HP_M507', '-n', '3', '-o', 'media=Letter']);
  });

  it('test prints a label or a page that says which printer and when', async () => {
    const label = await shipper(['printer', 'test', 'zebra-2']);
    expect(label.code, label.stderr).toBe(0);
    await zebra.received(2);
    const zpl = zebra.documents[1]!.toString('latin1');
    expect(zpl).toMatch(/^\^XA/);
    expect(zpl).toContain('^FDprinter zebra-2^FS');
    expect(zpl).toContain('^FDat 2026-11-18T18:00');
    const page = await shipper(['printer', 'test', 'dock-laser']);
    expect(page.code, page.stderr).toBe(0);
    const jobs = await lp.jobs();
    const pdf = await readPdf(new Uint8Array(jobs.at(-1)!.file));
    expect(pdf.pages[0]!.text).toContain('printer dock-laser');
    expect(pdf.pages[0]!.text).toContain('queue HP_M507');
    expect(pdf.pages[0]!.text).toContain('at 2026-11-18T18:00');
  });

  it('refuses what cannot work; remove forgets the printer and unsets its defaults', async () => {
    expect((await shipper(['printer', 'add', 'x', '--queue', 'q', '--zpl', 'tcp://h'])).code).toBe(2);
    expect((await shipper(['printer', 'add', 'x'])).code).toBe(2);
    expect((await shipper(['printer', 'add', 'x', '--zpl', 'http://h'])).code).toBe(2);
    const zplBol = await shipper(['printer', 'add', 'x', '--zpl', 'tcp://h', '--default-for', 'bol']);
    expect(zplBol.code).toBe(2);
    expect(zplBol.stderr).toContain('a ZPL printer prints labels only');
    expect((await shipper(['printer', 'remove', 'nosuch'])).code).toBe(4);
    const removed = await shipper(['printer', 'remove', 'zebra-2', '--json']);
    expect(JSON.parse(removed.stdout)).toEqual({ name: 'zebra-2', removed: true, defaultsCleared: ['labels'] });
    expect(JSON.parse((await shipper(['printer', 'list', '--json'])).stdout)).toEqual({
      printers: [{ name: 'dock-laser', queue: 'HP_M507', copies: 3, defaultFor: ['bol', 'invoice'] }],
      print: { bol: 'dock-laser', invoice: 'dock-laser' },
    });
  });
});
