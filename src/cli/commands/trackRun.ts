/**
 * What `shipper track` does (loaded when it runs; see track.ts): a shipment's tracking from the
 * API (either mode), and the import of carriers' status message files, matched and recorded
 * through the API, so the same import feeds a server.
 */
import { isUtf8 } from 'node:buffer';
import { stat } from 'node:fs/promises';
import type { CommandContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { readRegularFile } from '../../fs/regularFile.js';
import { notFound } from '../../api/problems.js';
import { plural } from '../output.js';
import { shipmentIdOf } from '../shipmentRef.js';
import { printTrackImport, printTracking } from '../views/tracking.js';
import { noteUnanswered, printPublishedAnswer } from '../views/published.js';
import type { ShipperApi } from '../../api/types.js';

/** A carrier's status file beyond this is not a day's messages; refuse it rather than fill the memory. */
const MAX_MESSAGE_FILE_BYTES = 256 * 1024 * 1024;

export async function runTrack(ctx: CommandContext, reference: string | undefined, options: { pro?: string }): Promise<void> {
  if (reference !== undefined && options.pro !== undefined) throw new UsageError('give the shipment or --pro, not both');
  if (reference === undefined && options.pro === undefined)
    throw new UsageError('which shipment? give its id, order number or BOL number, or --pro PRO', 'shipper track SO-000123');
  const api = await ctx.api();
  if (api.publishedOnly && reference !== undefined) return runPublishedTracking(ctx, api, reference);
  let id: string;
  if (options.pro !== undefined) {
    const pro = options.pro.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9 -]{0,23}$/.test(pro)) throw new UsageError(`--pro ${JSON.stringify(options.pro)} is not a PRO number (letters, digits and dashes)`);
    const { data: page } = await api.listShipments({ proNumber: pro, limit: 10 });
    const [first, second] = page.items;
    if (!first) throw notFound('shipment with PRO', pro);
    if (second) throw new UsageError(`PRO ${pro} is on more than one shipment (${page.items.map((shipment) => shipment.orderNumber).join(', ')}): give the order number`);
    id = first.id;
  } else id = await shipmentIdOf(api, reference!);
  const { data: tracking, warnings } = await api.listShipmentEvents(id);
  ctx.io.warnAll(warnings);
  if (ctx.io.options.json) return ctx.io.json(tracking);
  printTracking(ctx.io, tracking);
}

/** Oway's service has no event timeline: its published tracking (state, pickup and delivery dates). */
async function runPublishedTracking(ctx: CommandContext, api: ShipperApi, reference: string): Promise<void> {
  const result = await api.getTracking(reference.trim());
  ctx.io.warnAll(result.warnings);
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json(result.data);
  printPublishedAnswer(ctx.io, 'Tracking', result.data);
}

async function readMessageText(path: string): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(error.code === 'ENOENT' ? `${path}: no such file` : `cannot read ${path}: ${error.code ?? error.message}`);
  });
  if (info.isDirectory()) throw new UsageError(`${path} is a directory, not a status message file (X12 214 or ITV JSON)`);
  if (info.size > MAX_MESSAGE_FILE_BYTES) throw new CliError(`${path} is ${Math.round(info.size / 1048576)} MB; split status files larger than 256 MB`, 'REJECTED');
  // A FIFO or a device would block or never end: refused (exit 2) before a byte is read.
  const bytes = await readRegularFile(path);
  if (bytes.includes(0)) throw new CliError(`${path} is not a text file (binary data or UTF-16); nothing was imported`, 'REJECTED');
  if (!isUtf8(bytes)) throw new CliError(`${path} is not UTF-8 text; nothing was imported`, 'REJECTED');
  return bytes.toString('utf8');
}

export async function runTrackImport(ctx: CommandContext, paths: string[]): Promise<void> {
  const files = [];
  for (const path of paths) files.push({ name: path, content: await readMessageText(path) });
  const [api, zips, clock, { CityZones }, { importStatusMessages }] = await Promise.all([
    ctx.api(),
    ctx.zips(),
    ctx.clock(),
    import('../../geo/cityZones.js'),
    import('../../tracking/importMessages.js'),
  ]);
  const cities = new CityZones();
  const report = await importStatusMessages(api, files, {
    now: clock(),
    zones: { zipZone: (zipCode) => zips.lookup(zipCode)?.timeZone, cityZone: (city, state) => cities.lookup(city, state) },
  });
  ctx.io.warnAll(report.warnings);
  const setAside = report.unmatched.length + report.refused.length + report.issues.length;
  if (ctx.io.options.json) ctx.io.json(report);
  else printTrackImport(ctx.io, report);
  if (setAside > 0) {
    const parts = [
      report.unmatched.length > 0 ? `${report.unmatched.length} unmatched` : null,
      report.refused.length > 0 ? `${report.refused.length} refused` : null,
      report.issues.length > 0 ? plural(report.issues.length, 'unreadable message') : null,
    ].filter(Boolean);
    throw new CliError(`${parts.join(', ')}: not recorded (the others were)`, 'REJECTED', { jsonWritten: ctx.io.options.json });
  }
}
