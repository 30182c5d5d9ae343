/**
 * Files shipped with the package (templates/, the generated dist/geo/). Found by walking up from
 * this module to the package root, which works both from src/ (tests) and from the dist/ bundle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'shipper') {
      cachedRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the shipper package root');
    dir = parent;
  }
}

export const templatesDir = (): string => join(packageRoot(), 'templates');
export const geodataDir = (): string => join(packageRoot(), 'dist', 'geo');
export const defaultTariffFile = (): string => join(templatesDir(), 'tariff', 'default.json');
