/**
 * Start-up stays light: `shipper --version` parses the static-import closure of dist/cli/main.js
 * alone; every other command line, the program's chunk and the command group it names (help
 * loads them all). No heavy package may be in those; commands load them when they run (a view
 * that imported a zod schema once pulled 750 KB of zod into start-up). The build lists the source
 * modules of each file of dist/ in dist/modules.json (scripts/build.mjs).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ISOLATED_SETTINGS, ROOT, tempDir } from '../helpers/cli.js';

const DIST = join(ROOT, 'dist');
const modules = JSON.parse(readFileSync(join(DIST, 'modules.json'), 'utf8')) as Record<string, string[]>;

/** The files a module loads before it runs: `import ... from "./x"`, `import "./x"`, `export ... from "./x"`; never `import("./x")`. */
function staticClosure(entry: string): Set<string> {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/(?:^|[;\n}])\s*import\s*(?!\()(?:[^"'();]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g),
      ...text.matchAll(/(?:^|[;\n}])\s*export\s*(?:\*|\{[^}]*\})\s*from\s*["'](\.{1,2}\/[^"']+)["']/g),
    ];
    for (const match of specifiers) visit(resolve(dirname(file), match[1]!));
  };
  visit(entry);
  return files;
}

/** The file of dist/ that holds a source module. */
function fileOf(module: string): string {
  const files = Object.keys(modules).filter((file) => modules[file]!.includes(module));
  expect(files, module).toHaveLength(1);
  return join(DIST, files[0]!);
}

const closureOf = (...files: string[]) => new Set(files.flatMap((file) => [...staticClosure(file)]));
const sizeOf = (closure: Set<string>) => [...closure].reduce((sum, file) => sum + readFileSync(file, 'utf8').length, 0);

const HEAVY = ['zod', 'pdf-lib', '@pdf-lib', 'undici', '@inquirer', 'csv-parse', 'csv-stringify', 'iconv-lite', 'bwip-js', 'conf', 'libphonenumber-js'];
const heavyIn = (closure: Set<string>, heavy: readonly string[]) =>
  [...closure].flatMap((file) => {
    const name = relative(DIST, file).split('\\').join('/');
    return heavy.filter((pkg) => (modules[name] ?? []).some((module) => module.startsWith(`node_modules/${pkg}/`))).map((pkg) => `${pkg} in ${name}`);
  });

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
  const entry = join(DIST, 'cli', 'main.js');
  const program = closureOf(fileOf('src/cli/main.ts'));
  const groups = closureOf(...COMMAND_GROUPS.map((group) => fileOf(`src/cli/commands/${group}.ts`)));

  it('answers --version from the entry alone: no commander, no command, a few KB', () => {
    const versionClosure = staticClosure(entry);
    expect(heavyIn(versionClosure, [...HEAVY, 'commander', 'cli-table3', 'chalk'])).toEqual([]);
    expect(sizeOf(versionClosure)).toBeLessThan(20_000);
  });

  it('holds none of the heavy packages in the program or in any command group', () => {
    // cli-table3 (with string-width) stays: the IO layer draws every table with it.
    expect(heavyIn(new Set([...program, ...groups]), HEAVY)).toEqual([]);
  });

  it('loads a local quote from a few files, none with the packages of documents, imports, prompts or servers', () => {
    // What `shipper quote ...` imports in local mode: the program, its command group, then (src/cli/context.ts) the settings, the engine and the ZIP geodata.
    const quote = closureOf(
      entry,
      fileOf('src/cli/main.ts'),
      fileOf('src/api/problems.ts'),
      fileOf('src/cli/commands/quote.ts'),
      ...['src/config/settings.ts', 'src/api/local.ts', 'src/geo/zipDirectory.ts'].map(fileOf),
    );
    expect(heavyIn(quote, ['pdf-lib', '@pdf-lib', 'bwip-js', 'undici', '@inquirer', 'csv-parse', 'csv-stringify', 'iconv-lite', 'conf', 'postgres'])).toEqual([]);
    // esbuild's split alone made about 80 (Node's loader costs about 0.4 ms a file); scripts/build.mjs groups them.
    expect(quote.size).toBeLessThanOrEqual(30);
  });

  it("leaves zod's compiler and JSON Schema reader out of the bundle (scripts/build.mjs), whose names throw", () => {
    const zod = readFileSync(fileOf('node_modules/zod/v4/core/schemas.js'), 'utf8');
    expect(zod).toContain("zod's compile is not in shipper's bundle");
    expect(zod).not.toContain('this schema must use the runtime parser');
    expect(zod).toContain("zod's fromJSONSchema is not in shipper's bundle");
    expect(zod).not.toContain('External $ref is not supported');
  });

  it('finds the heavy packages where they are (the walk and dist/modules.json work)', () => {
    expect(heavyIn(closureOf(fileOf('src/api/local.ts')), ['zod'])).not.toEqual([]);
    expect(heavyIn(program, ['commander'])).not.toEqual([]);
    const chunks = readdirSync(join(DIST, 'chunks')).filter((file) => file.endsWith('.js'));
    expect(chunks.filter((file) => modules[`chunks/${file}`] === undefined)).toEqual([]);
  });
});

describe('the start-up of a local quote from the bundle (test/helpers/startupProbe.mjs)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('shipper-startup-'));
  });
  afterAll(() => cleanup());

  /** What the probe saw of a command run from the bundle. */
  async function probe(args: string[]): Promise<{ compiledFunctions: number; dateTimeFormats: number; modules: string[] }> {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...ISOLATED_SETTINGS, SHIPPER_NOW: '2026-11-23T15:00:00Z' };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', join(ROOT, 'test', 'helpers', 'startupProbe.mjs'), BIN, '--store', dir, ...args], { env });
    const line = stderr.split('\n').find((text) => text.startsWith('STARTUP_PROBE '));
    expect(line, stderr).toBeDefined();
    return JSON.parse(line!.slice('STARTUP_PROBE '.length)) as { compiledFunctions: number; dateTimeFormats: number; modules: string[] };
  }

  it("compiles no zod parser before a schema's 8th parse, builds no ICU date format and loads no Web Crypto", async () => {
    const quote = await probe(['quote', '--from', '60607', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=books']);
    // scripts/build.mjs: zod's object parsers compile on their 8th parse (one array of the tariff has more rows); zones come from dist/geo/tz; built-ins are required.
    expect(quote.compiledFunctions).toBeLessThanOrEqual(1);
    expect(quote.dateTimeFormats).toBe(0);
    expect(quote.modules).toContain('crypto');
    expect(quote.modules).not.toContain('internal/crypto/webcrypto');
  });

  it('compiles the parsers of a schema that parses many times (the probe counts them)', async () => {
    for (let count = 0; count < 9; count++) await probe(['quote', '--from', '60607', '--to', '10001', '-c', 'pallets=1,weight=500,dims=48x40x48,desc=books']);
    expect((await probe(['quote', 'list'])).compiledFunctions).toBeGreaterThan(1);
  });
});
