/**
 * What `shipper report spend` and `shipper report carriers` do (loaded when they run; see
 * report.ts): freight spend and the carrier scorecard over the booked shipments and their tracking
 * (from the API, either mode) and the audited bills (the local store).
 */
import type { ShipperApi } from '../../api/types.js';
import type { AuditResult } from '../../audit/audit.js';
import type { Shipment } from '../../domain/schemas.js';
import type { ShipmentTracking } from '../../domain/tracking.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { csvText } from '../fileOutput.js';
import { withListDates } from '../listDates.js';
import { plural } from '../output.js';
import { printScorecard, SCORECARD_CSV_HEADER, scorecardCsvRows } from '../views/scorecard.js';
import { printSpend, SPEND_CSV_HEADER, spendCsvRows } from '../views/spend.js';

export const GROUPINGS = ['lane', 'carrier', 'month'] as const;
type Grouping = (typeof GROUPINGS)[number];

export interface SpendOptions {
  by: Grouping;
  since?: string;
  until?: string;
  csv?: boolean;
}

/** The period's booked shipments (the list checks --since and --until as `shipment list` does). */
async function bookedShipments(ctx: CommandContext, api: ShipperApi, options: { since?: string | undefined; until?: string | undefined }): Promise<Shipment[]> {
  const shipments: Shipment[] = [];
  let cursor: string | undefined;
  do {
    const { data: page, warnings } = await api.listShipments({ orderStatus: 'ACTIVE', since: options.since, until: options.until, limit: 500, cursor });
    ctx.io.warnAll(warnings);
    shipments.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return shipments;
}

/** The audited bills of the store in use (also in remote mode: they are the user's own papers). */
async function auditedBills(ctx: CommandContext): Promise<AuditResult[]> {
  const [{ AuditedBills }, store] = await Promise.all([import('../../audit/store.js'), ctx.store()]);
  const { audits, warnings } = await new AuditedBills(store.auditedBills).list();
  ctx.io.warnAll(warnings);
  return audits;
}

export async function runSpend(ctx: CommandContext, flags: SpendOptions): Promise<void> {
  if (flags.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  const options = await withListDates(ctx, flags);
  const [api, { spendReport }, { createdRange }] = await Promise.all([ctx.api(), import('../../audit/spend.js'), import('../../api/operations.js')]);
  const shipments = await bookedShipments(ctx, api, options);
  const audits = await auditedBills(ctx);
  const report = spendReport(shipments, audits, options.by, createdRange(options.since, options.until));

  if (ctx.io.options.json) return ctx.io.json({ since: options.since ?? null, until: options.until ?? null, ...report });
  if (options.csv) return void ctx.io.streams.stdout.write(csvText(SPEND_CSV_HEADER, spendCsvRows(report)));
  if (report.rows.length === 0) return ctx.io.info('No shipments or audited bills in this period.');
  printSpend(ctx.io, report);
  const period = options.since || options.until ? ` booked ${options.since ? `from ${options.since} ` : ''}${options.until ? `until ${options.until}` : ''}`.trimEnd() : '';
  ctx.io.info(`${plural(report.total.shipments, 'shipment')}${period}; ${plural(report.total.bills, 'audited bill')}`);
}

export interface CarriersOptions {
  since?: string;
  until?: string;
  csv?: boolean;
}

export async function runCarriers(ctx: CommandContext, flags: CarriersOptions): Promise<void> {
  if (flags.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  const options = await withListDates(ctx, flags);
  const [api, { carrierScorecard }, { createdRange }] = await Promise.all([ctx.api(), import('../../tracking/scorecard.js'), import('../../api/operations.js')]);
  const shipments = await bookedShipments(ctx, api, options);
  // The events of the shipments a carrier has told something of (the others have none).
  const trackings = new Map<string, ShipmentTracking>();
  for (const shipment of shipments) {
    if (shipment.trackingStatus === 'NONE') continue;
    const { data } = await api.listShipmentEvents(shipment.id);
    trackings.set(shipment.id, data);
  }
  const audits = await auditedBills(ctx);
  const scorecard = carrierScorecard(shipments, trackings, audits, createdRange(options.since, options.until));

  if (ctx.io.options.json) return ctx.io.json({ since: options.since ?? null, until: options.until ?? null, ...scorecard });
  if (options.csv) return void ctx.io.streams.stdout.write(csvText(SCORECARD_CSV_HEADER, scorecardCsvRows(scorecard)));
  if (scorecard.rows.length === 0) return ctx.io.info('No shipments or disputed bills in this period.');
  printScorecard(ctx.io, scorecard);
  ctx.io.info(
    `${plural(scorecard.total.shipments, 'shipment')} booked${options.since ? ` from ${options.since}` : ''}${options.until ? ` until ${options.until}` : ''}; ${plural(scorecard.total.delivered, 'delivery', 'deliveries')}`,
  );
}
