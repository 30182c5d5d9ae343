/**
 * The files `shipper bol` writes (in process): named by order number, never replaced without
 * --force, `-o x.pdf` a file, and on a full disk (a real tmpfs when the test may mount one, else
 * ENOSPC injected) or with short writes: only whole PDFs, "N of M written" true, exit 5 naming
 * the file.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { readPdf } from '../bol/pdf-reader.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { canMount, injectShortWrites, smallDisk } from '../helpers/faults.js';
import { PALLETS, PUBLISHED_PICKUP, PUBLISHED_NYC } from '../helpers/fixtures.js';
import { runInProcess } from '../helpers/inProcess.js';

let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
let shipments: Shipment[];
let case_ = 0;
const bol = (args: string[], cwd?: string): Promise<CliResult> => runInProcess(['--store', store, 'bol', ...args], cwd ? { cwd } : {});

beforeAll(async () => {
  work = await tempDir('shipper-bol-files-');
  store = join(work.dir, 'store');
  const outcomes = (
    await new LocalApi({ storeDir: store }).createShipments({
      items: ['PO-1', 'PO-2', 'PO-3'].map((refNumber) => ({ request: { refNumber, pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] } })),
    })
  ).data.items;
  shipments = outcomes.map((outcome) => (outcome.ok ? outcome.data : expect.fail('booking failed')));
});
afterAll(() => work.cleanup());
afterEach(() => vi.restoreAllMocks());

async function outDir(): Promise<string> {
  const dir = join(work.dir, `out-${++case_}`);
  await mkdir(dir);
  return dir;
}

/** The PDF is whole: pdfjs reads it and it carries its shipment's BOL number. */
async function expectWholeBol(file: string, shipment: Shipment): Promise<void> {
  const text = (await readPdf(new Uint8Array(await readFile(file)))).pages.map((page) => page.text).join(' ');
  expect(text).toContain(shipment.bolNumber);
}

describe('BOL file names', () => {
  it('are the order numbers, in the current directory by default', async () => {
    const dir = await outDir();
    const result = await bol([shipments[0]!.id], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(dir)).toEqual([`BOL-${shipments[0]!.orderNumber}.pdf`]);
    expect(result.stdout).toContain(join(dir, `BOL-${shipments[0]!.orderNumber}.pdf`));
    await expectWholeBol(join(dir, `BOL-${shipments[0]!.orderNumber}.pdf`), shipments[0]!);
  });

  it('-o x.pdf with one shipment is that file, also through --all; an existing directory named x.pdf is a directory', async () => {
    const dir = await outDir();
    expect((await bol([shipments[1]!.id, '-o', join(dir, 'x.pdf')])).code).toBe(0);
    expect((await stat(join(dir, 'x.pdf'))).isFile()).toBe(true);
    await expectWholeBol(join(dir, 'x.pdf'), shipments[1]!);
    expect((await bol([shipments[1]!.id, '-o', join(dir, 'new', 'y.PDF')])).code).toBe(0);
    expect((await stat(join(dir, 'new', 'y.PDF'))).isFile()).toBe(true);

    const single = await tempDir('shipper-bol-single-');
    try {
      const outcome = (
        await new LocalApi({ storeDir: single.dir }).createShipments({
          items: [{ request: { pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] } }],
        })
      ).data.items[0]!;
      const all = await runInProcess(['--store', single.dir, 'bol', '--all', '-o', join(dir, 'all.pdf')]);
      expect(all.code, all.stderr).toBe(0);
      expect((await stat(join(dir, 'all.pdf'))).isFile()).toBe(true);
      await expectWholeBol(join(dir, 'all.pdf'), outcome.ok ? outcome.data : expect.fail('booking failed'));
    } finally {
      await single.cleanup();
    }

    await mkdir(join(dir, 'folder.pdf'));
    expect((await bol([shipments[2]!.id, '-o', join(dir, 'folder.pdf')])).code).toBe(0);
    expect(await readdir(join(dir, 'folder.pdf'))).toEqual([`BOL-${shipments[2]!.orderNumber}.pdf`]);
    const two = await bol([shipments[0]!.id, shipments[1]!.id, '-o', join(dir, 'two.pdf')]);
    expect(two.code).toBe(2);
    expect(two.stderr).toBe(`shipper: -o ${join(dir, 'two.pdf')} names one file but 2 BOLs were asked for; give a directory instead\n`);
  });
});

