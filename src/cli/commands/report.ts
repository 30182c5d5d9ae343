/**
 * `shipper report spend [--by lane|carrier|month] [--since D] [--until D] [--csv]` and
 * `shipper report carriers [--since D] [--until D] [--csv]` (reportRun.ts).
 */
import { Option, type Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import type { CarriersOptions, SpendOptions } from './reportRun.js';

/** As in reportRun.ts (not imported: start-up stays light). */
const GROUPINGS = ['lane', 'carrier', 'month'] as const;

export async function runSpend(ctx: CommandContext, options: SpendOptions): Promise<void> {
  const { runSpend: run } = await import('./reportRun.js');
  return run(ctx, options);
}

export async function runCarriers(ctx: CommandContext, options: CarriersOptions): Promise<void> {
  const { runCarriers: run } = await import('./reportRun.js');
  return run(ctx, options);
}

export function registerReportCommands(program: ShipperCommand, context: ContextFactory): void {
  const report = program
    .command('report')
    .description('reports over the store: freight spend, the carrier scorecard')
    .examples('shipper report spend --by carrier --since 2026-11-01', 'shipper report spend --by month --csv > spend.csv');
  report
    .command('spend')
    .description('freight spend by lane, carrier or month: shipments, weight, quoted and billed totals, disputed amount')
    // Choices: commander refuses anything else (exit 2) and completion offers them.
    .addOption(new Option('--by <grouping>', 'group the spend by').choices(GROUPINGS).default('lane'))
    .option('--since <date>', 'shipments booked on or after this day (UTC): YYYY-MM-DD, an instant, or words (yesterday, monday, -7, 11/20, Nov 20)')
    .option('--until <date>', 'shipments booked on or before this day (the whole day, UTC), written as --since')
    .option('--csv', 'CSV on stdout: one line per group, then the total')
    .examples('shipper report spend', 'shipper report spend --by carrier --since 2026-11-01 --until 2026-11-30', 'shipper report spend --by month --csv > spend.csv')
    .addHelpText(
      'after',
      `
Billed and disputed amounts come from the bills audited with \`shipper audit\` (kept in the local
store). Bills that matched no shipment are the group "(no shipment)".`,
    )
    .action(async (options: SpendOptions, command: Command) => runSpend(context(command), options));
  report
    .command('carriers')
    .description('the carrier scorecard: delivered, on time against the quoted ETA, days late, transit quoted vs actual, exceptions by reason, disputed bills')
    .option('--since <date>', 'shipments booked on or after this day (YYYY-MM-DD, UTC) or instant')
    .option('--until <date>', 'shipments booked on or before this day (YYYY-MM-DD, the whole day, UTC) or instant')
    .option('--csv', 'CSV on stdout: one line per carrier, then the total')
    .examples('shipper report carriers --since 2026-11-01 --until 2026-11-30', 'shipper report carriers --csv > scorecard.csv')
    .addHelpText(
      'after',
      `
Deliveries and exceptions come from the carriers' status events (\`shipper track import\`);
disputed bills from the bills audited with \`shipper audit\` (kept in the local store).
Days late are business days after the promised day; the average is over the late deliveries.`,
    )
    .action(async (options: CarriersOptions, command: Command) => runCarriers(context(command), options));
}
