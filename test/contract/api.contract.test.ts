/**
 * The contract suite twice: against the local engine in this process, and through RemoteApi
 * against `shipper serve` (the built CLI, a child process on a free loopback port). Both must pass.
 */
import { LocalApi } from '../../src/api/local.js';
import { RemoteApi } from '../../src/api/remote.js';
import { tempDir } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { CONTRACT_NOW, contractClock, defineContractSuite, pastApiFactory } from './suite.js';

defineContractSuite('contract: local engine', async () => {
  const { dir, cleanup } = await tempDir();
  const api = new LocalApi({ storeDir: dir, now: contractClock() });
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
  const server = await startServe({ store: dir, env: { SHIPPER_NOW: CONTRACT_NOW } });
  const api = new RemoteApi({ baseUrl: server.url, retries: 0 });
  return {
    target: { mode: 'remote', api, storeDir: dir, pastApi: pastApiFactory(dir) },
    teardown: async () => {
      await api.close();
      await server.stop();
      await cleanup();
    },
  };
});