describe('an existing PDF', () => {
  it('is never replaced without --force: exit 2 (as every command’s existing output file) naming it, its bytes untouched; --force replaces it', async () => {
    const dir = await outDir();
    const file = join(dir, 'bol.pdf');
    await writeFile(file, 'the BOL a person annotated');
    const kept = await bol([shipments[0]!.id, '-o', file]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toBe(`shipper: ${file} exists: not replaced (--force replaces it)\n`);
    expect(await readFile(file, 'utf8')).toBe('the BOL a person annotated');
    const forced = await bol([shipments[0]!.id, '-o', file, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    await expectWholeBol(file, shipments[0]!);
  });

  it('of several: the others are written, the kept ones named, exit 2; --json lists them as skipped', async () => {
    const dir = await outDir();
    const kept = join(dir, `BOL-${shipments[1]!.orderNumber}.pdf`);
    await writeFile(kept, 'keep me');
    const result = await bol([...shipments.map((shipment) => shipment.id), '-o', dir, '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as { written: Array<{ shipmentId: string }>; skipped: Array<{ shipmentId: string; file: string }> };
    expect(report.written.map((entry) => entry.shipmentId)).toEqual([shipments[0]!.id, shipments[2]!.id]);
    expect(report.skipped).toEqual([{ shipmentId: shipments[1]!.id, file: kept }]);
    expect(result.stderr).toBe(
      `warning: [FILE_EXISTS] ${kept} exists: not replaced (--force replaces it)\nshipper: 1 of 3 BOLs not written: their files exist (--force replaces them)\n`,
    );
    expect(await readFile(kept, 'utf8')).toBe('keep me');
    expect((await readdir(dir)).sort()).toEqual(shipments.map((shipment) => `BOL-${shipment.orderNumber}.pdf`).sort());
  });
});

describe('writing BOLs when the disk fills up', () => {
  // One BOL of these shipments is about 36 KB: room for two, not three.
  it.each(['best', 'injected'] as const)('%s: stops at the file that does not fit, names it, exit 5; only whole PDFs are left and the count is true', async (mode) => {
    const probe = await outDir();
    expect((await bol([shipments[0]!.id, '-o', join(probe, 'probe.pdf')])).code).toBe(0);
    const size = (await stat(join(probe, 'probe.pdf'))).size;
    const tmpfs = mode === 'best' && canMount();
    const disk = await smallDisk(tmpfs ? Math.ceil((2.5 * size) / 4096) * 4096 : Math.floor(2.5 * size), mode);
    try {
      expect(disk.kind).toBe(tmpfs ? 'tmpfs' : 'injected');
      const result = await bol([...shipments.map((shipment) => shipment.id), '-o', disk.dir]);
      const third = join(disk.dir, `BOL-${shipments[2]!.orderNumber}.pdf`);
      expect(result.code).toBe(5);
      expect(result.stderr).toBe(`2 of 3 BOLs written to ${disk.dir}\nshipper: cannot write ${third}: no space left on the disk\n`);
      expect((await readdir(disk.dir)).sort()).toEqual(
        shipments
          .slice(0, 2)
          .map((shipment) => `BOL-${shipment.orderNumber}.pdf`)
          .sort(),
      );
      for (const shipment of shipments.slice(0, 2)) await expectWholeBol(join(disk.dir, `BOL-${shipment.orderNumber}.pdf`), shipment);
      disk.grow(64 * 1024 * 1024);
      const rerun = await bol([...shipments.map((shipment) => shipment.id), '-o', disk.dir]);
      expect(rerun.code).toBe(2); // the two kept, the third written now
      await expectWholeBol(third, shipments[2]!);
    } finally {
      await disk.cleanup();
    }
  });

  it('a disk that fills up while later batches render and wait: the written ones are whole and counted, nothing after the failing file is written', async () => {
    // 100 shipments: several batches of 32 in flight at once; room for about 45 files.
    const many = join(work.dir, 'many-store');
    const api = new LocalApi({ storeDir: many });
    const booked = (
      await api.createShipments({
        items: Array.from({ length: 100 }, (_, index) => ({
          request: { refNumber: `PO-M${index}`, pickupAddress: PUBLISHED_PICKUP, deliveryAddress: PUBLISHED_NYC, orderComponents: [PALLETS] },
        })),
      })
    ).data.items.map((outcome) => (outcome.ok ? outcome.data : expect.fail('booking failed')));
    const probe = await outDir();
    expect((await runInProcess(['--store', many, 'bol', booked[0]!.id, '-o', join(probe, 'probe.pdf')])).code).toBe(0);
    const size = (await stat(join(probe, 'probe.pdf'))).size;
    const disk = await smallDisk(Math.floor(45.5 * size), 'injected');
    try {
      const result = await runInProcess(['--store', many, 'bol', '--all', '-o', disk.dir, '-q']);
      expect(result.code).toBe(5);
      const files = (await readdir(disk.dir)).sort();
      const reported = result.stdout.split('\n').filter(Boolean);
      expect(reported.map((file) => file.split('/').at(-1)).sort()).toEqual(files);
      expect(files.length).toBeGreaterThan(32);
      expect(files.length).toBeLessThan(46);
      // -q: the paths written, then the file that did not fit.
      const failed = /^shipper: cannot write (\S+): no space left on the disk\n$/.exec(result.stderr)?.[1];
      expect(failed, result.stderr).toBeDefined();
      // The first ones in the order of --all, each whole; not the one that failed, nothing after it, no temporary file.
      const inOrder = (await api.listShipments({ limit: 500 })).data.items.map((shipment) => shipment.orderNumber);
      expect(files).toEqual(
        inOrder
          .slice(0, files.length)
          .map((orderNumber) => `BOL-${orderNumber}.pdf`)
          .sort(),
      );
      expect(failed!.endsWith(`BOL-${inOrder[files.length]}.pdf`)).toBe(true);
      for (const shipment of booked.filter((booking) => files.includes(`BOL-${booking.orderNumber}.pdf`)))
        await expectWholeBol(join(disk.dir, `BOL-${shipment.orderNumber}.pdf`), shipment);
    } finally {
      await disk.cleanup();
    }
  });

  it('every write short (1,000 bytes at a time): the PDFs are whole and reported as written', async () => {
    const dir = await outDir();
    const restore = injectShortWrites(1000);
    let result: CliResult;
    try {
      result = await bol([...shipments.map((shipment) => shipment.id), '-o', dir, '--json']);
    } finally {
      restore();
    }
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { written: Array<{ shipmentId: string; file: string; bytes: number }> };
    expect(report.written).toHaveLength(3);
    for (const entry of report.written) {
      expect((await stat(entry.file)).size).toBe(entry.bytes);
      await expectWholeBol(
        entry.file,
        shipments.find((shipment) => shipment.id === entry.shipmentId)!,
      );
    }
  });
});
