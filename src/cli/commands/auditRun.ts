/**
 * What `shipper audit` does (loaded when it runs; see audit.ts): carriers'
 * freight bills (CSV or X12 210) matched to their shipments by BOL or PRO number and checked
 * against what was booked and quoted. Exit 1 when anything is disputed, for CI jobs.
 *
 * Shipments come from the API (either mode); the tariff that prices the differences is this
 * machine's (--tariff, else the shipped one); audited bills are kept in the local store (the
 * spend report reads them), also in remote mode.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { AuditResult } from '../../audit/audit.js';
import type { BillIssue, CarrierBill } from '../../audit/bill.js';
import type { ShipperApi } from '../../api/types.js';
import type { Shipment } from '../../domain/schemas.js';
import type { Tariff } from '../../domain/tariff.js';
import type { CommandContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { writeFileDurably } from '../../fs/durableWrite.js';
import { csvText } from '../fileOutput.js';
import { formatCents, plural } from '../output.js';
import { AUDIT_CSV_HEADER, auditCsvRows, printAudit, summarise, summaryLine } from '../views/audit.js';

export interface AuditCommandOptions {
  disputeDir?: string;
  /** Send each dispute pack written to the printer of dispute packs (print.dispute) or --printer. */
  print?: boolean;
  printer?: string;
  copies?: number;
  /** Cents. */
  tolerance: number;
  csv?: boolean;
  save: boolean;
  /** A what-if run: nothing saved, no dispute pack written. */
  dryRun?: boolean;
  /** Replace dispute packs that exist in --dispute-dir. */
  force?: boolean;
}

async function readBills(ctx: CommandContext, files: readonly string[]): Promise<CarrierBill[]> {
  const [{ readBillFile }, { issueLine }] = await Promise.all([import('../../audit/readBills.js'), import('../../audit/bill.js')]);
  const bills: CarrierBill[] = [];
  const issues: BillIssue[] = [];
  for (const file of files) {
    const read = await readBillFile(file);
    // One push per item: a file's bills spread into push() overflow the stack from about 100,000.
    if (read.ok) for (const bill of read.bills) bills.push(bill);
    else for (const issue of read.issues) issues.push(issue);
  }
  if (issues.length > 0) {
    // Every problem at once, each where it is; nothing is audited or saved.
    if (issues.length > 1) issues.slice(0, -1).forEach((issue) => ctx.io.error(issueLine(issue)));
    const message =
      issues.length === 1 ? `${issueLine(issues[0]!)}; nothing was audited` : `${issueLine(issues.at(-1)!)} (${issues.length} problems in the bills; nothing was audited)`;
    throw new CliError(message, 'REJECTED', {
      problem: {
        type: 'urn:shipper:problem:unreadable-bills',
        title: 'Unreadable Bills',
        status: 400,
        detail: `${plural(issues.length, 'problem')} in the bills; nothing was audited`,
        violations: issues.map((issue) => ({ field: `${issue.file} line ${issue.line}${issue.where ? `, ${issue.where}` : ''}`, reason: issue.message })),
      },
    });
  }
  return bills;
}

