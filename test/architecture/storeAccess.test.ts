/**
 * One door to the store (issue 39): the commands reach the store in use through
 * CommandContext.store() (src/cli/context.ts), never by opening one of their own, so that no
 * record kind (fuel prices, saved locations, audited bills) lands in a store other than the one
 * --store names. LocalApi keeps its file store default for callers that give it a directory.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sourceFiles.js';

const OPENS_A_STORE = /store\/openLocation|store\/open\.js|store\/file\/fileStore|store\/postgres\/postgresStore|new FileStore\(|PostgresStore\.open\(/;
const DOORS = ['cli/context.ts', 'api/local.ts'];

describe('the store in use has one door', () => {
  const files = sourceFiles(SRC)
    .map((path) => ({ name: relative(SRC, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }))
    .filter(({ name }) => !name.startsWith('store/'));

  it('no module outside store/ opens a store but the command context (and LocalApi for its default)', () => {
    const openers = files.filter(({ text }) => OPENS_A_STORE.test(text)).map(({ name }) => name);
    expect(openers.sort()).toEqual([...DOORS].sort());
  });

  it('the context opens the store its settings name, not a bare directory', () => {
    const context = files.find(({ name }) => name === 'cli/context.ts')!.text;
    expect(context).toMatch(/openStoreAt\(settings\.storeLocation/);
    expect(context).not.toMatch(/settings\.store\)/);
  });
});
