/** The storage ports' contract on the file store. */
import { FileStore } from '../../../src/store/file/fileStore.js';
import { tempDir } from '../../helpers/cli.js';
import { storeContract } from './suite.js';

storeContract('file store', async () => {
  const dir = await tempDir('shipper-file-store-');
  return { store: new FileStore(dir.dir), cleanup: dir.cleanup };
});
