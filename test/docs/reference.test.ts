/**
 * The command reference in docs/commands/ is generated from the command tree (`npm run docs`):
 * these tests regenerate it in process and compare, so a changed flag or description without
 * regenerated pages fails here, and every command's help shows examples.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { commandReference, commandsWithoutExamples } from '../../src/cli/reference.js';

const DOCS = join(import.meta.dirname, '../../docs/commands');

function program() {
  const sink = () => Object.assign(new PassThrough(), { isTTY: false });
  return buildProgram({ stdout: sink(), stderr: sink(), stdin: sink() }, { NO_COLOR: '1' }, []);
}

describe('the command reference', () => {
  it('docs/commands holds exactly the pages the command tree generates (run `npm run docs` after changing a command)', async () => {
    const pages = commandReference(await program());
    const committed = (await readdir(DOCS)).filter((name) => name.endsWith('.md')).sort();
    expect(committed).toEqual(pages.map((page) => page.file).sort());
    for (const { file, markdown } of pages) {
      expect(await readFile(join(DOCS, file), 'utf8'), `docs/commands/${file} is out of date: run npm run docs`).toBe(markdown);
    }
  });

  it('has a page per command with its options and examples, linked from the index and its parent', async () => {
    const pages = new Map(commandReference(await program()).map((page) => [page.file, page.markdown]));
    const quoteList = pages.get('shipper_quote_list.md')!;
    expect(quoteList).toContain('# shipper quote list');
    expect(quoteList).toContain('`--status <status>`');
    expect(quoteList).toContain('$ shipper quote list');
    expect(pages.get('README.md')).toContain('(shipper_quote_list.md)');
    expect(pages.get('shipper_quote.md')).toContain('(shipper_quote_list.md)');
    // Hidden commands (help topics, completion's helper) and commander's help command have no page.
    expect([...pages.keys()].some((file) => /__|environment|help\.md/.test(file))).toBe(false);
  });

  it('every command shows examples in its --help', async () => {
    expect(commandsWithoutExamples(await program())).toEqual([]);
  });
});
