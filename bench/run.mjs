// Runs a benchmark written in TypeScript: `node bench/run.mjs <name> [args...]` bundles
// bench/<name>.ts with esbuild into .tmp/ and runs it with the same Node. Build the CLI first
// (`npm run build`): benches that time the CLI spawn bin/shipper.js.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !existsSync(join(root, 'bench', `${name}.ts`))) {
  console.error('usage: node bench/run.mjs <startup|quote|store|import|bol|serve> [args...]');
  process.exit(2);
}
const outfile = join(root, '.tmp', `bench-${name}.mjs`);
await build({
  entryPoints: [join(root, 'bench', `${name}.ts`)],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
