/**
 * The contract suite twice: against the local engine in this process, and through RemoteApi
 * against `shipper serve` (the built CLI, a child process on a free loopback port). Both must pass.
 */
import { LocalApi } from '../../src/api/local.js';
import { RemoteApi } from '../../src/api/remote.js';
import { tempDir } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTRACT_NOW, CONTRACT_SETTINGS, contractClock, defineContractSuite, pastApiFactory } from './suite.js';

defineContractSuite('contract: local engine', async () => {
  const { dir, cleanup } = await tempDir();
  const api = new LocalApi({ storeDir: dir, now: contractClock(), ...CONTRACT_SETTINGS });
  return {
    target: { mode: 'local', api, storeDir: dir, pastApi: pastApiFactory(dir) },
    teardown: async () => {
      await api.close();
      await cleanup();
    },
  };
});

defineContractSuite('contract: remote mode against shipper serve', async () => {
  const { dir, cleanup } = await tempDir();
  // The server reads the same settings from its config file.
  await writeFile(join(dir, 'config.json'), JSON.stringify(CONTRACT_SETTINGS));
  const server = await startServe({ store: join(dir, 'store'), env: { SHIPPER_NOW: CONTRACT_NOW, SHIPPER_CONFIG_DIR: dir } });
  const api = new RemoteApi({ baseUrl: server.url, retries: 0 });
  return {
    target: { mode: 'remote', api, storeDir: join(dir, 'store'), pastApi: pastApiFactory(join(dir, 'store')) },
    teardown: async () => {
      await api.close();
      await server.stop();
      await cleanup();
    },
  };
});
