/**
 * Where a command's file goes: `-o FILE`, `-o DIR/`, `-o -` (stdout) or a default name in the
 * current directory; an existing file is never overwritten silently (`--force`).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CliError, UsageError } from '../api/problems.js';
import { writeFileDurably } from '../fs/durableWrite.js';
import { makeDirectory } from '../fs/makeDirectory.js';
import type { IO } from './output.js';

export async function outputPath(output: string | undefined, defaultName: string, force: boolean): Promise<string | '-'> {
  if (output === '-') return '-';
  const target = resolve(output ?? '.');
  const existing = await stat(target).catch(() => undefined);
  const file = existing?.isDirectory() || output === undefined || /[\\/]$/.test(output) ? join(target, defaultName) : target;
  if (!force && (await stat(file).catch(() => undefined))) {
    throw new UsageError(`${file} exists already; nothing was written`, 'add --force to overwrite it, or give another name with -o');
  }
  return file;
}

/**
 * Writes the bytes whole or not at all (src/fs: temporary file, every byte, fsync, size check,
 * rename), or prints them on stdout for `-`, and says where on stderr. Without --force an existing
 * file is refused even when it appeared since outputPath looked.
 */
export async function writeOutput(io: IO, file: string | '-', bytes: Uint8Array, what: string, force = false): Promise<void> {
  if (file === '-') {
    io.streams.stdout.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return;
  }
  const { dirname } = await import('node:path');
  await makeDirectory(dirname(file)).catch((error: Error) => {
    throw new CliError(`cannot create ${dirname(file)}: ${error.message}`, 'LOCAL_FAILURE');
  });
  await writeFileDurably(file, bytes, { whenExists: force ? 'replace' : 'refuse' });
  io.note(`Wrote ${what} to ${file} (${Math.max(1, Math.round(bytes.byteLength / 1024))} KB)`);
  // -q: the path alone on stdout, for scripts (--json prints its document instead).
  if (io.options.quiet && !io.options.json) io.out(file);
}