/** This machine's tariff (--tariff, else the shipped one): it prices what a reweigh or reclass changes. */
async function loadTariff(file: string | undefined): Promise<Tariff> {
  const { TariffProvider } = await import('../../api/local/tariffProvider.js');
  return new TariffProvider(file).load();
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

interface PlannedPack {
  result: AuditResult;
  bill: string;
  file: string;
}

/** Where each disputed bill's pack goes in `dir` (one name per bill, -2, -3... for repeats). */
async function planDisputePacks(dir: string, results: readonly AuditResult[]): Promise<PlannedPack[]> {
  const { billName } = await import('../../audit/bill.js');
  const target = resolve(dir);
  const names = new Set<string>();
  return results
    .filter((result) => result.status === 'DISPUTED')
    .map((result) => {
      const base = `dispute-${billName(result.bill).replace(/[^A-Za-z0-9_-]+/g, '_')}`;
      let name = `${base}.pdf`;
      for (let count = 2; names.has(name); count++) name = `${base}-${count}.pdf`;
      names.add(name);
      return { result, bill: billName(result.bill), file: join(target, name) };
    });
}

/** Packs of an earlier audit are kept unless --force: refused before anything is saved or written. */
async function refuseExistingPacks(planned: readonly PlannedPack[]): Promise<void> {
  const existing: string[] = [];
  for (const pack of planned) if (await stat(pack.file).catch(() => undefined)) existing.push(pack.file);
  if (existing.length === 0) return;
  const what = existing.length === 1 ? `${existing[0]} exists` : `${existing.length} dispute packs exist (${existing[0]}, ...)`;
  throw new UsageError(`${what}; nothing was saved or written`, '--force replaces them, or give another --dispute-dir');
}

async function writeDisputePacks(
  ctx: CommandContext,
  api: ShipperApi,
  planned: readonly PlannedPack[],
  shipments: ReadonlyMap<string, Shipment>,
  force: boolean,
): Promise<Array<{ bill: string; file: string; bytes: number }>> {
  if (planned.length === 0) return [];
  const [{ makeDirectory }, { renderDisputePack }] = await Promise.all([import('../../fs/makeDirectory.js'), import('../../audit/disputePdf.js')]);
  const target = dirname(planned[0]!.file);
  await makeDirectory(target).catch((error: Error) => {
    throw new CliError(`cannot create ${target}: ${error.message}`, 'LOCAL_FAILURE');
  });
  const written: Array<{ bill: string; file: string; bytes: number }> = [];
  for (const { result, bill, file } of planned) {
    const shipment = result.shipment ? (shipments.get(result.shipment.id) ?? null) : null;
    const bol = shipment ? (await api.renderBol(shipment.id)).data : null;
    const pdf = await renderDisputePack(result, shipment, bol);
    // A pack written meanwhile by another run is not replaced either (without --force).
    await writeFileDurably(file, pdf, { whenExists: force ? 'replace' : 'refuse' });
    written.push({ bill, file, bytes: pdf.byteLength });
  }
  ctx.io.note(`Wrote ${plural(written.length, 'dispute pack')} to ${target}`);
  return written;
}

export async function runAudit(ctx: CommandContext, files: string[], options: AuditCommandOptions): Promise<void> {
  if (options.csv && ctx.io.options.json) throw new UsageError('--csv and --json cannot be combined; pick one');
  if (!options.print && (options.printer !== undefined || options.copies !== undefined)) throw new UsageError('--printer and --copies need --print');
  if (options.print && !options.disputeDir) throw new UsageError('--print prints the dispute packs: give --dispute-dir DIR too (the packs are written there, then printed)');
  if (options.dryRun && options.disputeDir) throw new UsageError('--dry-run writes nothing; drop --dispute-dir, or drop --dry-run to write the packs');
  const save = options.save && !options.dryRun;
  if (files.length === 0) throw new UsageError('no bill file given', 'example: shipper audit bills.csv carrier-210.edi');
  const bills = await readBills(ctx, files);
  const [settings, api, { auditBill }, { billKeys, ShipmentsByKey }, { earlierAuditOf, flagDuplicates }, { AuditedBills }] = await Promise.all([
    ctx.settings(),
    ctx.api(),
    import('../../audit/audit.js'),
    import('../../audit/matching.js'),
    import('../../audit/duplicates.js'),
    import('../../audit/store.js'),
  ]);
  const tariff = await loadTariff(settings.tariff);
  // The agreements that priced carrier quotes re-rate their shipments (--tariffs); none without it.
  const { AgreementProvider } = await import('../../api/local/agreementProvider.js');
  const agreements = await new AgreementProvider(settings.tariffs).load();
  const shipments = await shipmentsFor(api, billKeys(bills));
  const byKey = new ShipmentsByKey(shipments);
  const auditedAt = (await ctx.clock())().toISOString();
  // The store in use (--store: a directory or a PostgreSQL database), also in remote mode: bills are the user's own papers.
  const book = new AuditedBills((await ctx.store()).auditedBills);
  const { audits: earlier, warnings } = await book.list();
  ctx.io.warnAll(warnings);
  const results = flagDuplicates(
    bills.map((bill) => auditBill(bill, byKey.match(bill), { tariff, agreements, toleranceInCents: options.tolerance, auditedAt })),
    earlier.flatMap((audit) => earlierAuditOf(audit) ?? []),
  );
  const planned = options.disputeDir ? await planDisputePacks(options.disputeDir, results) : [];
  if (!options.force) await refuseExistingPacks(planned);
  // What a save replaces: the saved audits of the same bills, which `report spend` reads.
  const replaced = save ? replacedAudits(earlier, results) : [];
  if (save) await book.save(results);
  if (replaced.length > 0) ctx.io.note(replacedNote(replaced));
  const packs = await writeDisputePacks(ctx, api, planned, new Map(shipments.map((shipment) => [shipment.id, shipment])), options.force ?? false);

  const printing = options.print && packs.length > 0 ? await printDisputePacks(ctx, auditedAt, packs, options) : undefined;

  const summary = summarise(results);
  if (ctx.io.options.json) ctx.io.json({ files, bills: results, summary, saved: save, replaced, disputePacks: packs, ...(printing ? { print: printing.json } : {}) });
  else if (options.csv) ctx.io.streams.stdout.write(csvText(AUDIT_CSV_HEADER, auditCsvRows(results)));
  // --quiet: only the files written (the dispute packs); the exit code says whether anything is disputed.
  else if (ctx.io.options.quiet) packs.forEach((pack) => ctx.io.out(pack.file));
  else {
    printAudit(ctx.io, results);
    // Wrapped on a terminal (80 columns), one line when piped.
    ctx.io.field(summaryLine(summary), 2);
  }
  // A pack that did not print is the dock's next job: exit 7 before the dispute's 6.
  if (printing?.failure) throw new CliError(printing.failure.message, printing.failure, { jsonWritten: ctx.io.options.json });
  if (summary.disputed > 0) {
    // Exit 6, not 1: CI tells a real dispute from a bill file it could not read (1).
    throw new CliError(`${summary.disputed} of ${plural(summary.bills, 'bill')} disputed: ${formatCents(summary.disputedInCents)} at stake`, 'DISPUTED', {
      jsonWritten: ctx.io.options.json,
    });
  }
}

/** The saved audits this run's results replace (same bill), with when they were made and what they found. */
/** The dispute packs just written, sent to the printer in order (read back from their files). */
async function printDisputePacks(ctx: CommandContext, auditedAt: string, packs: ReadonlyArray<{ bill: string; file: string }>, options: AuditCommandOptions) {
  const [{ printDocuments, jsonOf }, { capturingJson }, { readFile }, { basename }] = await Promise.all([
    import('../printDocuments.js'),
    import('../printCapture.js'),
    import('node:fs/promises'),
    import('node:path'),
  ]);
  const files = new Map(packs.map((pack) => [pack.bill, pack.file]));
  const inner = ctx.io.options.json ? capturingJson(ctx, () => undefined) : ctx;
  const { run, failure } = await printDocuments(
    inner,
    `audit:${auditedAt}`,
    packs.map((pack) => ({ kind: 'dispute' as const, shipmentId: pack.bill, name: basename(pack.file, '.pdf') })),
    { print: true, printer: options.printer, copies: options.copies },
    async (_kind, bill) => new Uint8Array(await readFile(files.get(bill)!)),
  );
  return { json: jsonOf(run), failure };
}

function replacedAudits(earlier: readonly AuditResult[], results: readonly AuditResult[]): Array<{ bill: string; auditedAt: string; status: string; disputedInCents: number }> {
  const now = new Set(results.map((result) => result.billKey));
  return earlier
    .filter((audit) => now.has(audit.billKey))
    .map((audit) => ({ bill: audit.billKey, auditedAt: audit.auditedAt, status: audit.status, disputedInCents: audit.disputedInCents }));
}

function replacedNote(replaced: ReadonlyArray<{ bill: string; auditedAt: string; status: string; disputedInCents: number }>): string {
  const [first] = replaced;
  const which =
    replaced.length === 1
      ? `the saved audit of ${first!.bill} (${first!.auditedAt}, ${first!.status.toLowerCase()}, ${formatCents(first!.disputedInCents)} at stake)`
      : `the saved audits of ${plural(replaced.length, 'bill')}`;
  return `replaced ${which}; report spend now reads this audit (--dry-run audits without saving)`;
}
