// Build step run by `npm install` (prepare) and `npm test`:
// 1. bundle the CLI with esbuild (one file per lazily imported chunk, so start-up parses only what
//    a command needs), then merge the chunks that always load together (regroupChunks below),
//    2. generate the compact ZIP geodata table from the `zipcodes` package,
//    with each ZIP's IANA time zone resolved once here instead of at every quote: the zone at the
//    ZIP's point from geo-tz (the exact timezone-boundary-builder polygons), except for the few
//    ZIPs in src/geo/timeZoneOverrides.json, whose local time differs from that point's. Every
//    point is checked against its state's box first (scripts/geodataCheck.mjs): a wrong point
//    fails the build instead of pricing a lane to the other side of the world.
// 3. write the offsets and names of those zones over the years around the build's
//    (scripts/zoneTransitions.mjs), so that a command does not load ICU's zone data.
import { build } from 'esbuild';
import { rolldown } from 'rolldown';
import { createRequire, isBuiltin } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from './buildInfo.mjs';
import { checkGeodataPoints } from './geodataCheck.mjs';
import { zoneTransitionTable } from './zoneTransitions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');
const info = buildInfo(root);

/**
 * The chunks that load together, named by the source modules a command imports: each group's chunk
 * holds what those modules import statically, less what the entry itself imports (--version), what
 * an earlier group took, and what another command group imports (`shipper --help` loads every
 * command group: it must not load the engine with them). esbuild makes a chunk for each set of lazy
 * imports that reach a module, so a local quote loaded about 80 files; Node 20 spends about 0.4 ms
 * of loader work on each, more than parsing most of them.
 */
const CHUNK_GROUPS = [
  // Any command line but --version: commander, the program, the IO layer; the entry's import of the problems.
  { name: 'main', entries: ['src/cli/main.ts', 'src/api/problems.ts'] },
  // The quote command group's own views and parsers.
  { name: 'quote', entries: ['src/cli/commands/quote.ts'] },
  // The local engine: settings, the LocalApi on the file store, the ZIP geodata (zod comes with it).
  { name: 'engine', entries: ['src/config/settings.ts', 'src/api/local.ts', 'src/geo/zipDirectory.ts'] },
];

await rm(dist, { recursive: true, force: true });
// esbuild writes its chunks here; regroupChunks writes dist/ from them.
const stage = await mkdtemp(join(tmpdir(), 'shipper-build-'));

const { metafile } = await build({
  // The BOL render pool's worker thread is an entry of its own (src/bol/renderPool.ts starts it from dist/bol/).
  entryPoints: { 'cli/main': join(root, 'src/cli/entry.ts'), 'bol/renderWorker': join(root, 'src/bol/renderWorker.ts') },
  outdir: stage,
  // The metafile's paths (and the `// src/...` comments) are relative to the package root.
  absWorkingDir: root,
  metafile: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [
    onlyEnglishZodMessages(),
    zodWithoutCompilerAndSchemaReader(),
    zodObjectJitAfterWarmUp(),
    asciiFastStringWidth(),
    processWithoutStdin(),
    builtinsByRequire(),
    commanderLazyChildProcess(),
  ],
  // The PostgreSQL store's migrations (src/store/postgres/migrations/*.sql) are embedded as text.
  loader: { '.sql': 'text' },
  // `shipper --version`: the version, commit and build date, fixed at build time (src/cli/version.ts).
  define: { __SHIPPER_BUILD__: JSON.stringify(info) },
  // CommonJS packages inside an ESM bundle still call require() for Node built-ins and read __filename.
  banner: {
    js: [
      "import { createRequire as __shipperCreateRequire } from 'node:module';",
      "import { fileURLToPath as __shipperFileURLToPath } from 'node:url';",
      'const require = __shipperCreateRequire(import.meta.url);',
      'const __filename = __shipperFileURLToPath(import.meta.url);',
      "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
    ].join(' '),
  },
});

try {
  await regroupChunks(metafile);
} finally {
  await rm(stage, { recursive: true, force: true });
}

