import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RejectFile } from '../../src/import/rejectFile.js';
import { tempDir } from '../helpers/cli.js';

describe('the reject file', () => {
  it('keeps the rows as they were, adds a reason per row, and appears only when committed', async () => {
    const { dir, cleanup } = await tempDir('shipper-rejects-');
    try {
      const path = join(dir, 'in.rejected.csv');
      const rejects = new RejectFile(path, ['refNumber', 'description'], ';', true);
      await rejects.write(
        {
          rows: [
            { line: 2, cells: ['A', 'Parts; boxed'] },
            { line: 3, cells: ['A', 'Say "hi"\nthere'] },
          ],
        },
        [{ line: 3, column: 'description', field: 'orderComponents[1].description', reason: 'must be at most 256 characters' }],
      );
      await expect(readFile(path)).rejects.toThrow(/ENOENT/);
      expect(await rejects.commit()).toBe(path);
      expect(await readFile(path, 'utf8')).toBe(
        '\uFEFFrefNumber;description;reason\r\n' +
          'A;"Parts; boxed";not imported: line 3 of the same shipment is invalid\r\n' +
          'A;"Say ""hi""\nthere";description: must be at most 256 characters\r\n',
      );
    } finally {
      await cleanup();
    }
  });

  it('reuses the reason column of a reject file being imported again', async () => {
    const { dir, cleanup } = await tempDir('shipper-rejects-');
    try {
      const rejects = new RejectFile(join(dir, 'again.csv'), ['refNumber', 'Reason', 'description'], ',', false);
      await rejects.write({ rows: [{ line: 2, cells: ['A', 'old reason', 'x'] }] }, [{ line: 2, column: null, field: '(shipment)', reason: 'new reason' }]);
      await rejects.commit();
      expect(await readFile(join(dir, 'again.csv'), 'utf8')).toBe('refNumber,reason,description\r\nA,new reason,x\r\n');
    } finally {
      await cleanup();
    }
  });

  it('writes nothing when nothing was rejected', async () => {
    const rejects = new RejectFile('/nonexistent/dir/x.csv', ['a'], ',', false);
    expect(await rejects.commit()).toBeNull();
  });
});
