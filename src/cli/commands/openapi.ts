/** `shipper openapi`: the OpenAPI 3.1 document that `shipper serve` publishes at /api-docs/shipper-v1. */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';

export async function runOpenApi(ctx: CommandContext): Promise<void> {
  const { openApiDocument } = await import('../../api/openapi.js');
  // JSON is the only output, with or without --json.
  ctx.io.json(openApiDocument());
}

export function registerOpenApiCommands(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the Shipper Freight API (generated from the same zod schemas)')
    .examples('shipper openapi > shipper-v1.json', "shipper openapi | jq '.paths | keys'")
    .action(async (_options: unknown, command: Command) => runOpenApi(context(command)));
}
