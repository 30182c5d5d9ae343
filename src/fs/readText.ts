/**
 * Reads a whole file as UTF-8 through the callback API: a store look-up reads thousands of small
 * files, and fs/promises' readFile opens a FileHandle for each, about twice the main-thread time.
 */
import fs from 'node:fs';

export function readText(file: string): Promise<string> {
  return new Promise((resolve, reject) => fs.readFile(file, 'utf8', (error, text) => (error ? reject(error) : resolve(text))));
}

/**
 * The same, synchronously: a store look-up reads one small file (an index entry, a record), and
 * the round trip through the thread pool costs far more than the read (about 6 us against 190 us
 * one after another); the file store's reads use this.
 */
export function readTextSync(file: string): string {
  return fs.readFileSync(file, 'utf8');
}
