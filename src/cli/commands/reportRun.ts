/**
 * What `shipper report spend` does (loaded when it runs; see report.ts): freight spend
 * over the booked shipments (from the API, either mode) and the audited bills (the local store).
 */
import type { Shipment } from '../../domain/schemas.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { csvText } from '../fileOutput.js';
import { plural } from '../output.js';
import { printSpend, SPEND_CSV_HEADER, spendCsvRows } from '../views/spend.js';

export const GROUPINGS = ['lane', 'carrier', 'month'] as const;
type Grouping = (typeof GROUPINGS)[number];

export interface SpendOptions {
  by: Grouping;
  since?: string;
  until?: string;
  csv?: boolean;
}

export async function runSpend(ctx: CommandContext, options: SpendOptions): Promise<void> {
  if (options.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  const [api, settings, { spendReport }, { AuditedBills }, { openStore }, { StoreError }, { createdRange }] = await Promise.all([
    ctx.api(),
    ctx.settings(),
    import('../../audit/spend.js'),
    import('../../audit/store.js'),
    import('../../store/open.js'),
    import('../../store/storeError.js'),
    import('../../api/operations.js'),
  ]);
  // The period's booked shipments (the list checks --since and --until as `shipment list` does).
  const shipments: Shipment[] = [];
  let cursor: string | undefined;
  do {
    const { data: page, warnings } = await api.listShipments({ status: 'BOOKED', since: options.since, until: options.until, limit: 500, cursor });
    warnings.forEach((warning) => ctx.io.warn(warning));
    shipments.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const { audits, warnings } = await new AuditedBills((await openStore(settings.store)).auditedBills).list().catch((error: unknown) => {
    if (error instanceof StoreError) throw new CliError(error.message, ExitCode.local);
    throw error;
  });
  warnings.forEach((warning) => ctx.io.warn(warning));
  const report = spendReport(shipments, audits, options.by, createdRange(options.since, options.until));

  if (ctx.io.options.json) return ctx.io.json({ since: options.since ?? null, until: options.until ?? null, ...report });
  if (options.csv) return void ctx.io.streams.stdout.write(csvText(SPEND_CSV_HEADER, spendCsvRows(report)));
  if (report.rows.length === 0) return ctx.io.info('No shipments or audited bills in this period.');
  printSpend(ctx.io, report);
  const period = options.since || options.until ? ` booked ${options.since ? `from ${options.since} ` : ''}${options.until ? `until ${options.until}` : ''}`.trimEnd() : '';
  ctx.io.info(`${plural(report.total.shipments, 'shipment')}${period}; ${plural(report.total.bills, 'audited bill')}`);
}
