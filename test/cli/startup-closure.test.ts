/**
 * Start-up stays light: `shipper --version` parses the static-import closure of dist/cli/main.js
 * alone; every other command line, the program chunk it loads and the command group it names (help
 * loads them all). No heavy package may be in those; commands load them when they run (a view
 * that imported a zod schema once pulled 750 KB of zod into start-up).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

/** The chunks a file imports with import("./x") whose names start with one of `names`. */
function dynamicChunks(file: string, names: readonly string[]): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)]
    .map((match) => resolve(dirname(file), match[1]!))
    .filter((path) => names.some((name) => basename(path).startsWith(`${name}-`)));
}

const HEAVY = ['zod', 'pdf-lib', '@pdf-lib', 'undici', '@inquirer', 'csv-parse', 'csv-stringify', 'iconv-lite', 'bwip-js', 'conf'];
const heavyIn = (closure: Map<string, string>, heavy: readonly string[]) =>
  [...closure.entries()].flatMap(([file, text]) => heavy.filter((name) => text.includes(`// node_modules/${name}/`)).map((name) => `${name} in ${file.slice(ROOT.length)}`));

/** The command groups src/cli/program.ts loads: the one a command line names, or all of them. */
const COMMAND_GROUPS = [
  'quote',
  'transit',
  'ship',
  'shipment',
  'import',
  'location',
  'bol',
  'labels',
  'tender',
  'invoice',
  'audit',
  'report',
  'serve',
  'openapi',
  'config',
  'completion',
  'helpTopics',
];

describe('the start-up closure of the bundle', () => {
  const entry = join(ROOT, 'dist', 'cli', 'main.js');
  const [program] = dynamicChunks(entry, ['main']);
  const closure = staticClosure(program!);
  for (const group of dynamicChunks(program!, COMMAND_GROUPS)) for (const [file, text] of staticClosure(group)) closure.set(file, text);

  it('answers --version from the entry alone: no commander, no command, a few KB', () => {
    const versionClosure = staticClosure(entry);
    expect(heavyIn(versionClosure, [...HEAVY, 'commander', 'cli-table3', 'chalk'])).toEqual([]);
    expect([...versionClosure.values()].reduce((sum, text) => sum + text.length, 0)).toBeLessThan(20_000);
  });

  it('holds none of the heavy packages in the program or in any command group (esbuild marks each bundled module with its path)', () => {
    // cli-table3 (with string-width) stays: the IO layer draws every table with it.
    expect(heavyIn(closure, HEAVY)).toEqual([]);
  });

  it('finds the files it parses (the walk itself works: the program and every command group, which import chunks)', () => {
    expect(program).toBeDefined();
    expect(dynamicChunks(program!, COMMAND_GROUPS)).toHaveLength(COMMAND_GROUPS.length);
    expect(closure.size).toBeGreaterThan(COMMAND_GROUPS.length);
    expect([...closure.keys()].some((file) => file.includes(`${join('dist', 'chunks')}`))).toBe(true);
  });
});
