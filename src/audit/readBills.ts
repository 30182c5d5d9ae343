/**
 * A bill file from disk, as CSV or X12 210 (told apart by content: an X12 interchange starts with
 * "ISA"). Bills are small, so a file is read whole; it must be UTF-8 (or ASCII) text.
 */
import { isUtf8 } from 'node:buffer';
import { readFile, stat } from 'node:fs/promises';
import type { BillsRead } from './bill.js';
import { readCsvBills } from './csvBills.js';
import { readX12Bills } from './x12Bills.js';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

/** A carrier's bill file beyond this is not a bill run; refuse it rather than fill the memory. */
export const MAX_BILL_FILE_BYTES = 64 * 1024 * 1024;

/** A bill file that cannot be used: named wrongly on the command line (exit 2) or unusable in content (exit 1). */
export class BillFileError extends ShipperError {
  readonly code: ErrorCode;

  constructor(
    message: string,
    /** usage: the command line names no usable file; rejected: its content is unusable. */
    readonly kind: 'usage' | 'rejected',
  ) {
    // A file that cannot be used stops the whole run.
    super(kind === 'rejected' ? `${message}; nothing was audited` : message);
    this.name = 'BillFileError';
    this.code = kind === 'usage' ? 'INPUT_FILE' : 'BAD_BILL_FILE';
  }
}

export function readBillText(text: string, file: string): BillsRead {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  return start.startsWith('ISA') ? readX12Bills(text, file) : readCsvBills(text, file);
}

export async function readBillFile(path: string): Promise<BillsRead> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new BillFileError(error.code === 'ENOENT' ? `${path}: no such file` : `cannot read ${path}: ${error.message}`, 'usage');
  });
  if (info.isDirectory()) throw new BillFileError(`${path} is a directory, not a bill file (CSV or X12 210)`, 'usage');
  // A FIFO or a device (its size 0) would block or never end.
  if (!info.isFile()) throw new BillFileError(`${path} is not a regular file (a named pipe, a socket or a device)`, 'usage');
  if (info.size === 0) throw new BillFileError(`${path} is empty: a bill file is a CSV with a header row or an X12 210 interchange`, 'rejected');
  if (info.size > MAX_BILL_FILE_BYTES)
    throw new BillFileError(`${path} is ${Math.round(info.size / 1048576)} MB; split bill files larger than ${MAX_BILL_FILE_BYTES / 1048576} MB`, 'rejected');
  const bytes = await readFile(path).catch((error: Error) => {
    throw new BillFileError(`cannot read ${path}: ${error.message}`, 'usage');
  });
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new BillFileError(`${path} is UTF-16 text; save it as UTF-8`, 'rejected');
  if (bytes.includes(0)) throw new BillFileError(`${path} is not a text file (binary data)`, 'rejected');
  if (!isUtf8(bytes)) throw new BillFileError(`${path} is not UTF-8 text; save it as UTF-8`, 'rejected');
  return readBillText(bytes.toString('utf8'), path);
}
