/**
 * The command reference (docs/commands/) and the man pages (man/), generated from the commander
 * tree as the GitHub CLI's gen-docs does: one page per visible command, from its description,
 * usage, examples (src/cli/examples.ts), arguments, options and the notes its help prints after
 * them. A test regenerates both and fails when the committed ones differ, so neither can drift
 * from `--help`.
 */
import type { Command, Help } from 'commander';
import { exampleLines, examplesOf } from './examples.js';

export interface ReferencePage {
  /** File name: under docs/commands/ `shipper_quote_list.md`, under man/ `shipper-quote-list.1`. */
  file: string;
  /** The page: Markdown or roff. */
  text: string;
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

/** What addHelpText put before and after the generated help (notes), as `--help` prints it. */
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

/** The examples as `--help` prints them, without the indent. */
const examplesText = (command: Command): string =>
  exampleLines(command)
    .map((line) => line.slice(2))
    .join('\n');

function page(command: Command, isRoot: boolean): ReferencePage {
  const help = command.createHelp();
  const title = pathOf(command).join(' ');
  const lines: string[] = [`# ${title}`, '', command.description(), '', '## Usage', '', '```', `${help.commandUsage(command)}`, '```'];
  const { before, after } = helpTexts(command);
  if (before) lines.push('', '```', before, '```');
  const examples = examplesText(command);
  if (examples) lines.push('', '## Examples', '', '```', examples, '```');
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('', '## Arguments', '', '| Argument | Description |', '|---|---|');
    for (const argument of args) lines.push(`| \`${escapeCell(help.argumentTerm(argument))}\` | ${escapeCell(help.argumentDescription(argument))} |`);
  }
  const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
  if (options.length > 0) lines.push('', '## Options', '', ...optionsTable(help, command, options));
  if (!isRoot) lines.push('', 'The global options of [shipper](shipper.md) apply too.');
  if (after) lines.push('', '## Notes', '', '```', after, '```');
  const subcommands = visibleCommands(command);
  if (subcommands.length > 0) {
    lines.push('', '## Commands', '');
    for (const sub of subcommands) lines.push(`- [${pathOf(sub).join(' ')}](${fileOf(sub)}): ${sub.description()}`);
  }
  if (command.parent) lines.push('', `See also: [${pathOf(command.parent).join(' ')}](${fileOf(command.parent)})`);
  return { file: fileOf(command), text: `${lines.join('\n')}\n` };
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
  return [{ file: 'README.md', text: `${index.join('\n')}\n` }, ...pages];
}

/** Every command of the tree that has a page: the root first, then depth first. */
function pagedCommands(program: Command): Command[] {
  const commands: Command[] = [];
  const walk = (command: Command): void => {
    commands.push(command);
    visibleCommands(command).forEach(walk);
  };
  walk(program);
  return commands;
}

/** Commands whose help shows no example (a test keeps this empty). */
export function commandsWithoutExamples(program: Command): string[] {
  return pagedCommands(program)
    .filter((command) => examplesOf(command).length === 0)
    .map((command) => pathOf(command).join(' '));
}

// ---------------------------------------------------------------------------------------------
// Man pages: the same content in roff (man(7) macros), `shipper-quote-list.1` for `shipper quote list`.

/** Text as roff reads it literally: backslashes and hyphens escaped, no line starting a request. */
const roff = (text: string): string =>
  text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');

const bold = (text: string): string => `\\fB${roff(text)}\\fR`;

const manName = (command: Command): string => pathOf(command).join('-');

/** One roff page per command, named `shipper-quote-list.1`; dated by nothing, so it changes only with the command. */
export function manPages(program: Command): ReferencePage[] {
  return pagedCommands(program).map((command) => {
    const help = command.createHelp();
    const name = manName(command);
    const lines = [`.TH "${name.toUpperCase()}" "1" "" "shipper" "shipper manual"`, '.SH NAME', `${roff(name)} \\- ${roff(command.description())}`];
    lines.push('.SH SYNOPSIS', `${bold(pathOf(command).join(' '))} ${roff(help.commandUsage(command).split(' ').slice(pathOf(command).length).join(' '))}`);
    lines.push('.SH DESCRIPTION', roff(command.description()));
    const { before, after } = helpTexts(command);
    if (before) lines.push('.PP', '.nf', roff(before), '.fi');
    const examples = examplesText(command);
    if (examples) lines.push('.SH EXAMPLES', '.PP', '.nf', '.RS 4', roff(examples), '.RE', '.fi');
    const args = help.visibleArguments(command);
    if (args.length > 0) {
      lines.push('.SH ARGUMENTS');
      for (const argument of args) lines.push('.TP', bold(help.argumentTerm(argument)), roff(help.argumentDescription(argument)));
    }
    const options = help.visibleOptions(command).filter((option) => option.long !== '--help');
    if (options.length > 0) {
      lines.push(command.parent ? '.SH OPTIONS' : '.SH GLOBAL OPTIONS');
      for (const option of options) lines.push('.TP', bold(help.optionTerm(option)), roff(help.optionDescription(option)));
      if (command.parent) lines.push('.PP', `The global options of ${bold('shipper')}(1) apply too.`);
    }
    if (after) lines.push('.SH NOTES', '.nf', roff(after), '.fi');
    const subcommands = visibleCommands(command);
    if (subcommands.length > 0) {
      lines.push('.SH COMMANDS');
      for (const sub of subcommands) lines.push('.TP', `${bold(manName(sub))}(1)`, roff(sub.description()));
    }
    const related = [...(command.parent ? [command.parent] : []), ...subcommands].map((other) => `${bold(manName(other))}(1)`);
    if (related.length > 0) lines.push('.SH SEE ALSO', related.join(', '));
    return { file: `${name}.1`, text: `${lines.join('\n')}\n` };
  });
}
