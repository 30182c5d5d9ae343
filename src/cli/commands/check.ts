/** `shipper check FILE|ID [--fail-on warn|risk]`: the freight check before booking (docs/warnings.md). */
import { Option, type Command } from 'commander';
import type { ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { parseEncoding } from './import.js';
import type { CheckCommandOptions } from './checkRun.js';

export function registerCheckCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('check <target>')
    .description("the freight check before booking: what a carrier's dock inspection would rebill (reclass, cube, length), with the price at stake")
    .addOption(new Option('--fail-on <level>', 'exit 1 when a warning at or above this level is found: warn (any) or risk').choices(['warn', 'risk']))
    .addOption(new Option('--encoding <name>', 'a CSV file in this encoding: utf8, utf16le, utf16be or windows-1252 (default: detected)').argParser(parseEncoding))
    .examples('shipper check orders.csv --fail-on risk', 'shipper check qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3B --json', 'shipper check SO-000123')
    .addHelpText(
      'after',
      `
TARGET is a CSV file before import (checked as 'shipper import --dry-run' would price it, booking nothing),
a saved quote (qt_...) or a booked shipment (sh_..., SO-000123 or its 17-digit BOL number).

Levels: risk is a rule the freight meets as declared (NON_STACKABLE_HEIGHT, WIDE_FREIGHT, CUBIC_CAPACITY,
LINEAR_FEET, OVERLENGTH); warn is a class that a measure or a missing description may change
(DENSITY_MARGIN, NO_DESCRIPTION). Every code, its rule and its source: docs/warnings.md.

Exit status: 0, or 1 when --fail-on names a level and a warning at or above it is found (or a CSV row is invalid).`,
    )
    .action(async (target: string, options: CheckCommandOptions, command: Command) => {
      const { runCheck } = await import('./checkRun.js');
      return runCheck(context(command), target, options);
    });
}
