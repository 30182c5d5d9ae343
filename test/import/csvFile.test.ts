import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportFileError, inspectCsvFile, openCsvFile, sniffDelimiter } from '../../src/import/csvFile.js';
import type { CsvRow } from '../../src/import/shipmentRows.js';
import { tempDir } from '../helpers/cli.js';

let dir: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir('shipper-csv-');
});
afterEach(() => dir.cleanup());

async function fileWith(content: string | Buffer, name = 'in.csv'): Promise<string> {
  const path = join(dir.dir, name);
  await writeFile(path, content);
  return path;
}

async function readAll(path: string): Promise<{ rows: CsvRow[]; delimiter: string; bom: boolean; header: string[] }> {
  const reading = await openCsvFile(path);
  const rows: CsvRow[] = [];
  for await (const row of reading.rows) rows.push(row);
  return { rows, delimiter: reading.delimiter, bom: reading.bom, header: reading.header.cells };
}

async function fileError(promise: Promise<unknown>): Promise<ImportFileError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

const HEADER = 'refNumber,shipper,consignee,palletCount,poundsWeight,length,width,height,description';

describe('reading a shipment CSV', () => {
  it('reads a BOM, CRLF line ends and quoted values with delimiters, quotes and newlines, and numbers lines as a text editor does', async () => {
    const path = await fileWith(`\uFEFF${HEADER}\r\nA,dc,store,1,500,48,40,48,"Parts, ""boxed""\r\nsecond line"\r\n\r\nB,dc,store,2,900,48,40,48,plain\r\n`);
    const { rows, bom, header } = await readAll(path);
    expect(bom).toBe(true);
    expect(header[0]).toBe('refNumber');
    expect(rows.map((row) => row.line)).toEqual([2, 5]);
    expect(rows[0]!.cells[8]).toBe('Parts, "boxed"\r\nsecond line');
  });

  it('sniffs ; and tab delimiters from the header line', async () => {
    expect(sniffDelimiter('refNumber;shipper;consignee\n1,5;x;y')).toBe(';');
    expect(sniffDelimiter('refNumber\tshipper\tconsignee')).toBe('\t');
    expect(sniffDelimiter('"a;b",c,d')).toBe(',');
    const { rows, delimiter } = await readAll(await fileWith(`${HEADER.replace(/,/g, ';')}\nA;dc;store;1;500;48;40;48;Parts, boxed\n`));
    expect(delimiter).toBe(';');
    expect(rows[0]!.cells[8]).toBe('Parts, boxed');
  });

  it('skips blank lines and rows of empty cells (spreadsheet leftovers)', async () => {
    const { rows } = await readAll(await fileWith(`\n${HEADER}\n,,,,,,,,\nA,dc,store,1,500,48,40,48,x\n\n`));
    expect(rows.map((row) => row.line)).toEqual([4]);
  });

  it('refuses an empty file, a missing file and a directory', async () => {
    expect((await fileError(inspectCsvFile(await fileWith('')))).message).toMatch(/is empty/);
    const missing = await fileError(inspectCsvFile(join(dir.dir, 'nope.csv')));
    expect(missing.kind).toBe('usage');
    expect(missing.message).toMatch(/no such file/);
    expect((await fileError(inspectCsvFile(dir.dir))).message).toMatch(/is a directory/);
  });

  it('refuses binary data, bytes that are not UTF-8, and UTF-16 text, naming the line', async () => {
    const binary = await fileError(readAll(await fileWith(Buffer.concat([Buffer.from(`${HEADER}\nA,b,c\n`), Buffer.from([0x00, 0x01, 0x02])]))));
    expect(binary.message).toMatch(/binary data .* on line 3/);
    const latin1 = await fileError(readAll(await fileWith(Buffer.concat([Buffer.from(`${HEADER}\nA,dc,store,1,500,48,40,48,Caf`), Buffer.from([0xe9, 0x0a])]))));
    expect(latin1.message).toMatch(/not UTF-8 text \(invalid bytes on line 2\)/);
    const utf16 = await fileError(readAll(await fileWith(Buffer.from(`\uFEFF${HEADER}`, 'utf16le'))));
    expect(utf16.message).toMatch(/UTF-16/);
  });

  it('reads a multi-byte character split between two read chunks (256 KB)', async () => {
    const description = '日'.repeat(20_000);
    // Pad so that byte 262,144 (the second chunk's first byte) falls inside a character.
    const content = [0, 1, 2]
      .map((pad) => `${HEADER}\n${Array.from({ length: 6 }, (_, index) => `R${index},dc,store,1,500,48,40,48,${index === 0 ? 'x'.repeat(pad) : ''}${description}`).join('\n')}\n`)
      .find((candidate) => (Buffer.from(candidate)[256 * 1024]! & 0xc0) === 0x80)!;
    const { rows } = await readAll(await fileWith(content));
    expect(rows).toHaveLength(6);
    expect(rows[5]!.cells[8]).toBe(description);
  });

  it('refuses a row longer than 64 KB (a runaway quote), naming its line', async () => {
    const error = await fileError(readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,${'x'.repeat(70_000)}\n`)));
    expect(error.message).toMatch(/line 2: a row longer than 64 KB/);
  });

  it('names the line of a quote that is never closed or of text after a closing quote', async () => {
    const unclosed = await fileError(readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,ok\nB,dc,store,1,500,48,40,48,"open\nC,dc\n`)));
    expect(unclosed.message).toMatch(/line 3: a quoted value is never closed/);
    const after = await fileError(readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,"x"y\n`)));
    expect(after.message).toMatch(/line 2: text right after a closing quote/);
  });

  it('refuses a file whose first line is not a header, or whose header has unknown or missing columns', async () => {
    expect((await fileError(openCsvFile(await fileWith('A,dc,store,1,500,48,40,48,x\n')))).message).toMatch(/line 1: the first line is not a header row/);
    const unknown = await fileError(openCsvFile(await fileWith(`${HEADER},weight\n`)));
    expect(unknown.message).toMatch(/unknown column "weight" \(did you mean poundsWeight\?\)/);
    const missing = await fileError(openCsvFile(await fileWith('refNumber,shipper,consignee,palletCount\n')));
    expect(missing.message).toMatch(/missing columns: poundsWeight, length, width, height/);
    expect((await fileError(openCsvFile(await fileWith('\n\n')))).message).toMatch(/no header row/);
  });

  it('hashes the bytes it reads', async () => {
    const content = `${HEADER}\nA,dc,store,1,500,48,40,48,x\n`;
    const reading = await openCsvFile(await fileWith(content));
    for await (const _row of reading.rows) void _row;
    const { createHash } = await import('node:crypto');
    expect(reading.digest()).toBe(createHash('sha256').update(content).digest('hex'));
  });
});
