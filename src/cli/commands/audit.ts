/**
 * `shipper audit FILE... [--dispute-dir DIR [--force]] [--tolerance AMOUNT] [--csv] [--dry-run] [--no-save]`: carriers'
 * freight bills checked against the shipments booked (auditRun.ts, loaded when the command runs).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import type { AuditCommandOptions } from './auditRun.js';

/** `--tolerance 1.00`: dollars (at most $1,000), as cents. */
export function parseTolerance(value: string): number {
  const cents = /^\$?\d{1,4}(\.\d{1,2})?$/.test(value.trim()) ? Math.round(Number(value.trim().replace('$', '')) * 100) : NaN;
  if (!Number.isInteger(cents) || cents > 100_000) throw new InvalidArgumentError('must be an amount in dollars from 0 to 1000, e.g. 1.00');
  return cents;
}

export async function runAudit(ctx: CommandContext, files: string[], options: AuditCommandOptions): Promise<void> {
  const { runAudit: run } = await import('./auditRun.js');
  return run(ctx, files, options);
}

export function registerAuditCommand(program: ShipperCommand, context: ContextFactory): void {
  program
    .command('audit')
    .description("audit carriers' freight bills (CSV or X12 210) against the shipments booked: reweighs, reclasses, accessorials not ordered, fuel, overcharges, unknown PROs")
    .argument('<files...>', 'bill files: the bill CSV layout or X12 210 interchanges')
    .option('--dispute-dir <dir>', 'write one dispute pack (PDF with the BOL attached) per disputed bill into this directory')
    .option('--tolerance <amount>', 'dispute only differences above this many dollars each', parseTolerance, 0)
    .option('--csv', 'CSV on stdout: one line per finding (or per bill found as quoted)')
    .option('--force', 'replace dispute packs that exist in --dispute-dir (default: refuse, nothing saved or written)')
    .option('--dry-run', 'a what-if run (e.g. another --tolerance): audit and show, save nothing, write nothing')
    .option('--no-save', 'do not keep the audited bills in the store (the spend report reads them)')
    .option('--print', 'print each dispute pack written (with --dispute-dir) on the printer of dispute packs (print.dispute)')
    .option('--printer <name>', 'with --print: a printer of shipper printer list, a spooler queue')
    .option('--copies <n>', 'with --print: copies of each pack, 1-99', (value: string) => {
      if (!/^\d{1,2}$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number from 1 to 99');
      return Number(value);
    })
    .examples(
      'shipper audit bills-2026-12.csv',
      'shipper audit RLCA-210.edi ODFL-210.edi --dispute-dir disputes/',
      `shipper audit bills.csv --tolerance 1.00 --json | jq '.summary'`,
      'shipper audit bills.csv --csv > audit.csv',
      'shipper audit ODFL-210.edi --dispute-dir disputes/ --print --printer office',
    )
    .addHelpText(
      'after',
      `
Exit codes: 0 nothing disputed, 6 something disputed, 1 a bill file that cannot be read (or an
absurd amount in it; nothing audited), 2 usage, 3 remote failure, 5 store or tariff failure.
Saving replaces the saved audits of the same bills (said on stderr). With -q only the dispute
packs' paths are printed.`,
    )
    .action(async (files: string[], options: AuditCommandOptions, command: Command) => runAudit(context(command), files, options));
}
