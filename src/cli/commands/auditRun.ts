/**
 * What `shipper audit` does (loaded when it runs; see audit.ts): carriers'
 * freight bills (CSV or X12 210) matched to their shipments by BOL or PRO number and checked
 * against what was booked and quoted. Exit 1 when anything is disputed, for CI jobs.
 *
 * Shipments come from the API (either mode); the tariff that prices the differences is this
 * machine's (--tariff, else the shipped one); audited bills are kept in the local store (the
 * spend report reads them), also in remote mode.
 */
import { join, resolve } from 'node:path';
import type { AuditResult } from '../../audit/audit.js';
import type { BillIssue, CarrierBill } from '../../audit/bill.js';
import type { ShipperApi } from '../../api/types.js';
import type { Shipment } from '../../domain/schemas.js';
import type { Tariff } from '../../domain/tariff.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, ProblemError, UsageError } from '../errors.js';
import { writeFileDurably } from '../../fs/durableWrite.js';
import { csvText } from '../fileOutput.js';
import { formatCents, plural } from '../output.js';
import { AUDIT_CSV_HEADER, auditCsvRows, printAudit, summarise, summaryLine } from '../views/audit.js';

export interface AuditCommandOptions {
  disputeDir?: string;
  /** Cents. */
  tolerance: number;
  csv?: boolean;
  save: boolean;
}

async function readBills(ctx: CommandContext, files: readonly string[]): Promise<CarrierBill[]> {
  const [{ readBillFile, BillFileError }, { issueLine }] = await Promise.all([import('../../audit/readBills.js'), import('../../audit/bill.js')]);
  const bills: CarrierBill[] = [];
  const issues: BillIssue[] = [];
  for (const file of files) {
    try {
      const read = await readBillFile(file);
      if (read.ok) bills.push(...read.bills);
      else issues.push(...read.issues);
    } catch (error) {
      if (!(error instanceof BillFileError)) throw error;
      if (error.kind === 'usage') throw new UsageError(error.message);
      throw new CliError(`${error.message}; nothing was audited`, ExitCode.rejected);
    }
  }
  if (issues.length > 0) {
    // Every problem at once, each where it is; nothing is audited or saved.
    if (issues.length > 1) issues.slice(0, -1).forEach((issue) => ctx.io.error(issueLine(issue)));
    const message =
      issues.length === 1 ? `${issueLine(issues[0]!)}; nothing was audited` : `${issueLine(issues.at(-1)!)} (${issues.length} problems in the bills; nothing was audited)`;
    throw new CliError(message, ExitCode.rejected, {
      problem: {
        type: 'urn:shipper:problem:unreadable-bills',
        title: 'Unreadable Bills',
        status: 400,
        detail: `${plural(issues.length, 'problem')} in the bills; nothing was audited`,
        violations: issues.map((issue) => ({ field: `${issue.file} line ${issue.line}${issue.where ? `, ${issue.where}` : ''}`, message: issue.message })),
      },
    });
  }
  return bills;
}

/** This machine's tariff (--tariff, else the shipped one): it prices what a reweigh or reclass changes. */
async function loadTariff(file: string | undefined): Promise<Tariff> {
  const { TariffProvider } = await import('../../api/local/tariffProvider.js');
  try {
    return await new TariffProvider(file).load();
  } catch (error) {
    if (error instanceof ProblemError) throw new CliError(error.internalDetail ?? error.message, ExitCode.local);
    throw error;
  }
}

