/**
 * Malformed CSVs: each gets one clear message naming the problem (and its line and column where it
 * has one), a non-zero exit code, no stack trace, and leaves the store exactly as it was.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, type CliResult } from '../helpers/cli.js';
import { storeInProcess } from '../helpers/inProcess.js';
import { csvLine, HEADER, rowCells, shipmentsCsv } from '../helpers/csv.js';
import { WEDNESDAY } from '../helpers/fixtures.js';

let work: { dir: string; cleanup: () => Promise<void> };
let store: string;
let shipper: (args: string[]) => Promise<CliResult>;

beforeAll(async () => {
  work = await tempDir('shipper-malformed-');
  store = join(work.dir, 'store');
  const cli = storeInProcess(store);
  shipper = (args) => cli(args, { env: { SHIPPER_NOW: WEDNESDAY } });
  // A store with something in it, so that "unchanged" means something.
  await writeFile(join(work.dir, 'good.csv'), shipmentsCsv(2, 2, 'GOOD'));
  const seeded = await shipper(['import', join(work.dir, 'good.csv')]);
  expect(seeded.code, seeded.stderr).toBe(0);
});
afterAll(() => work.cleanup());

async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else
        files[relative(dir, path)] = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
    }
  };
  await walk(dir);
  return files;
}

const line = (cells: string[]) => csvLine(cells);
const validRow = line(rowCells('OK-1', true));

const CASES: Array<{ name: string; content: string | Buffer; exit: number; message: RegExp }> = [
  { name: 'a missing header row', content: `${validRow}\n`, exit: 1, message: /line 1: the first line is not a header row \("OK-1,Acme Chicago DC,2100 S Halsted St,…"\)/ },
  { name: 'an unknown column', content: `${HEADER.join(',')},weigth\n${validRow},12\n`, exit: 1, message: /line 1: unknown column "weigth" \(did you mean poundsWeight\?\)/ },
  {
    name: 'text in a number column',
    content: `${HEADER.join(',')}\n${validRow}\n${line(rowCells('OK-1', false, { weight: 'heavy' }))}\n`,
    exit: 1,
    message: /line 3, column poundsWeight \(orderComponents\[1\]\.poundsWeight\): poundsWeight must be a number \(got "heavy"\)/,
  },
  {
    name: 'a number too large for a double (1e309)',
    content: `${HEADER.join(',')}\n${line(rowCells('OK-1', true, { height: '1e309' }))}\n`,
    exit: 1,
    message: /line 2, column height \(orderComponents\[0\]\.dimensions\.height\): height must be a (finite )?number \(got "1e309"\)/,
  },
  {
    name: 'a negative piece count',
    content: `${HEADER.join(',')}\n${validRow}\n${line(rowCells('OK-1', false, { pieces: '-3' }))}\n`,
    exit: 1,
    message: /line 3, column pieceCount \(orderComponents\[1\]\.pieceCount\): pieceCount must be 0 or more \(got "-3"\)/,
  },
  {
    name: 'a 300-character description',
    content: `${HEADER.join(',')}\n${line(rowCells('OK-1', true, { desc: 'd'.repeat(300) }))}\n`,
    exit: 1,
    message: /line 2, column description \(orderComponents\[0\]\.description\): must be at most 256 characters/,
  },
  { name: 'an empty file', content: '', exit: 1, message: /is empty: a shipment CSV needs a header row and at least one row/ },
  { name: 'a header and no rows', content: `${HEADER.join(',')}\n`, exit: 1, message: /has a header row but no shipment rows/ },
  {
    name: 'a binary file',
    content: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00]),
    exit: 1,
    message: /is not a CSV text file: binary data \(a NUL byte\) on line 1/,
  },
  {
    name: 'a file that switches from UTF-8 to Windows-1252 half-way',
    content: Buffer.concat([
      Buffer.from(`${HEADER.join(',')}\n${line(rowCells('OK-1', true, { desc: 'Café' }))}\n`),
      Buffer.from('OK-2,Caf'),
      Buffer.from([0xe9]),
      Buffer.from(',x\n'),
    ]),
    exit: 1,
    message: /mixes two encodings: line 2 is UTF-8 text, line 3 is not \(Windows-1252\?\); save the whole file again as "CSV UTF-8"/,
  },
  {
    name: 'a quote that is never closed',
    content: `${HEADER.join(',')}\n${validRow}\n"OK-2,broken\n${validRow}\n`,
    exit: 1,
    message: /line 3, column refNumber: a quoted value is never closed/,
  },
];

describe('a malformed CSV', () => {
  it.each(CASES)('$name: one clear message, exit $exit, store unchanged', async ({ name, content, exit, message }) => {
    const path = join(work.dir, `${name.replace(/\W+/g, '-')}.csv`);
    await writeFile(path, content);
    const before = await snapshot(store);
    // Every shipment of these files is invalid: --skip-invalid has nothing to book either.
    // A reject file per case: --rejects never replaces a file that exists.
    for (const extra of [[], ['--skip-invalid', '--rejects', `${path}.rejects.csv`], ['--dry-run']]) {
      const result = await shipper(['import', path, ...extra]);
      expect(result.code, result.stderr).toBe(exit);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/^shipper: /);
      expect(result.stderr).not.toMatch(/\n\s+at |Error:/);
      expect(await snapshot(store)).toEqual(before);
    }
  });

  it('--json: the ProblemDetail on stdout, with line, column, field and value of each violation', async () => {
    const path = join(work.dir, 'json.csv');
    await writeFile(path, `${HEADER.join(',')}\n${line(rowCells('J-1', true, { pallets: '0', weight: '-5' }))}\n`);
    const result = await shipper(['import', path, '--json']);
    expect(result.code).toBe(1);
    const problem = JSON.parse(result.stdout) as { title: string; violations: unknown[] };
    expect(problem.title).toBe('Constraint Violation');
    expect(problem.violations).toEqual([
      { line: 2, column: 'palletCount', field: 'orderComponents[0].palletCount', reason: 'palletCount must be at least 1', value: '0' },
      { line: 2, column: 'poundsWeight', field: 'orderComponents[0].poundsWeight', reason: 'poundsWeight must be at least 1 lb', value: '-5' },
    ]);
  });

  it('a file that does not exist is a usage error (exit 2)', async () => {
    const result = await shipper(['import', join(work.dir, 'missing.csv')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing\.csv: no such file/);
  });
});
