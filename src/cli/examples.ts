/**
 * Every command's `--help` leads with its examples: usage, the description, then `Examples:`, then
 * the arguments, options and subcommands (and any notes the command adds after them). A command
 * declares them with `.examples(...)` (ShipperCommand, the program's class, which every
 * subcommand is); the help layout below (set on the program, which every subcommand inherits) puts
 * them in place, and the command reference and the man pages (src/cli/reference.ts) read the same
 * declaration.
 */
import { Command, Help, type HelpConfiguration } from 'commander';

const EXAMPLES = new WeakMap<Command, readonly string[]>();

/** commander's Command with examples; its subcommands are ShipperCommands too. */
export class ShipperCommand extends Command {
  /**
   * The command's examples, each a command line as typed after `$ ` (a line that continues ends in
   * `\` and goes on after a newline; a short note may follow after spaces).
   */
  examples(...lines: string[]): this {
    EXAMPLES.set(this, lines);
    return this;
  }

  override createCommand(name?: string): ShipperCommand {
    return new ShipperCommand(name);
  }
}

/** The examples a command declared (its own, never its parent's). */
export function examplesOf(command: Command): readonly string[] {
  return EXAMPLES.get(command) ?? [];
}

/** The examples as `--help` prints them: `  $ ` before each, continuation lines indented under it. */
export function exampleLines(command: Command): string[] {
  return examplesOf(command).flatMap((example) => {
    const [first, ...rest] = example.split('\n');
    return [`  $ ${first}`, ...rest.map((line) => `      ${line.trimStart()}`)];
  });
}

/**
 * commander's layout with the examples moved up: its help starts with the usage line and the
 * description (each followed by a blank line); the examples go right after them.
 */
function formatHelp(this: Help, command: Command, helper: Help): string {
  const base = Help.prototype.formatHelp.call(this, command, helper);
  const lines = exampleLines(command);
  if (lines.length === 0) return base;
  const head = [`${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(command))}`, ''];
  const description = helper.commandDescription(command);
  if (description.length > 0) head.push(helper.boxWrap(helper.styleCommandDescription(description), helper.helpWidth ?? 80), '');
  const prefix = `${head.join('\n')}\n`;
  const section = [helper.styleTitle(examplesOf(command).length === 1 ? 'Example:' : 'Examples:'), ...lines, ''].join('\n');
  // The head is what commander's own layout starts with; should a later commander change that, the examples still print.
  return base.startsWith(prefix) ? `${prefix}${section}\n${base.slice(prefix.length)}` : `${base}\n${section}`;
}

/** The help layout of the program (`configureHelp`), inherited by every command it adds. */
export const EXAMPLES_FIRST: HelpConfiguration = { formatHelp };
