/**
 * Bundles a TypeScript helper script (and the src/ modules it imports) with esbuild into a
 * temporary .mjs that node runs: for tests that need several real processes running our code
 * without a command of the CLI for it.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export async function bundleScript(relativePath: string, outDir: string): Promise<string> {
  const outfile = join(outDir, relativePath.replace(/[^\w]+/g, '-').replace(/-ts$/, '.mjs'));
  await build({
    entryPoints: [join(ROOT, relativePath)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return outfile;
}
