/** The TypeScript files of src/, for the tests that read the code as text (architecture rules). */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '../../src');

export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
