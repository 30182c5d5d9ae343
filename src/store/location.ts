/** Where the store lives: --store DIR, else SHIPPER_STORE, else the user's data directory. */
import envPaths from 'env-paths';
import { resolve } from 'node:path';

export function resolveStoreDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.SHIPPER_STORE) return resolve(env.SHIPPER_STORE);
  return envPaths('shipper', { suffix: '' }).data;
}
