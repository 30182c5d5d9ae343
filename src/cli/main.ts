/** Entry point of bin/shipper.js: parse, run one command, map any error to one message and an exit code. */
import { CommanderError } from 'commander';
import { ExitCode, UsageError } from '../api/problems.js';
import type { CommandContext } from './context.js';
import { reportError } from './errors.js';
import { IO, type IOStreams } from './output.js';
import { buildProgram, commandNameOf } from './program.js';
import { topicArgv, unknownHelpSubject } from './commands/helpTopics.js';
import { useZoneTransitions } from '../domain/dates.js';
import { readZoneTransitions } from '../geo/zoneTransitions.js';

export async function main(argv: string[], streams: IOStreams = process, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Zones' offsets and names from the build's files: no ICU zone data for the zones they cover.
  useZoneTransitions(readZoneTransitions);
  const contexts: CommandContext[] = [];
  const program = await buildProgram(streams, env, contexts, argv);
  // Every command, not only the root: a subcommand's unknown option must exit 2 through the catch below.
  const overrideExit = (command: typeof program): void => {
    command.exitOverride();
    command.commands.forEach(overrideExit);
  };
  overrideExit(program);
  const json = argv.includes('--json');
  try {
    const helpAt = commandNameOf(argv) === 'help' ? argv.indexOf('help') : -1;
    const unknownHelp =
      helpAt < 0
        ? undefined
        : unknownHelpSubject(
            argv[helpAt + 1],
            program.commands.map((command) => command.name()),
          );
    if (unknownHelp) throw unknownHelp;
    await program.parseAsync(topicArgv(argv), { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed its message (and help/version exit with code 0); scripts with --json get it as a ProblemDetail too.
      if (error.exitCode === 0) return ExitCode.ok;
      if (json) new IO(streams, { json, color: false, quiet: false }, env).json(new UsageError(error.message.replace(/^error: /, '')).toProblem());
      return ExitCode.usage;
    }
    const ctx = contexts.at(-1);
    const io = ctx?.io ?? new IO(streams, { json, color: !argv.includes('--no-color'), quiet: false }, env);
    return reportError(error, io, Boolean(env.SHIPPER_DEBUG));
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.close().catch(() => undefined)));
  }
}
