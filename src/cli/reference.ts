/**
 * The command reference (docs/commands/), generated from the commander tree as the GitHub CLI's
 * gen-docs does: one page per visible command, from its description, usage, arguments, options
 * and the help text it prints after them (its examples). A test regenerates the pages and fails
 * when the committed ones differ, so the reference cannot drift from `--help`.
 */
import type { Command, Help } from 'commander';

export interface ReferencePage {
  /** File name under docs/commands/, e.g. `shipper_quote_list.md`. */
  file: string;
  markdown: string;
}

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function pathOf(command: Command): string[] {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names;
}

const fileOf = (command: Command): string => `${pathOf(command).join('_')}.md`;

/** commander's implicit `help` command is left out: it has no page of its own. */
const visibleCommands = (command: Command): Command[] =>
  command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => sub.name() !== 'help');

/** What addHelpText put before and after the generated help (examples, notes), as `--help` prints it. */
function helpTexts(command: Command): { before: string; after: string } {
  const capture = (event: string): string => {
    let text = '';
    // commander's Command is an EventEmitter at run time; its types leave that out.
    (command as unknown as NodeJS.EventEmitter).emit(event, { error: false, command, write: (chunk: string) => (text += chunk) });
    return text.trim();
  };
  return { before: capture('beforeHelp'), after: capture('afterHelp') };
}

function optionsTable(help: Help, command: Command, options: ReturnType<Help['visibleOptions']>): string[] {
  if (options.length === 0) return [];
  return ['| Option | Description |', '|---|---|', ...options.map((option) => `| \`${escapeCell(help.optionTerm(option))}\` | ${escapeCell(help.optionDescription(option))} |`)];
}

function page(command: Command, isRoot: boolean): ReferencePage {
  const help = command.createHelp();
  const title = pathOf(command).join(' ');
  const lines: string[] = [`# ${title}`, '', command.description(), '', '## Usage', '', '```', `${help.commandUsage(command)}`, '```'];
  const { before, after } = helpTexts(command);
  if (before) lines.push('', '```', before, '```');
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('', '## Arguments', '', '| Argument | Description |', '|---|---|');
    for (const argument of args) lines.push(`| \`${escapeCell(help.argumentTerm(argument))}\` | ${escapeCell(help.argumentDescription(argument))} |`);
  }
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (options.length > 0) lines.push('', '## Options', '', ...optionsTable(help, command, options));
  if (!isRoot) lines.push('', 'The global options of [shipper](shipper.md) apply too.');
  if (after) lines.push('', '## Examples', '', '```', after, '```');
  const subcommands = visibleCommands(command);
  if (subcommands.length > 0) {
    lines.push('', '## Commands', '');
    for (const sub of subcommands) lines.push(`- [${pathOf(sub).join(' ')}](${fileOf(sub)}): ${sub.description()}`);
  }
  if (command.parent) lines.push('', `See also: [${pathOf(command.parent).join(' ')}](${fileOf(command.parent)})`);
  return { file: fileOf(command), markdown: `${lines.join('\n')}\n` };
}

/** Every page of the reference, the root first, then the tree depth first, plus an index (README.md). */
export function commandReference(program: Command): ReferencePage[] {
  const pages: ReferencePage[] = [];
  const walk = (command: Command, isRoot: boolean): void => {
    pages.push(page(command, isRoot));
    for (const sub of visibleCommands(command)) walk(sub, false);
  };
  walk(program, true);
  const index = [
    '# Command reference',
    '',
    'Generated from the command tree (`npm run docs`); a test fails when a page here differs from what `--help` prints.',
    '',
    ...pages.map(({ file }) => `- [${file.replace(/\.md$/, '').replace(/_/g, ' ')}](${file})`),
  ];
  return [{ file: 'README.md', markdown: `${index.join('\n')}\n` }, ...pages];
}

/** Commands whose help shows no example (a test keeps this empty). */
export function commandsWithoutExamples(program: Command): string[] {
  const missing: string[] = [];
  const walk = (command: Command): void => {
    if (!/Examples?:/.test(helpTexts(command).after)) missing.push(pathOf(command).join(' '));
    visibleCommands(command).forEach(walk);
  };
  walk(program);
  return missing;
}
