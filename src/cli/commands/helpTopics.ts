/**
 * Help topics beyond the commands: `shipper help environment`. A topic is a hidden command whose
 * help is the topic's text, so commander's own `help <name>` (and `<name> --help`) print it.
 */
import type { Command } from 'commander';
import type { ContextFactory } from '../context.js';
import { environmentHelp } from '../environmentHelp.js';

export function registerHelpTopics(program: Command, context: ContextFactory): void {
  program
    .command('environment', { hidden: true })
    .description('every environment variable shipper reads, what it does and what beats it')
    .configureHelp({ formatHelp: (_command, helper) => environmentHelp(helper.helpWidth ?? 100) })
    .action((_options: unknown, command: Command) => {
      const ctx = context(command);
      ctx.io.streams.stdout.write(environmentHelp(ctx.io.terminalWidth));
    });
}
