import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byteOrderMark, encodingOfLine, ImportFileError, inspectCsvFile, openCsvFile, sniffDelimiter, type CsvEncoding } from '../../src/import/csvFile.js';
import type { CsvRow } from '../../src/import/rows.js';
import { tempDir } from '../helpers/cli.js';
import { utf16beWithBom, utf16leWithBom, utf8WithBom, windows1252 } from '../helpers/excel.js';

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

async function readAll(path: string, encoding?: CsvEncoding): Promise<{ rows: CsvRow[]; delimiter: string; bom: boolean; header: string[]; encoding: CsvEncoding }> {
  const reading = await openCsvFile(path, { encoding });
  const rows: CsvRow[] = [];
  for await (const row of reading.rows) rows.push(row);
  return { rows, delimiter: reading.delimiter, bom: reading.bom, header: reading.header.cells, encoding: reading.encoding };
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

  it('refuses binary data, naming the line, in any encoding', async () => {
    const binary = await fileError(readAll(await fileWith(Buffer.concat([Buffer.from(`${HEADER}\nA,b,c\n`), Buffer.from([0x00, 0x01, 0x02])]))));
    expect(binary.message).toMatch(/binary data .* on line 3/);
    const inWindows1252 = await fileError(readAll(await fileWith(Buffer.concat([windows1252(`${HEADER}\nA,dc,store,1,500,48,40,48,Café\nB,`), Buffer.from([0x00])]))));
    expect(inWindows1252.message).toMatch(/binary data \(a NUL byte\) on line 3/);
    const inUtf16 = await fileError(readAll(await fileWith(utf16leWithBom(`${HEADER}\r\nA,dc,store,1,500,48,40,48,x\r\nB\u0000`))));
    expect(inUtf16.message).toMatch(/binary data \(a NUL byte\) on line 3/);
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
    expect(error.message).toMatch(/line 2, column description: a row longer than 64 KB/);
  });

  it('names the line of a quote that is never closed or of text after a closing quote', async () => {
    const unclosed = await fileError(readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,ok\nB,dc,store,1,500,48,40,48,"open\nC,dc\n`)));
    expect(unclosed.message).toMatch(/line 3, column description: a quoted value is never closed/);
    const after = await fileError(readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,"x"y\n`)));
    expect(after.message).toMatch(/line 2, column description: text right after a closing quote/);
  });

  it('refuses a file whose first line is not a header, or whose header has unknown or missing columns', async () => {
    expect((await fileError(openCsvFile(await fileWith('A,dc,store,1,500,48,40,48,x\n')))).message).toMatch(/line 1: the first line is not a header row/);
    const unknown = await fileError(openCsvFile(await fileWith(`${HEADER},weigth\n`)));
    expect(unknown.message).toMatch(/unknown column "weigth" \(did you mean poundsWeight\?\)/);
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

describe('encodings, as spreadsheets write them', () => {
  // Names that garble when an encoding is read wrong; cp1252's 0x80-0x9F hold the euro sign, smart quotes and dashes.
  const NAME = 'Müller GmbH';
  const DESCRIPTION = '½ pallet “Crème brûlée” – €12 ‘special’';
  const rowsText = (delimiter: string, newline: string) =>
    [HEADER, `A,dc,store,1,500,48,40,48,"${DESCRIPTION}"`, `B,dc,store,1,500,48,40,48,"two${newline}lines"`, `${NAME},dc,store,1,500,48,40,48,Société Générale`]
      .map((line) => line.replace(/,/g, delimiter).replace(/"([^"]*)"/g, (_m, inner: string) => `"${inner.replace(new RegExp(delimiter, 'g'), ',')}"`))
      .join(newline) + newline;

  it('reads Windows-1252 (Excel "CSV (Comma delimited)"): accents, ½, the euro sign and smart quotes intact, lines counted', async () => {
    const { rows, encoding, bom, delimiter } = await readAll(await fileWith(windows1252(rowsText(',', '\r\n'))));
    expect({ encoding, bom, delimiter }).toEqual({ encoding: 'windows-1252', bom: false, delimiter: ',' });
    expect(rows.map((row) => row.line)).toEqual([2, 3, 5]);
    expect(rows[0]!.cells[8]).toBe(DESCRIPTION);
    expect(rows[2]!.cells[0]).toBe(NAME);
    expect(rows[2]!.cells[8]).toBe('Société Générale');
  });

  it('reads UTF-16 LE and BE with a BOM (Excel "Unicode Text": tabs, CRLF), lines counted', async () => {
    for (const [bytes, expected] of [
      [utf16leWithBom(rowsText('\t', '\r\n')), 'utf16le'],
      [utf16beWithBom(rowsText('\t', '\r\n')), 'utf16be'],
    ] as const) {
      const { rows, encoding, bom, delimiter, header } = await readAll(await fileWith(bytes));
      expect({ encoding, bom, delimiter }).toEqual({ encoding: expected, bom: true, delimiter: '\t' });
      expect(header[0]).toBe('refNumber');
      expect(rows.map((row) => row.line)).toEqual([2, 3, 5]);
      expect(rows[0]!.cells[8]).toBe(DESCRIPTION);
      expect(rows[1]!.cells[8]).toBe('two\r\nlines');
      expect(rows[2]!.cells[0]).toBe(NAME);
    }
  });

  it('reads UTF-8 with and without a BOM, and plain ASCII as UTF-8', async () => {
    const withBom = await readAll(await fileWith(utf8WithBom(rowsText(';', '\n'))));
    expect({ encoding: withBom.encoding, bom: withBom.bom, delimiter: withBom.delimiter }).toEqual({ encoding: 'utf8', bom: true, delimiter: ';' });
    expect(withBom.rows[0]!.cells[8]).toBe(DESCRIPTION);
    const without = await readAll(await fileWith(rowsText(',', '\n')));
    expect({ encoding: without.encoding, bom: without.bom }).toEqual({ encoding: 'utf8', bom: false });
    expect(without.rows[2]!.cells[0]).toBe(NAME);
    expect((await readAll(await fileWith(`${HEADER}\nA,dc,store,1,500,48,40,48,x\n`))).encoding).toBe('utf8');
  });

  it('decides on the first line with a non-ASCII byte, also past the first 256 KB read', async () => {
    const filler = Array.from({ length: 5000 }, (_, index) => `R${index},dc,store,1,500,48,40,48,plain ascii row number ${index}`).join('\r\n');
    const content = Buffer.concat([Buffer.from(`${HEADER}\r\n${filler}\r\n`), windows1252(`Z,dc,store,1,500,48,40,48,${DESCRIPTION}\r\n`)]);
    expect(content.length).toBeGreaterThan(256 * 1024);
    const { rows, encoding } = await readAll(await fileWith(content));
    expect(encoding).toBe('windows-1252');
    expect(rows.at(-1)).toEqual({ line: 5002, cells: ['Z', 'dc', 'store', '1', '500', '48', '40', '48', DESCRIPTION] });
  });

  it('refuses a file that switches encoding half-way, naming both lines, in either order', async () => {
    const utf8First = Buffer.concat([
      Buffer.from(`${HEADER}\nA,dc,store,1,500,48,40,48,${NAME}\nB,dc,store,1,500,48,40,48,x\n`),
      windows1252(`C,dc,store,1,500,48,40,48,${NAME}\n`),
    ]);
    expect((await fileError(readAll(await fileWith(utf8First)))).message).toMatch(/mixes two encodings: line 2 is UTF-8 text, line 4 is not/);
    const windowsFirst = Buffer.concat([
      windows1252(`${HEADER}\nA,dc,store,1,500,48,40,48,${NAME}\nB,dc,store,1,500,48,40,48,x\n`),
      Buffer.from(`C,dc,store,1,500,48,40,48,${NAME}\n`),
    ]);
    expect((await fileError(readAll(await fileWith(windowsFirst)))).message).toMatch(/mixes two encodings: it is Windows-1252 text, but line 4 is UTF-8/);
    // Forced, the user has the last word: the UTF-8 line is read as Windows-1252.
    const forced = await readAll(await fileWith(windowsFirst), 'windows-1252');
    expect(forced.rows[2]!.cells[8]).toBe('MÃ¼ller GmbH');
  });

  it('refuses bytes that are neither UTF-8 nor Windows-1252 (0x81), naming the line; forced, names the byte', async () => {
    const content = Buffer.concat([Buffer.from(`${HEADER}\nA,dc,store,1,500,48,40,48,x\nB,dc,store,1,500,48,40,48,`), Buffer.from([0x81, 0x0a])]);
    expect((await fileError(readAll(await fileWith(content)))).message).toMatch(/is not text in UTF-8 or Windows-1252 \(invalid bytes on line 3\); save it as "CSV UTF-8"/);
    const later = Buffer.concat([windows1252(`${HEADER}\nA,dc,store,1,500,48,40,48,${NAME}\nB,dc,store,1,500,48,40,48,`), Buffer.from([0x9d, 0x0a])]);
    expect((await fileError(readAll(await fileWith(later)))).message).toMatch(/is not text in UTF-8 or Windows-1252 \(byte 0x9D on line 3\)/);
    const forced = await fileError(readAll(await fileWith(content), 'windows-1252'));
    expect(forced.message).toMatch(/is not Windows-1252 text \(byte 0x81 on line 3, a byte that Windows-1252 leaves undefined\)/);
  });

  it('--encoding forces one: UTF-8 refuses Windows-1252 bytes with the line; UTF-16 reads a file without its BOM; a contrary BOM is a usage error', async () => {
    const latin = windows1252(`${HEADER}\nA,dc,store,1,500,48,40,48,x\nB,dc,store,1,500,48,40,48,Café\n`);
    expect((await fileError(readAll(await fileWith(latin), 'utf8'))).message).toMatch(/is not UTF-8 text \(invalid bytes on line 3\)/);
    const noBom = Buffer.from(`${HEADER}\r\nA,dc,store,1,500,48,40,48,${NAME}\r\n`, 'utf16le');
    expect((await readAll(await fileWith(noBom), 'utf16le')).rows[0]!.cells[8]).toBe(NAME);
    const contrary = await fileError(readAll(await fileWith(utf16leWithBom(`${HEADER}\r\n`)), 'windows-1252'));
    expect(contrary.kind).toBe('usage');
    expect(contrary.message).toMatch(/starts with a UTF-16 LE byte order mark, so it is not Windows-1252; leave out --encoding .* or give --encoding utf16le/);
  });

  it('says what a workbook or UTF-16 without a BOM is, instead of "binary data"', async () => {
    const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), Buffer.from('[Content_Types].xml')]);
    expect((await fileError(readAll(await fileWith(xlsx)))).message).toMatch(/is a ZIP archive \(an Excel \.xlsx workbook\?\), not CSV text; in Excel choose File > Save As/);
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
    expect((await fileError(readAll(await fileWith(xls)))).message).toMatch(/is an Excel 97-2003 workbook \(\.xls\)/);
    const noBom = Buffer.from(`${HEADER}\r\n`, 'utf16le');
    expect((await fileError(readAll(await fileWith(noBom)))).message).toMatch(/looks like UTF-16 LE text without a byte order mark; import it with --encoding utf16le/);
  });

  it('refuses UTF-16 that ends inside a character or holds an unpaired surrogate, naming the line', async () => {
    const odd = Buffer.concat([utf16leWithBom(`${HEADER}\r\nA,dc,store,1,500,48,40,48,x\r\n`), Buffer.from([0x41])]);
    expect((await fileError(readAll(await fileWith(odd)))).message).toMatch(/is not UTF-16 LE text \(the file ends inside a character on line 3\)/);
    const surrogate = Buffer.concat([utf16leWithBom(`${HEADER}\r\nA,dc,store,1,500,48,40,48,x\r\nB,`), Buffer.from([0x00, 0xd8, 0x41, 0x00]), Buffer.from('\r\n', 'utf16le')]);
    expect((await fileError(readAll(await fileWith(surrogate)))).message).toMatch(/is not UTF-16 LE text \(an unpaired surrogate on line 3\)/);
  });

  it('counts lines right for a CSV error in every encoding', async () => {
    const text = `${HEADER}\r\nA,dc,store,1,500,48,40,48,${NAME}\r\nB,dc,store,1,500,48,40,48,"two\r\nlines"\r\nC,dc,store,1,500,48,40,48,"x"y\r\n`;
    for (const bytes of [Buffer.from(text), windows1252(text), utf16leWithBom(text), utf16beWithBom(text), utf8WithBom(text)]) {
      expect((await fileError(readAll(await fileWith(bytes)))).message).toMatch(/line 5, column description: text right after a closing quote/);
    }
  });

  it('refuses a 2 MB header row, naming line 1', async () => {
    const header = `${HEADER},${Array.from({ length: 200_000 }, (_, index) => `extra${index}`).join(',')}`;
    expect(header.length).toBeGreaterThan(2_000_000);
    const error = await fileError(readAll(await fileWith(`${header}\nA,dc\n`)));
    expect(error.message).toMatch(/line 1: the header row is longer than 64 KB/);
  });

  it('judges a line by its bytes: UTF-8, plausible Windows-1252, or neither', () => {
    expect(encodingOfLine(Buffer.from('Müller'))).toBe('utf8');
    expect(encodingOfLine(windows1252('Müller “x” – €'))).toBe('windows-1252');
    expect(encodingOfLine(Buffer.from([0xfc, 0x81]))).toBeUndefined(); // 0x81: undefined in Windows-1252
    expect(encodingOfLine(Buffer.from([0xfc, 0x01]))).toBeUndefined(); // a control character: not text
    expect(encodingOfLine(Buffer.from([0xfc, 0x09, 0x0d]))).toBe('windows-1252'); // tab and CR are text
    expect(byteOrderMark(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: 'utf8', length: 3 });
    expect(byteOrderMark(Buffer.from([0xff, 0xfe]))).toEqual({ encoding: 'utf16le', length: 2 });
    expect(byteOrderMark(Buffer.from([0xfe, 0xff]))).toEqual({ encoding: 'utf16be', length: 2 });
    expect(byteOrderMark(Buffer.from('ab'))).toBeUndefined();
    expect(byteOrderMark(Buffer.alloc(0))).toBeUndefined();
  });
});
