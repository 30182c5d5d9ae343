/**
 * `shipper completion bash|zsh|fish`: a shell completion script generated from the commander
 * program itself, so every command, subcommand and flag (including those added later) completes
 * without a hand-kept list. Values complete too: an option's choices (--format, --status, --terms,
 * --fob, --by...), the tariff's accessorial codes, files, and names the user saved (locations,
 * BOL templates), which the script asks `shipper __complete locations|templates` for as it
 * completes, so a location saved a minute ago is offered.
 */
import { Argument, type Command } from 'commander';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import type { CompletionData, DynamicSource } from './completionScripts.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What `shipper __complete` lists (completionScripts.ts asks for these). */
const NAME_SOURCES: readonly DynamicSource[] = ['locations', 'templates'];

export async function completionScript(shell: string, program: Command, data: CompletionData): Promise<string> {
  const { bashScript, completionTree, fishScript, zshScript } = await import('./completionScripts.js');
  const nodes = completionTree(program, data);
  if (shell === 'bash') return bashScript(nodes);
  if (shell === 'zsh') return zshScript(nodes);
  if (shell === 'fish') return fishScript(nodes);
  throw new UsageError(`unknown shell "${shell}"`, `shells: ${SHELLS.join(', ')}`);
}

/** The accessorial codes of the tariff in effect (--tariff, SHIPPER_TARIFF, the config), else the shipped one's. */
async function completionData(ctx: CommandContext): Promise<CompletionData> {
  const { defaultTariffFile } = await import('../../paths.js');
  const codesOf = async (file: string) => Object.keys((JSON.parse(await readFile(file, 'utf8')) as { accessorials?: Record<string, unknown> }).accessorials ?? {});
  const tariff = await ctx.settings().then(
    (settings) => settings.tariff,
    () => undefined,
  );
  // A tariff that cannot be read completes with the shipped codes: the script is still useful.
  for (const file of [tariff, defaultTariffFile()]) {
    const codes = file ? await codesOf(file).catch(() => []) : [];
    if (codes.length > 0) return { accessorials: codes };
  }
  return { accessorials: [] };
}

/** `shipper __complete locations|templates`: the names, one per line, read as cheaply as possible. */
async function printNames(ctx: CommandContext, source: string): Promise<void> {
  let names: string[];
  if (source === 'locations') {
    // The (lower-case) location names: no record is read or parsed.
    names = await (await ctx.locations()).names().catch(() => []);
  } else if (source === 'templates') {
    const { templatesDir } = await import('../../paths.js');
    const files = await readdir(join(templatesDir(), 'bol')).catch(() => []);
    names = files.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  } else {
    throw new UsageError(`nothing to complete named "${source}"`, `one of ${NAME_SOURCES.join(', ')}`);
  }
  const valid = names.filter((name) => /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name));
  ctx.io.streams.stdout.write(
    valid
      .sort()
      .map((name) => `${name}\n`)
      .join(''),
  );
}

export function registerCompletionCommands(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .examples(
      'source <(shipper completion bash)                                   (this shell only)',
      'shipper completion bash > ~/.local/share/bash-completion/completions/shipper',
      `shipper completion zsh > "\${fpath[1]}/_shipper"                       (then restart zsh)`,
      'shipper completion fish > ~/.config/fish/completions/shipper.fish',
    )
    .addHelpText(
      'after',
      `
Commands, subcommands and flags complete, and values: choices (--format, --status, --terms, --fob),
the tariff's accessorial codes, files, saved locations (--shipper, --consignee, --bill-to) and BOL
templates (--template), the last two read when you press Tab.`,
    )
    .action(async (shell: string, _options: unknown, command: Command) => {
      const ctx = context(command);
      // The script is for the shell, never JSON: written as it is, even with --json.
      ctx.io.streams.stdout.write(await completionScript(shell, program, await completionData(ctx)));
    });

  // What the scripts ask for as they complete; not a command people type.
  program
    .command('__complete <what>', { hidden: true })
    .description('names for shell completion: locations or templates')
    .action(async (what: string, _options: unknown, command: Command) => printNames(context(command), what));
}