/** The shipments carrying the bills' PRO and BOL numbers, 100 numbers per request. */
async function shipmentsFor(api: ShipperApi, keys: { pros: string[]; bols: string[] }): Promise<Shipment[]> {
  const { MAX_KEY_FILTER_VALUES } = await import('../../api/operations.js');
  const found = new Map<string, Shipment>();
  for (const [filter, values] of [
    ['proNumber', keys.pros],
    ['bolNumber', keys.bols],
  ] as const) {
    for (let start = 0; start < values.length; start += MAX_KEY_FILTER_VALUES) {
      let cursor: string | undefined;
      do {
        const { data: page } = await api.listShipments({ [filter]: values.slice(start, start + MAX_KEY_FILTER_VALUES).join(','), limit: 500, cursor });
        for (const shipment of page.items) found.set(shipment.id, shipment);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
  }
  return [...found.values()];
}

async function writeDisputePacks(
  ctx: CommandContext,
  api: ShipperApi,
  dir: string,
  results: readonly AuditResult[],
  shipments: ReadonlyMap<string, Shipment>,
): Promise<Array<{ bill: string; file: string; bytes: number }>> {
  const disputed = results.filter((result) => result.status === 'DISPUTED');
  if (disputed.length === 0) return [];
  const [{ makeDirectory }, { renderDisputePack }, { billName }] = await Promise.all([
    import('../../fs/makeDirectory.js'),
    import('../../audit/disputePdf.js'),
    import('../../audit/bill.js'),
  ]);
  const target = resolve(dir);
  await makeDirectory(target).catch((error: Error) => {
    throw new CliError(`cannot create ${target}: ${error.message}`, ExitCode.local);
  });
  const written: Array<{ bill: string; file: string; bytes: number }> = [];
  const names = new Set<string>();
  for (const result of disputed) {
    const shipment = result.shipment ? (shipments.get(result.shipment.id) ?? null) : null;
    const bol = shipment ? (await api.renderBol(shipment.id)).data : null;
    const pdf = await renderDisputePack(result, shipment, bol);
    const base = `dispute-${billName(result.bill).replace(/[^A-Za-z0-9_-]+/g, '_')}`;
    let name = `${base}.pdf`;
    for (let count = 2; names.has(name); count++) name = `${base}-${count}.pdf`;
    names.add(name);
    const file = join(target, name);
    // A pack of the same bill from an earlier audit is replaced: auditing a bill again replaces its audit.
    await writeFileDurably(file, pdf).catch((error: Error) => {
      throw new CliError(error.message, ExitCode.local);
    });
    written.push({ bill: billName(result.bill), file, bytes: pdf.byteLength });
  }
  ctx.io.note(`Wrote ${plural(written.length, 'dispute pack')} to ${target}`);
  return written;
}

export async function runAudit(ctx: CommandContext, files: string[], options: AuditCommandOptions): Promise<void> {
  if (options.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  if (files.length === 0) throw new UsageError('no bill file given', 'example: shipper audit bills.csv carrier-210.edi');
  const bills = await readBills(ctx, files);
  const [settings, api, { auditBill }, { billKeys, ShipmentsByKey }, { earlierAuditOf, flagDuplicates }, { AuditedBills }, { openStore }, { StoreError }] = await Promise.all([
    ctx.settings(),
    ctx.api(),
    import('../../audit/audit.js'),
    import('../../audit/matching.js'),
    import('../../audit/duplicates.js'),
    import('../../audit/store.js'),
    import('../../store/open.js'),
    import('../../store/storeError.js'),
  ]);
  const tariff = await loadTariff(settings.tariff);
  const shipments = await shipmentsFor(api, billKeys(bills));
  const byKey = new ShipmentsByKey(shipments);
  const auditedAt = (await ctx.clock())().toISOString();
  const book = new AuditedBills((await openStore(settings.store)).auditedBills);
  const storeFailure = (error: unknown): never => {
    if (error instanceof StoreError) throw new CliError(error.message, ExitCode.local);
    throw error;
  };
  const { audits: earlier, warnings } = await book.list().catch(storeFailure);
  warnings.forEach((warning) => ctx.io.warn(warning));
  const results = flagDuplicates(
    bills.map((bill) => auditBill(bill, byKey.match(bill), { tariff, toleranceInCents: options.tolerance, auditedAt })),
    earlier.flatMap((audit) => earlierAuditOf(audit) ?? []),
  );
  if (options.save) await book.save(results).catch(storeFailure);
  const packs = options.disputeDir ? await writeDisputePacks(ctx, api, options.disputeDir, results, new Map(shipments.map((shipment) => [shipment.id, shipment]))) : [];

  const summary = summarise(results);
  if (ctx.io.options.json) ctx.io.json({ files, bills: results, summary, saved: options.save, disputePacks: packs });
  else if (options.csv) ctx.io.streams.stdout.write(csvText(AUDIT_CSV_HEADER, auditCsvRows(results)));
  // --quiet: only the files written (the dispute packs); the exit code says whether anything is disputed.
  else if (ctx.io.options.quiet) packs.forEach((pack) => ctx.io.out(pack.file));
  else {
    printAudit(ctx.io, results);
    ctx.io.info(summaryLine(summary));
  }
  if (summary.disputed > 0) {
    throw new CliError(`${summary.disputed} of ${plural(summary.bills, 'bill')} disputed: ${formatCents(summary.disputedInCents)} at stake`, ExitCode.rejected, {
      jsonWritten: ctx.io.options.json,
    });
  }
}
