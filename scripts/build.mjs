// Build step run by `npm install` (prepare) and `npm test`:
// 1. bundle the CLI with esbuild (one file per lazily imported chunk, so start-up parses only what
//    a command needs), 2. generate the compact ZIP geodata table from the `zipcodes` package,
//    with each ZIP's IANA time zone resolved once here instead of at every quote: the zone at the
//    ZIP's point from geo-tz (the exact timezone-boundary-builder polygons), except for the few
//    ZIPs in src/geo/timeZoneOverrides.json, whose local time differs from that point's. Every
//    point is checked against its state's box first (scripts/geodataCheck.mjs): a wrong point
//    fails the build instead of pricing a lane to the other side of the world.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from './buildInfo.mjs';
import { checkGeodataPoints } from './geodataCheck.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');

await rm(dist, { recursive: true, force: true });

await build({
  // The BOL render pool's worker thread is an entry of its own (src/bol/renderPool.ts starts it from dist/bol/).
  entryPoints: { 'cli/main': join(root, 'src/cli/entry.ts'), 'bol/renderWorker': join(root, 'src/bol/renderWorker.ts') },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [onlyEnglishZodMessages(), asciiFastStringWidth()],
  // The PostgreSQL store's migrations (src/store/postgres/migrations/*.sql) are embedded as text.
  loader: { '.sql': 'text' },
  // `shipper --version`: the version, commit and build date, fixed at build time (src/cli/version.ts).
  define: { __SHIPPER_BUILD__: JSON.stringify(buildInfo(root)) },
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

// ESM resolution stops at this file instead of reading the project's package.json for every chunk.
await writeFile(join(dist, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);

await writeGeodata(join(dist, 'geo'));

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
}
