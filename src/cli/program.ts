/**
 * The commander program: global flags, one register function per command group, and the factory
 * that turns a parsed command into a CommandContext.
 */
import { Command } from 'commander';
import { registerAuditCommand } from './commands/audit.js';
import { registerBolCommand } from './commands/bol.js';
import { registerCompletionCommands } from './commands/completion.js';
import { registerConfigCommands } from './commands/config.js';
import { registerDbCommands, registerStoreCommands } from './commands/db.js';
import { registerImportCommand } from './commands/import.js';
import { registerLabelsCommand } from './commands/labels.js';
import { registerInvoiceCommand } from './commands/invoice.js';
import { registerLocationCommands } from './commands/location.js';
import { registerOpenApiCommands } from './commands/openapi.js';
import { registerQuoteCommands } from './commands/quote.js';
import { registerReportCommands } from './commands/report.js';
import { registerServeCommands } from './commands/serve.js';
import { registerShipCommand } from './commands/ship.js';
import { registerShipmentCommands } from './commands/shipment.js';
import { registerTenderCommand } from './commands/tender.js';
import { registerTransitCommands } from './commands/transit.js';
import { CommandContext, type ContextFactory, type GlobalOptions } from './context.js';
import { IO, type IOStreams } from './output.js';
import { registerHelpTopics } from './commands/helpTopics.js';
import { versionText } from './version.js';

function commanderErrorLine(text: string, program: Command, streams: IOStreams, env: NodeJS.ProcessEnv): string {
  const line = `shipper: ${text
    .replace(/^error: /, '')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ')}`;
  const io = new IO(streams, { json: false, quiet: false, color: program.opts().color !== false }, env);
  return io.errColor.red(line);
}

export function buildProgram(streams: IOStreams, env: NodeJS.ProcessEnv, contexts: CommandContext[]): Command {
  const program = new Command('shipper')
    .description('LTL freight from the command line: quotes, shipments, CSV batches, transit tables and Bill of Lading PDFs')
    .version(versionText(), '-V, --version', 'print the version, the git commit and the build date')
    .option('--json', 'machine output on stdout (errors as ProblemDetail JSON)', false)
    .option('-q, --quiet', 'print only what was asked for: the ids of what a command creates or lists, the paths of files written (--json wins)', false)
    .option('--store <dir|url>', 'local store directory, or a PostgreSQL URL postgres://user@host/db (env SHIPPER_STORE; default: your data directory)')
    .option('--tariff <file>', 'tariff JSON for local rating (env SHIPPER_TARIFF; default: the shipped tariff)')
    .option('--remote', 'talk to a Shipper Freight API server instead of the local engine', false)
    .option('--base-url <url>', 'server base URL (implies --remote)')
    .option('--sandbox', 'use the configured sandbox server (implies --remote)', false)
    .option('--local', 'use the local engine even when the config or SHIPPER_MODE says remote')
    .option('--profile <name>', 'config profile for remote mode: base URL and API key (env SHIPPER_PROFILE)')
    // Not Option.env(): commander would read process.env, not the environment main() was given.
    .option('--api-key <key>', 'API key for the server (env SHIPPER_API_KEY; shipper serve: the key clients must send)')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .showSuggestionAfterError(true)
    // Set before the subcommands are added, which copy it: their usage errors must exit 2 through main(), not 1 through process.exit.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => streams.stdout.write(text),
      writeErr: (text) => streams.stderr.write(text),
      // commander's own errors (unknown option, missing argument) as one line, like ours.
      outputError: (text, write) => write(`${commanderErrorLine(text, program, streams, env)}\n`),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ shipper quote --from 60601 --to 10001 --component pallets=2,weight=1200,dims=48x40x48
  $ shipper quote get <quote-id> --json
  $ shipper quote list
  $ shipper transit --from 60601 --to 10001 --to 30301 --days 5
  $ source <(shipper completion bash)

Exit codes: 0 ok, 1 rejected input, 2 usage error, 3 remote or network failure, 4 not found, 5 local store or tariff failure.
Environment variables: shipper help environment.`,
    );

  const context: ContextFactory = (command) => {
    const globals = command.optsWithGlobals() as GlobalOptions;
    const io = new IO(streams, { json: Boolean(globals.json), color: globals.color !== false, quiet: Boolean(globals.quiet) }, env);
    const ctx = new CommandContext(io, globals, env);
    contexts.push(ctx);
    return ctx;
  };

  registerQuoteCommands(program, context);
  registerTransitCommands(program, context);
  registerShipCommand(program, context);
  registerShipmentCommands(program, context);
  registerImportCommand(program, context);
  registerLocationCommands(program, context);
  registerBolCommand(program, context);
  registerLabelsCommand(program, context);
  registerTenderCommand(program, context);
  registerInvoiceCommand(program, context);
  registerAuditCommand(program, context);
  registerReportCommands(program, context);
  registerServeCommands(program, context);
  registerDbCommands(program, context);
  registerStoreCommands(program, context);
  registerOpenApiCommands(program, context);
  registerConfigCommands(program, context);
  registerCompletionCommands(program, context);
  registerHelpTopics(program, context);
  return program;
}
