// Build step run by `npm install` (prepare) and `npm test`:
// 1. bundle the CLI with esbuild (one file per lazily imported chunk, so start-up parses only what
//    a command needs), 2. generate the compact ZIP geodata table from the `zipcodes` package,
//    with each ZIP's IANA time zone resolved once here instead of at every quote: the zone at the
//    ZIP's point from geo-tz (the exact timezone-boundary-builder polygons), except for the few
//    ZIPs in src/geo/timeZoneOverrides.json, whose local time differs from that point's.
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from './buildInfo.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');

await rm(dist, { recursive: true, force: true });

await build({
  entryPoints: { 'cli/main': join(root, 'src/cli/entry.ts') },
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
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

await writeGeodata(join(dist, 'geo'));

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
  const zones = [];
  const zoneIndex = new Map();
  const byPrefix = new Map();
  for (const entry of Object.values(codes)) {
    if (entry.country !== 'US' || !/^\d{5}$/.test(entry.zip)) continue;
    const lat = Number(entry.latitude);
    const lon = Number(entry.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue;
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
