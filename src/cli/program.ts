/**
 * The commander program: global flags, one register function per command group, and the factory
 * that turns a parsed command into a CommandContext.
 */
import type { Command } from 'commander';
import { EXAMPLES_FIRST, ShipperCommand } from './examples.js';
import { CommandContext, type ContextFactory, type GlobalOptions } from './context.js';
import { IO, type IOStreams } from './output.js';
import { versionText } from './version.js';
import { printable } from '../printable.js';

type Register = (program: ShipperCommand, context: ContextFactory) => void;

/**
 * Each command group's module with the top-level commands it adds, in the order help lists them.
 * A run loads the group of the command it names and no other (a local quote does not parse the
 * code of serve, audit or import); help, completion and a name that is no command load them all.
 */
const COMMAND_GROUPS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register> }> = [
  { names: ['quote'], load: async () => (await import('./commands/quote.js')).registerQuoteCommands },
  { names: ['transit'], load: async () => (await import('./commands/transit.js')).registerTransitCommands },
  { names: ['tariff', 'fuel'], load: async () => (await import('./commands/agreements.js')).registerAgreementCommands },
  { names: ['ship'], load: async () => (await import('./commands/ship.js')).registerShipCommand },
  { names: ['shipment'], load: async () => (await import('./commands/shipment.js')).registerShipmentCommands },
  { names: ['import'], load: async () => (await import('./commands/import.js')).registerImportCommand },
  { names: ['check'], load: async () => (await import('./commands/check.js')).registerCheckCommand },
  { names: ['location'], load: async () => (await import('./commands/location.js')).registerLocationCommands },
  { names: ['bol'], load: async () => (await import('./commands/bol.js')).registerBolCommand },
  { names: ['labels'], load: async () => (await import('./commands/labels.js')).registerLabelsCommand },
  { names: ['printer'], load: async () => (await import('./commands/printer.js')).registerPrinterCommands },
  { names: ['tender'], load: async () => (await import('./commands/tender.js')).registerTenderCommand },
  { names: ['track'], load: async () => (await import('./commands/track.js')).registerTrackCommands },
  { names: ['invoice'], load: async () => (await import('./commands/invoice.js')).registerInvoiceCommand },
  { names: ['audit'], load: async () => (await import('./commands/audit.js')).registerAuditCommand },
  { names: ['report'], load: async () => (await import('./commands/report.js')).registerReportCommands },
  { names: ['serve'], load: async () => (await import('./commands/serve.js')).registerServeCommands },
  { names: ['auth'], load: async () => (await import('./commands/auth.js')).registerAuthCommands },
  { names: ['credentials'], load: async () => (await import('./commands/credentials.js')).registerCredentialsCommands },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcpCommand },
  {
    names: ['db', 'store'],
    load: async () => {
      const { registerDbCommands, registerStoreCommands } = await import('./commands/db.js');
      return (program, context) => {
        registerDbCommands(program, context);
        registerStoreCommands(program, context);
      };
    },
  },
  { names: ['openapi'], load: async () => (await import('./commands/openapi.js')).registerOpenApiCommands },
  { names: ['config'], load: async () => (await import('./commands/config.js')).registerConfigCommands },
  { names: [], load: async () => (await import('./commands/completion.js')).registerCompletionCommands },
  {
    names: ['environment', 'exit-codes', 'csv-columns', 'settings', 'formats', 'warnings'],
    load: async () => (await import('./commands/helpTopics.js')).registerHelpTopics,
  },
  // No name of its own: `__reference` is no group's command, so every group loads and the reference sees the whole tree.
  { names: [], load: async () => (await import('./commands/reference.js')).registerReferenceCommand },
];

/** Global options that take a value: the word after them is not the command. */
const GLOBAL_VALUE_OPTIONS = new Set(['--store', '--tariff', '--tariffs', '--base-url', '--profile', '--api-key']);

/** The command a command line names (its first word that is not a global option), if any. */
export function commandNameOf(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (word === '--') return undefined;
    if (!word.startsWith('-')) return word;
    if (GLOBAL_VALUE_OPTIONS.has(word)) index++;
  }
  return undefined;
}

function commanderErrorLine(text: string, program: Command, streams: IOStreams, env: NodeJS.ProcessEnv): string {
  const line = `shipper: ${text
    .replace(/^error: /, '')
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ')}`;
  const io = new IO(streams, { json: false, quiet: false, color: program.opts().color !== false }, env);
  // A usage error quotes what was typed: its control characters as escapes (printable.ts), before the colour.
  return io.errColor.red(printable(line));
}

/** The program for this command line: the global flags and the command groups `argv` needs (all of them without `argv`). */
export async function buildProgram(streams: IOStreams, env: NodeJS.ProcessEnv, contexts: CommandContext[], argv: readonly string[] = []): Promise<Command> {
  const program = new ShipperCommand('shipper')
    .description('LTL freight from the command line: quotes, shipments, CSV batches, transit tables and Bill of Lading PDFs')
    .version(versionText(), '-V, --version', 'print the version, the git commit and the build date')
    .option('--json', 'machine output on stdout (errors as ProblemDetail JSON)', false)
    .option('-q, --quiet', 'print only what was asked for: the ids of what a command creates or lists, the paths of files written (--json wins)', false)
    .option('--store <dir|url>', 'local store directory, or a PostgreSQL URL postgres://user@host/db (env SHIPPER_STORE; default: your data directory)')
    .option('--tariff <file>', 'tariff JSON for local rating (env SHIPPER_TARIFF; default: the shipped tariff)')
    .option('--tariffs <dir>', 'carrier agreements for local rating and rate shopping, one directory each (env SHIPPER_TARIFFS; "samples": the shipped samples)')
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
    .configureHelp(EXAMPLES_FIRST)
    .examples(
      'shipper quote --from 60601 --to 10001 --component pallets=2,weight=1200,dims=48x40x48',
      'shipper --tariffs samples quote --from 60601 --to 10001 -c pallets=2,weight=1200,dims=48x40x48 --carrier all',
      'shipper import templates/import/shipments-sample.csv --dry-run',
      'shipper bol SO-000001',
      'shipper track SO-000001',
      'shipper transit --from 60601 --to 10001 --to 30301 --days 5',
      'source <(shipper completion bash)',
    )
    .addHelpText(
      'after',
      `
Exit codes: 0 ok, 1 rejected input, 2 usage error, 3 remote or network failure, 4 not found, 5 store or tariff failure,
6 audit found a bill to dispute, 130 stopped with Ctrl-C (shipper help exit-codes).
Help topics: shipper help environment|exit-codes|csv-columns|settings|formats|warnings.`,
    );

  const context: ContextFactory = (command) => {
    const globals = command.optsWithGlobals() as GlobalOptions;
    const io = new IO(streams, { json: Boolean(globals.json), color: globals.color !== false, quiet: Boolean(globals.quiet) }, env);
    const ctx = new CommandContext(io, globals, env);
    contexts.push(ctx);
    return ctx;
  };

  const named = commandNameOf(argv);
  const groups = COMMAND_GROUPS.filter((group) => named !== undefined && group.names.includes(named));
  const registers = await Promise.all((groups.length > 0 ? groups : COMMAND_GROUPS).map((group) => group.load()));
  for (const register of registers) register(program, context);
  return program;
}
