/**
 * The work of `shipper check` (registered in check.ts): the freight check's warnings on a CSV file
 * before import (priced as `import --dry-run` prices it, nothing booked), a saved quote or a
 * booked shipment, one line each with its level, code, CSV line and price at stake; exit 1 when
 * --fail-on names a level that a warning reaches.
 */
import { stat } from 'node:fs/promises';
import type { CsvEncoding } from '../../import/csvFile.js';
import type { ImportSummary } from '../../import/importer.js';
import { isFreightCheckCode, levelOf, type Warning, type WarningLevel } from '../../domain/warnings.js';
import { localDateInZone } from '../../domain/dates.js';
import type { CommandContext } from '../context.js';
import { CliError } from '../errors.js';
import { formatCents, formatNumber, plural, type IO } from '../output.js';
import { cachedLocationResolver } from '../savedLocations.js';
import { shipmentIdOf } from '../shipmentRef.js';

export interface CheckCommandOptions {
  failOn?: 'warn' | 'risk';
  encoding?: CsvEncoding;
}

/** A finding: the warning, its level and, for a CSV, the line of the row it concerns. */
export interface CheckFinding extends Warning {
  level: WarningLevel;
  csvLine?: number;
}

export interface CheckReport {
  target: string;
  kind: 'csv' | 'quote' | 'shipment';
  /** The quote's or shipment's id; for a CSV, the shipments checked. */
  id?: string;
  shipments?: number;
  failOn: 'warn' | 'risk' | null;
  warnings: CheckFinding[];
  counts: { warn: number; risk: number; byCode: Record<string, number> };
  /**
   * What the warnings put at stake above the quoted prices: per line the largest difference of its
   * warnings (two rules on one line rebill it once), per shipment the largest of its shipment rules.
   */
  differenceInCents: number;
  /** CSV rows that would not import. */
  invalidShipments?: number;
  failed: boolean;
}

const QUOTE_ID = /^qt_/i;

export async function runCheck(ctx: CommandContext, target: string, options: CheckCommandOptions): Promise<void> {
  const isFile = await stat(target)
    .then((stats) => stats.isFile())
    .catch(() => false);
  const report = isFile || /\.(csv|txt|tsv)$/i.test(target) ? await checkCsv(ctx, target, options) : await checkRecord(ctx, target);
  finish(report, options);
  if (ctx.io.options.json) ctx.io.json(report);
  else printReport(ctx.io, report);
  if (report.invalidShipments) {
    throw new CliError(`${plural(report.invalidShipments, 'shipment')} of ${target} would not import (shipper import ${target} --dry-run names the rows)`, 'REJECTED', {
      jsonWritten: ctx.io.options.json,
    });
  }
  if (report.failed) {
    const reached = options.failOn === 'risk' ? report.counts.risk : report.counts.risk + report.counts.warn;
    throw new CliError(`${plural(reached, 'warning')} at or above ${options.failOn}: the check fails (--fail-on ${options.failOn})`, 'REJECTED', {
      jsonWritten: ctx.io.options.json,
    });
  }
}

async function checkRecord(ctx: CommandContext, target: string): Promise<CheckReport> {
  const api = await ctx.api();
  const { data, warnings } = QUOTE_ID.test(target.trim()) ? await api.getQuote(target.trim()) : await api.getShipment(await shipmentIdOf(api, target));
  return report(target, QUOTE_ID.test(target.trim()) ? 'quote' : 'shipment', findings(warnings), { id: data.id });
}

