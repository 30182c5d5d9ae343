/**
 * Start-up stays light: what `shipper --version` and every command's registration parse is the
 * static-import closure of dist/cli/main.js. No heavy package may be in it; commands load them
 * when they run (a view that imported a zod schema once pulled 750 KB of zod into start-up).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** The files a module loads before it runs: `import ... from "./x"`, `import "./x"`, `export ... from "./x"`; never `import("./x")`. */
function staticClosure(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    const specifiers = [
      ...text.matchAll(/(?:^|[;\n}])\s*import\s*(?!\()(?:[^"'();]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g),
      ...text.matchAll(/(?:^|[;\n}])\s*export\s*(?:\*|\{[^}]*\})\s*from\s*["'](\.{1,2}\/[^"']+)["']/g),
    ];
    for (const match of specifiers) visit(resolve(dirname(file), match[1]!));
  };
  visit(entry);
  return files;
}

describe('the start-up closure of the bundle', () => {
  const closure = staticClosure(join(ROOT, 'dist', 'cli', 'main.js'));

  it('holds none of the heavy packages (esbuild marks each bundled module with its path)', () => {
    // cli-table3 (with string-width) stays: the IO layer draws every table with it.
    const heavy = ['zod', 'pdf-lib', '@pdf-lib', 'undici', '@inquirer', 'csv-parse', 'csv-stringify', 'iconv-lite', 'bwip-js', 'conf'];
    const found = [...closure.entries()].flatMap(([file, text]) =>
      heavy.filter((name) => text.includes(`// node_modules/${name}/`)).map((name) => `${name} in ${file.slice(ROOT.length)}`),
    );
    expect(found).toEqual([]);
  });

  it('finds the files it parses (the walk itself works: main.js imports chunks)', () => {
    expect(closure.size).toBeGreaterThan(3);
    expect([...closure.keys()].some((file) => file.includes(`${join('dist', 'chunks')}`))).toBe(true);
  });
});
