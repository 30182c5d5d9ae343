/** `shipper tender ID --format ebol|x12-204|x12-211 [-o FILE]`: the file for the carrier's systems. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CliError, ProblemError } from '../../api/problems.js';
import { offering } from '../optionParsers.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { outputPath, writeOutput } from '../outputFile.js';
import { SHIPMENT_ARGUMENT, shipmentIdOf } from '../shipmentRef.js';

const FORMATS = ['ebol', 'x12-204', 'x12-211'] as const;

export interface TenderOptions {
  format: (typeof FORMATS)[number];
  output?: string;
  force?: boolean;
}

export async function runTender(ctx: CommandContext, reference: string, options: TenderOptions): Promise<void> {
  const api = await ctx.api();
  const id = await shipmentIdOf(api, reference);
  const { data: document, warnings } = await api.createTender(id, { format: options.format }).catch(async (error: unknown) => {
    throw ctx.mode === 'remote' ? await serverSettingsError(ctx, error) : error;
  });
  ctx.io.warnAll(warnings);
  if (ctx.io.options.json) return ctx.io.json(document);
  const file = await outputPath(options.output, document.fileName, Boolean(options.force));
  await writeOutput(
    ctx.io,
    file,
    new TextEncoder().encode(document.content),
    `the ${document.format}${document.controlNumber ? ` (control number ${document.controlNumber})` : ''}`,
    Boolean(options.force),
  );
}

/**
 * In remote mode the X12 and eBOL settings are the server's: `shipper config set` here changes
 * nothing, so an incomplete setting is said as the server's, naming it, with its fields.
 */
async function serverSettingsError(ctx: CommandContext, error: unknown): Promise<unknown> {
  if (!(error instanceof ProblemError)) return error;
  const fields = (error.problem.violations ?? []).filter((violation) => /^(x12|ebol)\./.test(violation.field));
  if (fields.length === 0) return error;
  const name = fields[0]!.field.startsWith('x12.') ? 'X12' : 'eBOL';
  const { baseUrl } = await ctx.settings();
  const server = baseUrl ? `the server ${baseUrl}` : 'the server';
  const missing = fields.map((violation) => `${violation.field}: ${violation.reason}`).join('; ');
  return new CliError(
    `the ${name} settings of ${server} are incomplete (${missing}); its operator sets them where shipper serve runs: shipper config set here changes nothing`,
    error,
  );
}

export function registerTenderCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('tender')
    .argument('<shipment>', SHIPMENT_ARGUMENT)
    .description("write the file for the carrier's systems: NMFTA eBOL 2.1 request, X12 204 load tender or X12 211 bill of lading")
    .addOption(
      offering(
        new Option('--format <format>', `one of ${FORMATS.join(', ')}`)
          .argParser((value: string) => {
            const format = value.trim().toLowerCase();
            if (!(FORMATS as readonly string[]).includes(format)) throw new InvalidArgumentError(`must be one of ${FORMATS.join(', ')}`);
            return format;
          })
          .makeOptionMandatory(),
        FORMATS,
      ),
    )
    .option('-o, --output <path>', 'a file, a directory, or - for stdout (default: <BOL number>.<ebol.json|204.edi|211.edi> here)')
    .option('--force', 'overwrite the file if it exists')
    .examples('shipper tender sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --format ebol', 'shipper tender sh_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --format x12-204 -o outbox/')
    .addHelpText(
      'after',
      `
X12 files need your sender id: shipper config set x12 '{"senderQualifier": "ZZ", "senderId": "ACMESHIPPING"}'
(the carrier's ids default to qualifier 02 and its SCAC: shipper config set carriers.ODFL '{"x12": {"receiverId": "ODFLEDI"}}').
Interchange control numbers never repeat.`,
    )
    .action(async (id: string, options: TenderOptions, command: Command) => runTender(context(command), id, options));
}
