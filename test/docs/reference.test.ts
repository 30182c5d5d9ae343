/**
 * The command reference in docs/commands/ and the man pages in man/ are generated from the command
 * tree (`npm run docs`): these tests regenerate them in process and compare, so a changed flag,
 * description or example without regenerated pages fails here, and every command's help shows
 * examples.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { commandReference, commandsWithoutExamples, manPages } from '../../src/cli/reference.js';

const DOCS = join(import.meta.dirname, '../../docs/commands');
const MAN = join(import.meta.dirname, '../../man');

function program() {
  const sink = () => Object.assign(new PassThrough(), { isTTY: false });
  return buildProgram({ stdout: sink(), stderr: sink(), stdin: sink() }, { NO_COLOR: '1' }, []);
}

describe('the command reference', () => {
  it('docs/commands holds exactly the pages the command tree generates (run `npm run docs` after changing a command)', async () => {
    const pages = commandReference(await program());
    const committed = (await readdir(DOCS)).filter((name) => name.endsWith('.md')).sort();
    expect(committed).toEqual(pages.map((page) => page.file).sort());
    for (const { file, text } of pages) {
      expect(await readFile(join(DOCS, file), 'utf8'), `docs/commands/${file} is out of date: run npm run docs`).toBe(text);
    }
  });

  it('man/ holds exactly the man pages the command tree generates, one per page of the reference', async () => {
    const tree = await program();
    const pages = manPages(tree);
    const committed = (await readdir(MAN)).filter((name) => name.endsWith('.1')).sort();
    expect(committed).toEqual(pages.map((page) => page.file).sort());
    for (const { file, text } of pages) expect(await readFile(join(MAN, file), 'utf8'), `man/${file} is out of date: run npm run docs`).toBe(text);
    expect(pages.map((page) => page.file.replace(/\.1$/, '').replace(/-/g, '_'))).toEqual(
      commandReference(tree)
        .filter((page) => page.file !== 'README.md')
        // A command's own hyphen (credentials add-client) reads as the man page's separator.
        .map((page) => page.file.replace(/\.md$/, '').replace(/-/g, '_')),
    );
    const quoteList = pages.find((page) => page.file === 'shipper-quote-list.1')!.text;
    expect(quoteList).toMatch(/^\.TH "SHIPPER-QUOTE-LIST" "1"/);
    // Examples before the options, hyphens escaped, no line that roff would take as a request.
    expect(quoteList.indexOf('.SH EXAMPLES')).toBeLessThan(quoteList.indexOf('.SH OPTIONS'));
    expect(quoteList).toContain('$ shipper quote list \\-\\-limit 5');
    for (const { file, text } of pages) {
      for (const line of text.split('\n')) expect(line, file).toMatch(/^(\.(TH|SH|PP|TP|nf|fi|RS 4|RE)\b|[^.'])|^$/);
    }
  });

  it('has a page per command with its options and examples, linked from the index and its parent', async () => {
    const pages = new Map(commandReference(await program()).map((page) => [page.file, page.text]));
    const quoteList = pages.get('shipper_quote_list.md')!;
    expect(quoteList).toContain('# shipper quote list');
    expect(quoteList).toContain('`--status <status>`');
    expect(quoteList).toContain('$ shipper quote list');
    // The examples lead, as in --help.
    expect(quoteList.indexOf('## Examples')).toBeLessThan(quoteList.indexOf('## Options'));
    expect(pages.get('README.md')).toContain('(shipper_quote_list.md)');
    expect(pages.get('shipper_quote.md')).toContain('(shipper_quote_list.md)');
    // Hidden commands (help topics, completion's helper) and commander's help command have no page.
    expect([...pages.keys()].some((file) => /__|environment|help\.md/.test(file))).toBe(false);
  });

  it('every command shows examples in its --help', async () => {
    expect(commandsWithoutExamples(await program())).toEqual([]);
  });
});
