/**
 * `shipper __reference DIR [--man MANDIR]` (hidden; `npm run docs`): writes the command reference
 * generated from this program's own tree (src/cli/reference.ts) into DIR, one page per command,
 * and with --man the same pages as man pages into MANDIR.
 */
import type { Command } from 'commander';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { commandReference, manPages, type ReferencePage } from '../reference.js';

export function registerReferenceCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('__reference <dir>', { hidden: true })
    .description('write the command reference (docs/commands) from the command tree')
    .option('--man <dir>', 'also write the man pages (shipper-*.1) into this directory')
    .action(async (dir: string, options: { man?: string }, command: Command) => {
      const ctx = context(command);
      const written = [await writePages(dir, commandReference(program), '.md')];
      if (options.man) written.push(await writePages(options.man, manPages(program), '.1'));
      ctx.io.streams.stdout.write(`${written.join('; ')}\n`);
    });
}

/** Writes the pages into the directory, removing its other pages of that kind (of commands that no longer exist). */
async function writePages(dir: string, pages: ReferencePage[], extension: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) if (name.endsWith(extension)) await rm(join(dir, name));
  for (const { file, text } of pages) await writeFile(join(dir, file), text);
  return `${pages.length} pages written to ${dir}`;
}
