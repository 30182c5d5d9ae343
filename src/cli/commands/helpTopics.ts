/**
 * Help topics beyond the commands: `shipper help environment|exit-codes|csv-columns|settings|formats|warnings`.
 * A topic is a hidden command whose help is the topic's text, so commander's own `help <name>`
 * (and `<name> --help`) print it. Each text is generated from the code it explains; that code
 * (the importer's tables, the bill and tender formats) loads only when its topic is asked for:
 * the preSubcommand hook loads it before commander formats the help, which it does synchronously.
 */
import type { Command } from 'commander';
import { UsageError } from '../../api/problems.js';
import { didYouMean } from '../../domain/didYouMean.js';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';

type TopicText = (width: number) => string;

export const HELP_TOPICS: ReadonlyArray<{ name: string; description: string; load: () => Promise<TopicText> }> = [
  {
    name: 'environment',
    description: 'every environment variable shipper reads, what it does and what beats it',
    load: async () => (await import('../environmentHelp.js')).environmentHelp,
  },
  { name: 'exit-codes', description: 'what each exit code means', load: async () => (await import('../topics/exitCodes.js')).exitCodesHelp },
  {
    name: 'csv-columns',
    description: "the columns shipper import reads, with the names other systems' exports use",
    load: async () => (await import('../topics/csvColumns.js')).csvColumnsHelp,
  },
  { name: 'settings', description: 'every setting of shipper config (also in shipper config --help)', load: async () => (await import('../topics/config.js')).settingsHelp },
  { name: 'formats', description: 'the files shipper reads and writes', load: async () => (await import('../topics/formats.js')).formatsHelp },
  { name: 'warnings', description: 'every warning code, its level and when it is said', load: async () => (await import('../topics/warnings.js')).warningsHelp },
];

export function registerHelpTopics(program: ShipperCommand, context: ContextFactory): void {
  const loaded = new Map<string, TopicText>();
  program.hook('preSubcommand', async (_program, subcommand) => {
    const topic = HELP_TOPICS.find((candidate) => candidate.name === subcommand.name());
    if (topic && !loaded.has(topic.name)) loaded.set(topic.name, await topic.load());
  });
  for (const topic of HELP_TOPICS) {
    program
      .command(topic.name, { hidden: true })
      .description(topic.description)
      .configureHelp({ formatHelp: (_command, helper) => loaded.get(topic.name)?.(helper.helpWidth ?? 100) ?? `${topic.description}\n` })
      .action(async (_options: unknown, command: Command) => {
        context(command);
        if (!loaded.has(topic.name)) loaded.set(topic.name, await topic.load());
        // The same text at the same width as `<topic> --help`.
        command.outputHelp();
      });
  }
}

/**
 * `shipper help <topic>` as `shipper <topic>`: commander answers `help X` with X's help at once,
 * synchronously, before a topic's text could load; the topic's own action prints the same text.
 */
export function topicArgv(argv: string[]): string[] {
  const at = argv.indexOf('help');
  const topic = argv[at + 1];
  if (at < 0 || !HELP_TOPICS.some((candidate) => candidate.name === topic)) return argv;
  // Only when `help` is the command, not an option's value: every word before it is a flag.
  if (argv.slice(0, at).some((word) => !word.startsWith('-'))) return argv;
  return [...argv.slice(0, at), ...argv.slice(at + 1)];
}

/**
 * `shipper help WORD` (the word after the command `help`) where WORD is no command and no topic: one line saying so (with the closest
 * name), exit 2, rather than commander's whole help on stderr without a word about WORD.
 */
export function unknownHelpSubject(subject: string | undefined, commands: readonly string[]): UsageError | undefined {
  if (subject === undefined || subject.startsWith('-')) return undefined;
  const known = [...commands.filter((name) => name !== 'help'), ...HELP_TOPICS.map((topic) => topic.name)];
  if (known.includes(subject)) return undefined;
  const closest = didYouMean(subject, known);
  return new UsageError(
    `no help topic or command "${subject}"${closest ? ` (did you mean ${closest}?)` : ''}`,
    `topics: ${HELP_TOPICS.map((topic) => topic.name).join(', ')}; commands: shipper --help`,
  );
}
