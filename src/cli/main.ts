/** Entry point of bin/shipper.js: parse, run one command, map any error to one message and an exit code. */
import { CommanderError } from 'commander';
import type { CommandContext } from './context.js';
import { ExitCode, reportError } from './errors.js';
import { IO, type IOStreams } from './output.js';
import { buildProgram } from './program.js';

export async function main(argv: string[], streams: IOStreams = process, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const contexts: CommandContext[] = [];
  const program = buildProgram(streams, env, contexts);
  // Every command, not only the root: a subcommand's unknown option must exit 2 through the catch below.
  const overrideExit = (command: typeof program): void => {
    command.exitOverride();
    command.commands.forEach(overrideExit);
  };
  overrideExit(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed its message (and help/version exit with code 0).
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const ctx = contexts.at(-1);
    const io = ctx?.io ?? new IO(streams, { json: argv.includes('--json'), color: !argv.includes('--no-color'), quiet: false }, env);
    return reportError(error, io, ctx?.mode ?? 'local');
  } finally {
    await Promise.all(contexts.map((ctx) => ctx.close().catch(() => undefined)));
  }
}
