/** `shipper mcp [--read-only]`: the operations as tools for an AI assistant (Model Context Protocol over stdio). */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';

export interface McpCommandOptions {
  readOnly?: boolean;
  root?: string;
}

export async function runMcp(ctx: CommandContext, options: McpCommandOptions): Promise<void> {
  // The SDK loads only here: no other command pays for it.
  const { serveMcp } = await import('../../mcp/server.js');
  const { streams } = ctx.io;
  const root = resolve(options.root ?? process.cwd());
  const found = await stat(root).catch(() => undefined);
  if (!found?.isDirectory()) throw new UsageError(`--root ${options.root ?? root} is no directory`);
  await serveMcp(ctx, { readOnly: Boolean(options.readOnly), root, stdin: streams.stdin, stdout: streams.stdout, stderr: streams.stderr });
}

export function registerMcpCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('mcp')
    .description("serve the operations as tools for an AI assistant (Model Context Protocol over stdio), on this directory's engine and mode")
    .option('--read-only', 'offer only the tools that read: no quote is stored, nothing is booked, cancelled or written')
    .option('--root <dir>', 'the directory documents are written to and CSV files read from, nothing outside it (default: the current directory)')
    .examples(
      'shipper mcp',
      'shipper mcp --read-only',
      'shipper mcp --root ~/freight',
      'shipper --store postgres://shipper@db/shipper mcp',
      'shipper --remote --profile production mcp',
    )
    .addHelpText(
      'after',
      `
An MCP client starts it (configuration: docs/mcp.md) and talks JSON-RPC on its standard input and
output; warnings and logs go to standard error. Tools that book, cancel or change a shipment, and
an import that is no dry run, do nothing without confirm: true. Files (documents, CSV imports) are
read and written under the directory it was started in (or --root).`,
    )
    .action(async (options: McpCommandOptions, command: Command) => runMcp(context(command), options));
}