// ESM resolution stops at this file instead of reading the project's package.json for every chunk.
await writeFile(join(dist, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);

await writeGeodata(join(dist, 'geo'));

/**
 * Merges esbuild's chunks into CHUNK_GROUPS with rolldown (whatever no group names keeps esbuild's
 * split) and writes dist/. The entry's own static imports stay out of every group, so
 * `shipper --version` still loads a few KB; what the BOL render worker imports too goes to a second
 * chunk of its group, so the worker does not load the engine.
 * A group's modules run when its chunk loads, in import order: a command that loads a group needs
 * most of it anyway, and no module of these groups does more at load than define things.
 * dist/modules.json lists each file's source modules (test/cli/startup-closure.test.ts reads it).
 */
async function regroupChunks({ outputs: byPath }) {
  const outputs = new Map(Object.entries(byPath).map(([file, output]) => [resolve(root, file), output]));
  const byEntry = new Map([...outputs].flatMap(([file, output]) => (output.entryPoint ? [[output.entryPoint, file]] : [])));
  const staticClosure = (files) => {
    const seen = new Set();
    const visit = (file) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const { path, kind, external } of outputs.get(file).imports) if (kind === 'import-statement' && !external) visit(resolve(root, path));
    };
    files.forEach(visit);
    return seen;
  };
  const entries = { 'cli/main': join(stage, 'cli', 'main.js'), 'bol/renderWorker': join(stage, 'bol', 'renderWorker.js') };
  const startUp = staticClosure([entries['cli/main']]);
  // What the render worker loads anyway (zod, dates...) goes to a second chunk of the group, which the worker loads too.
  const worker = staticClosure([entries['bol/renderWorker']]);
  // The command groups: what the program (src/cli/program.ts, in the main group) imports lazily.
  const program = staticClosure([byEntry.get('src/cli/main.ts')]);
  const lazilyImported = new Set(
    [...program].flatMap((file) =>
      outputs
        .get(file)
        .imports.filter(({ kind }) => kind === 'dynamic-import')
        .map(({ path }) => resolve(root, path)),
    ),
  );
  const commandGroups = [...byEntry]
    .filter(([module, file]) => module.startsWith('src/cli/commands/') && lazilyImported.has(file))
    .map(([module, file]) => [module, staticClosure([file])]);
  const groupOf = new Map();
  for (const { name, entries: modules } of CHUNK_GROUPS) {
    const starts = modules.map((module) => byEntry.get(module) ?? fail(`scripts/build.mjs: ${module} is no lazily imported module of the bundle`));
    // The main group loads with every command group anyway.
    const others = name === 'main' ? [] : commandGroups.filter(([module]) => !modules.includes(module)).map(([, closure]) => closure);
    for (const file of staticClosure(starts)) {
      if (startUp.has(file) || groupOf.has(file) || others.some((closure) => closure.has(file))) continue;
      groupOf.set(file, worker.has(file) ? `${name}-worker` : name);
    }
  }
  const bundle = await rolldown({
    input: entries,
    platform: 'node',
    // esbuild bundled every package: what is left are Node's built-ins.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    // esbuild already dropped what nothing uses.
    treeshake: false,
    preserveEntrySignatures: 'allow-extension',
    onLog: (level, log) => fail(`scripts/build.mjs: rolldown ${level}: ${log.message}`),
  });
  const { output } = await bundle.write({
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].js',
    // quote-Bx1c9_Ab.js from esbuild's quote-NIA6DPTY.js: one hash is enough.
    chunkFileNames: ({ name }) => `chunks/${name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
    codeSplitting: {
      groups: CHUNK_GROUPS.flatMap(({ name }) => [name, `${name}-worker`]).map((name) => ({ name, test: (id) => groupOf.get(id) === name, includeDependenciesRecursively: false })),
    },
  });
  await bundle.close();
  // Source modules as `src/...` or `node_modules/<package>/...`, wherever node_modules is.
  const inputsOf = (file) => Object.keys(outputs.get(file)?.inputs ?? {}).map((input) => (input.includes('node_modules/') ? input.slice(input.indexOf('node_modules/')) : input));
  const modules = Object.fromEntries(output.filter((file) => file.type === 'chunk').map((file) => [file.fileName, file.moduleIds.flatMap(inputsOf).sort()]));
  await writeFile(join(dist, 'modules.json'), `${JSON.stringify(modules)}\n`);
}

function fail(message) {
  throw new Error(message);
}

/**
 * `import process from 'node:process'` (chalk's supports-color does it) makes Node build that
 * module's named exports from every property of `process`, process.stdin included: a stream on fd 0
 * opened at start-up by a command that never reads it. The global is the same object.
 */
function processWithoutStdin() {
  return {
    name: 'process-without-stdin',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^(node:)?process$/ }, ({ kind }) => (kind === 'import-statement' ? { path: 'process', namespace: 'global-process' } : undefined));
      esbuild.onLoad({ filter: /.*/, namespace: 'global-process' }, () => ({ contents: 'export default globalThis.process;\n', loader: 'js' }));
    },
  };
}

/**
 * An ESM import of a Node built-in makes Node build that module's named exports from every
 * property, lazy ones included: `node:crypto` then loads Web Crypto, X.509 and the rest (2 ms),
 * `node:fs` loads fs/promises with readline (2 ms). The bundle takes built-ins with require() (the
 * banner's) and keeps the properties it names; the values are the same objects.
 */
function builtinsByRequire() {
  return {
    name: 'builtins-by-require',
    setup(esbuild) {
      // One module per importer (`node:fs from src/paths.ts`): esbuild would give a module that several chunks import a file of its own to load.
      esbuild.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path, kind, importer }) =>
        kind === 'import-statement' && isBuiltin(path) && !/^(node:)?process$/.test(path)
          ? { path: `${path.replace(/^(node:)?/, 'node:')} from ${relative(root, importer)}`, namespace: 'builtin-by-require' }
          : undefined,
      );
      esbuild.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, ({ path }) => {
        const builtin = path.slice(0, path.indexOf(' from '));
        const names = Object.keys(require(builtin)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
        // A pure read each, so esbuild drops those nothing imports (a lazy property is read only if imported).
        const exports = names.map((name) => `export const ${name} = /* @__PURE__ */ (() => builtin.${name})();`);
        return { contents: [`const builtin = require(${JSON.stringify(builtin)});`, 'export default builtin;', ...exports].join('\n'), loader: 'js' };
      });
    },
  };
}

/**
 * commander loads child_process (and with it net, dgram and their streams) when it loads, for the
 * executable subcommands shipper never declares: a few ms of every command's start-up. It loads on
 * first use instead; the build stops if commander no longer reads like this.
 */
function commanderLazyChildProcess() {
  const marker = "const childProcess = require('node:child_process');\n";
  return {
    name: 'commander-lazy-child-process',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (!source.includes(marker) || (source.match(/childProcess\./g) ?? []).length !== (source.match(/childProcess\.spawn\(/g) ?? []).length)
          throw new Error(`${path}: not the commander this build patches (scripts/build.mjs)`);
        return { contents: source.replace(marker, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };\n"), loader: 'js' };
      });
    },
  };
}

/**
 * zod's ahead-of-time compiler (z.compile, core/compile.js) and its JSON Schema reader
 * (z.fromJSONSchema) are about 85 KB of the bundle, parsed at every start that loads zod; shipper
 * uses neither (zod's parser never imports the compiler). The bundle keeps their names, which
 * throw if called; the build stops if zod adds names to those modules.
 */
function zodWithoutCompilerAndSchemaReader() {
  const leftOut = {
    'core/compile.js': { functions: ['compile', 'withParser', 'compileFn'], classes: ['ZodCompileAsyncError', 'ZodCompileUnsupportedError'], constants: ['INVALID'] },
    'classic/from-json-schema.js': { functions: ['fromJSONSchema'], classes: [], constants: [] },
  };
  return {
    name: 'zod-without-compiler-and-schema-reader',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/](core[\\/]compile|classic[\\/]from-json-schema)\.js$/ }, async ({ path }) => {
        const module = path.split(/[\\/]/).slice(-2).join('/');
        const { functions, classes, constants } = leftOut[module];
        const exported = [...(await readFile(path, 'utf8')).matchAll(/^export (?:const|class|function) ([\w$]+)/gm)].map((match) => match[1]).sort();
        if (JSON.stringify(exported) !== JSON.stringify([...functions, ...classes, ...constants].sort()) || /^export (?!const|class|function)/m.test(await readFile(path, 'utf8')))
          throw new Error(`${path}: not the zod module this build leaves out (exports ${exported.join(', ')}; scripts/build.mjs)`);
        const absent = (name) => `export function ${name}() {\n  throw new Error("zod's ${name} is not in shipper's bundle (scripts/build.mjs)");\n}`;
        return {
          contents: [
            ...functions.map(absent),
            ...classes.map((name) => `export class ${name} extends Error {}`),
            ...constants.map((name) => `export const ${name} = Symbol.for("zod.compile.invalid");`),
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

/**
 * zod compiles a parser of its own for each object schema (new Function) on its first parse: 6 to
 * 10 ms of a local quote, whose schemas parse once or twice each, and paid back only by a schema
 * that parses many times (a list, an import, the server). A schema compiles on its 8th parse
 * instead; before that it parses with zod's interpreted path, which gives the same results (zod's
 * jitless setting uses it for every parse). The build stops if zod no longer reads like this.
 */
function zodObjectJitAfterWarmUp() {
  const declaration = '    let fastpass;\n';
  const condition = 'if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {';
  return {
    name: 'zod-object-jit-after-warm-up',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]schemas\.js$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (source.split(declaration).length !== 2 || source.split(condition).length !== 2)
          throw new Error(`${path}: not the zod whose object parser this build patches (scripts/build.mjs)`);
        return {
          contents: source
            .replace(declaration, `${declaration}    let interpretedParses = 0;\n`)
            .replace(condition, 'if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true && (fastpass !== undefined || ++interpretedParses > 7)) {'),
          loader: 'js',
        };
      });
    },
  };
}

/**
 * string-width 4 (cli-table3 measures every cell with it) replaces emoji with a regular expression
 * of about 10 KB whose first use compiles for tens of milliseconds: a tenth of a local quote. Text
 * that is printable ASCII once the colour codes are gone has no emoji and is as wide as it is long,
 * so it returns before the expression; any other text is measured as before.
 */
function asciiFastStringWidth() {
  const marker = '\tstring = stripAnsi(string);\n';
  return {
    name: 'ascii-fast-string-width',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        // A string-width that no longer reads like version 4 stops the build rather than go unpatched.
        if (!source.includes(marker)) throw new Error(`${path}: not the string-width 4 this build patches (scripts/build.mjs)`);
        return { contents: source.replace(marker, `${marker}\tif (/^[\\x20-\\x7e]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n`), loader: 'js' };
      });
    },
  };
}

/**
 * zod's `z.locales` holds its messages in 66 languages (about 600 KB of the bundle, parsed at every
 * start); shipper writes its own messages and zod's English ones, so the bundle keeps English only.
 */
function onlyEnglishZodMessages() {
  return {
    name: 'only-english-zod-messages',
    setup(esbuild) {
      esbuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";\n', loader: 'js' }));
    },
  };
}

/**
 * One JSON file per 3-digit ZIP prefix ({zip: [lat, lon, city, state, zoneIndex]}) plus zones.json,
 * so a lookup reads two small files instead of a 5 MB module.
 */
async function writeGeodata(outDir) {
  const { codes } = require('zipcodes/lib/codes.js');
  const { find: zonesAt } = require('geo-tz');
  const { overrides } = JSON.parse(await readFile(join(root, 'src/geo/timeZoneOverrides.json'), 'utf8'));
  for (const [zip, { timeZone }] of Object.entries(overrides)) {
    if (codes[zip]?.country !== 'US') throw new Error(`src/geo/timeZoneOverrides.json: ${zip} is not a US ZIP of the zipcodes package`);
    new Intl.DateTimeFormat('en-US', { timeZone }); // throws on a zone that does not exist
  }
  const readJson = async (file) => JSON.parse(await readFile(join(root, file), 'utf8'));
  const [stateBounds, { corrections }] = await Promise.all([readJson('src/geo/stateBounds.json'), readJson('src/geo/coordinateCorrections.json')]);
  const usEntries = Object.values(codes)
    .filter((entry) => entry.country === 'US' && /^\d{5}$/.test(entry.zip))
    .map((entry) => ({ zip: entry.zip, city: entry.city, state: entry.state, latitude: Number(entry.latitude), longitude: Number(entry.longitude) }))
    .filter((entry) => Number.isFinite(entry.latitude) && Number.isFinite(entry.longitude));
  const { entries, problems } = checkGeodataPoints(usEntries, stateBounds, corrections);
  if (problems.length > 0)
    throw new Error(
      `ZIP geodata: ${problems.length} point(s) outside their state (fix src/geo/coordinateCorrections.json or src/geo/stateBounds.json):\n  ${problems.join('\n  ')}`,
    );
  const zones = [];
  const zoneIndex = new Map();
  const byPrefix = new Map();
  for (const entry of entries) {
    const { latitude: lat, longitude: lon } = entry;
    const zone = overrides[entry.zip]?.timeZone ?? zonesAt(lat, lon)[0];
    if (!zoneIndex.has(zone)) {
      zoneIndex.set(zone, zones.length);
      zones.push(zone);
    }
    const prefix = entry.zip.slice(0, 3);
    if (!byPrefix.has(prefix)) byPrefix.set(prefix, {});
    byPrefix.get(prefix)[entry.zip] = [lat, lon, entry.city, entry.state, zoneIndex.get(zone)];
  }
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'zones.json'), JSON.stringify(zones));
  await Promise.all([...byPrefix].map(([prefix, table]) => writeFile(join(outDir, `${prefix}.json`), JSON.stringify(table))));
  await writeZoneTransitions(join(outDir, 'tz'), [...zones, 'UTC']);
}

/**
 * dist/geo/tz/<zone>.json (America/Chicago.json, as in the system's zoneinfo folder): each zone's
 * offsets and short names from the year before the build's through 15 years after it (about 0.3 s
 * of the build). A command reads the one or two it needs (src/geo/zoneTransitions.ts); an instant
 * outside these years, another zone or another Node's time zone data goes to Intl.
 */
async function writeZoneTransitions(outDir, zones) {
  const buildYear = Number(info.date.slice(0, 4));
  const tables = zones.map((zone) => zoneTransitionTable(zone, buildYear - 1, buildYear + 15));
  if (tables.includes(undefined)) return; // a Node without process.versions.tz: Intl for every zone
  await Promise.all(
    tables.map(async (table) => {
      const file = join(outDir, `${table.timeZone}.json`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(table));
    }),
  );
}
