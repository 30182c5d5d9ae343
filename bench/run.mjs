// Runs a TypeScript bench without a TS loader (Node 20 has none built in): bundles bench/<name>.ts
// (or a .ts path) with esbuild into .tmp/ and runs it with this Node. Packages stay external, so
// they load from node_modules exactly as the app loads them.
//   node bench/run.mjs bol [args...]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [target, ...args] = process.argv.slice(2);
if (!target) {
  console.error('usage: node bench/run.mjs <name | path/to/script.ts> [args...]');
  process.exit(2);
}
const entry = target.endsWith('.ts') ? resolve(target) : join(root, 'bench', `${target}.ts`);
if (!existsSync(entry)) {
  console.error(`bench/run.mjs: no such script ${entry}`);
  process.exit(2);
}
const outfile = join(root, '.tmp', `bench-${basename(entry, '.ts')}.mjs`);
await build({
  entryPoints: [entry],
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