async function checkCsv(ctx: CommandContext, file: string, options: CheckCommandOptions): Promise<CheckReport> {
  const { importShipments, ImportRejectedError } = await import('../../import/importer.js');
  const api = await ctx.api();
  const locations = cachedLocationResolver(await ctx.locations());
  const [zips, clock, settings] = await Promise.all([ctx.zips(), ctx.clock(), ctx.settings()]);
  const todayByOrigin = new Map<string, string>();
  const todayAt = (zip: string | undefined) => {
    const key = zip ?? '';
    if (!todayByOrigin.has(key)) todayByOrigin.set(key, localDateInZone(clock(), (zip ? zips.lookup(zip)?.timeZone : undefined) ?? 'America/Chicago'));
    return todayByOrigin.get(key)!;
  };
  const found: CheckFinding[] = [];
  let summary: ImportSummary;
  try {
    summary = await importShipments(
      api,
      locations,
      // The freight check: whether an order would be confirmed is import's to say (import --dry-run), not the check's.
      { file, dryRun: true, confirm: false, skipInvalid: true, encoding: options.encoding, todayAt, carrierNameOf: (scac) => settings.carriers[scac]?.name },
      {
        warning: (item, csvLine) => {
          if (isFreightCheckCode(item.code)) found.push({ ...item, level: levelOf(item.code), ...(csvLine !== undefined ? { csvLine } : {}) });
          else ctx.io.warn({ code: item.code, message: csvLine !== undefined ? `line ${csvLine}: ${item.message}` : item.message });
        },
      },
    );
  } catch (error) {
    if (error instanceof ImportRejectedError) return report(file, 'csv', found, { shipments: error.summary.shipments, invalidShipments: error.summary.rejectedShipments });
    throw error;
  }
  return report(file, 'csv', found, { shipments: summary.shipments, invalidShipments: summary.rejectedShipments });
}

function findings(warnings: readonly Warning[]): CheckFinding[] {
  return warnings.filter((item) => isFreightCheckCode(item.code)).map((item) => ({ ...item, level: levelOf(item.code) }));
}

function report(target: string, kind: CheckReport['kind'], warnings: CheckFinding[], extra: Partial<CheckReport>): CheckReport {
  const byCode: Record<string, number> = {};
  for (const item of warnings) byCode[item.code] = (byCode[item.code] ?? 0) + 1;
  return {
    target,
    kind,
    ...extra,
    failOn: null,
    warnings,
    counts: { warn: warnings.filter((item) => item.level === 'warn').length, risk: warnings.filter((item) => item.level === 'risk').length, byCode },
    differenceInCents: atStake(warnings),
    failed: false,
  };
}

function atStake(warnings: readonly CheckFinding[]): number {
  const largest = new Map<string, number>();
  for (const item of warnings) {
    const key = `${item.csvLine ?? ''}:${item.line === undefined ? 'shipment' : `line ${item.line}`}`;
    largest.set(key, Math.max(largest.get(key) ?? 0, item.priceAtStake?.differenceInCents ?? 0));
  }
  return [...largest.values()].reduce((sum, value) => sum + value, 0);
}

function finish(report: CheckReport, options: CheckCommandOptions): void {
  report.failOn = options.failOn ?? null;
  if (options.failOn === 'risk') report.failed = report.counts.risk > 0;
  else if (options.failOn === 'warn') report.failed = report.counts.risk + report.counts.warn > 0;
}

function printReport(io: IO, report: CheckReport): void {
  const c = io.color;
  const what = report.kind === 'csv' ? `${report.target} (${plural(report.shipments ?? 0, 'shipment')})` : `${report.kind} ${report.id ?? report.target}`;
  if (report.warnings.length === 0) {
    io.info(`${c.bold('Checked')} ${what}: the freight check found no risk`);
    return;
  }
  const codes = Object.entries(report.counts.byCode)
    .map(([code, count]) => `${formatNumber(count)} ${code}`)
    .join(', ');
  io.info(
    `${c.bold('Checked')} ${what}: ${plural(report.warnings.length, 'warning')} (${report.counts.risk} risk, ${report.counts.warn} warn: ${codes}), up to ${formatCents(report.differenceInCents)} at stake`,
  );
  for (const item of report.warnings) {
    const where = item.csvLine !== undefined ? `line ${item.csvLine}  ` : '';
    const level = item.level === 'risk' ? c.red('risk') : c.yellow('warn');
    io.out(`  ${where}${level}  ${item.code}  ${item.message}`);
  }
}
