/**
 * Reads a file the user named only when it is a regular file. A named pipe (FIFO) blocks a plain
 * open until something writes to it, and a device such as /dev/zero never ends: an agreement file
 * that was one hung `tariff check` and every quote (issue 39, item 9). The file is opened without
 * blocking (O_NONBLOCK: a FIFO opens at once) and its type checked on the open descriptor (fstat,
 * after symbolic links are followed, so no other file can take its place in between) before a
 * byte is read. Which reads go through here: docs/input-rules.md.
 */
import fs from 'node:fs';
import { ShipperError, type ErrorCode } from '../domain/errors.js';

/** What a file that is not a regular file is, in words. */
function kindOf(info: fs.Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** A named file that is a directory, a pipe, a socket or a device: refused before it is read. */
export class NotRegularFileError extends ShipperError {
  readonly code: ErrorCode = 'INPUT_FILE';

  constructor(
    readonly file: string,
    /** "a named pipe (FIFO)", "a character device", ... */
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file: refused`);
    this.name = 'NotRegularFileError';
  }
}

// O_NONBLOCK is not defined on Windows, where a FIFO cannot be named by a path anyway.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The whole file, or NotRegularFileError when it is not a regular file; Node's errors (ENOENT,
 * EACCES, ...) otherwise, as readFile gives them.
 */
export async function readRegularFile(path: string): Promise<Buffer> {
  return (await readBoundedRegularFile(path, Infinity))!;
}

/** As readRegularFile, but undefined, and nothing read, when the file is larger than maxBytes. */
export async function readBoundedRegularFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await fs.promises.open(path, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(path, kindOf(info));
    if (info.size > maxBytes) return undefined;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** readRegularFile as UTF-8 text. */
export async function readRegularText(path: string): Promise<string> {
  return (await readRegularFile(path)).toString('utf8');
}
