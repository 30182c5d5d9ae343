/**
 * `shipper __reference DIR` (hidden; `npm run docs`): writes the command reference generated from
 * this program's own tree (src/cli/reference.ts) into DIR, one page per command.
 */
import type { Command } from 'commander';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContextFactory } from '../context.js';
import { commandReference } from '../reference.js';

export function registerReferenceCommand(program: Command, context: ContextFactory): void {
  program
    .command('__reference <dir>', { hidden: true })
    .description('write the command reference (docs/commands) from the command tree')
    .action(async (dir: string, _options: unknown, command: Command) => {
      const ctx = context(command);
      const pages = commandReference(program);
      await mkdir(dir, { recursive: true });
      // Pages of commands that no longer exist go too.
      for (const name of await readdir(dir)) if (name.endsWith('.md')) await rm(join(dir, name));
      for (const { file, markdown } of pages) await writeFile(join(dir, file), markdown);
      ctx.io.streams.stdout.write(`${pages.length} pages written to ${dir}\n`);
    });
}
