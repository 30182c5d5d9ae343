/**
 * How the invoice, audit and report commands write CSV and files, in one place (until the shared
 * CSV writer and durable file writer land in src/fs, which these two functions then call):
 *
 * - csvText: RFC 4180 (fields with a delimiter, quote or line break quoted, quotes doubled, CRLF
 *   between records); a text cell a spreadsheet would run as a formula (starting with = + - @,
 *   tab or CR) gets a leading single quote. Numbers are written as numbers.
 * - writeFileDurably: temporary file, fsync, rename (write-file-atomic): a failed or interrupted
 *   run never leaves a truncated PDF or CSV behind.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null;

function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

export async function writeFileDurably(path: string, bytes: Uint8Array | string): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic');
  await writeFileAtomic(path, typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
