/**
 * `shipper store export` of the file store: every record read straight from its files, with the
 * journal's whole lines that are not applied yet laid over them in memory. It writes nothing and
 * needs neither the store's lock nor its indexes, so it exports a read-only store, a store on a
 * full disk, and a store whose journal is damaged (every record applied before the damage, and the
 * whole lines before it). A record that does not read is left out and named in a warning.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { quoteSchema } from '../../domain/schemas.js';
import { describeFileError } from '../../fs/durableWrite.js';
import { StoreError } from '../storeError.js';
import { headerLine, type TransferLine } from '../transfer.js';
import { appendText } from './bucketLogs.js';
import { counterSchema, eventsFileSchema, idempotencySchema, storedShipmentSchema } from './fileRecords.js';
import type { Journal, JournalWrite } from './journal.js';
import { parseStored } from '../legacyRead.js';

const SECOND_BUCKET = /^[0-9A-HJKMNP-TV-Z]{8}-[0-9A-HJKMNP-TV-Z]\.log$/;
const RECORD_FILE = /^([A-Za-z0-9_-]{1,128})\.json$/;
const MARK_FILE = /^\.([a-z0-9][a-z0-9.-]*)\.high-water\.json$/;
const COUNTER = /^(orders|sscc|x12-control|pro-[A-Za-z0-9._-]+)$/;
const WEEK = /^\d{4}-\d{2}-\d{2}$/;

export interface SnapshotWarning {
  code: 'RECORD_UNREADABLE';
  message: string;
}

/** The store's files as they are, with the journal's pending lines applied in memory. */
class View {
  /** Relative path: its bytes after the pending lines, or null: removed by them. */
  private readonly overlay = new Map<string, Buffer | null>();

  constructor(private readonly root: string) {}

  read(path: string): Buffer | undefined {
    const laid = this.overlay.get(path);
    if (laid !== undefined) return laid ?? undefined;
    const file = join(this.root, path);
    try {
      return fs.readFileSync(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'EISDIR') throw new StoreError(`cannot read ${file}: it is a directory`, file);
      throw new StoreError(`cannot read ${file}: ${describeFileError(error)}`, file);
    }
  }

  names(dir: string): string[] {
    let names: string[] = [];
    try {
      names = fs.readdirSync(join(this.root, dir));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new StoreError(`cannot list ${join(this.root, dir)}: ${describeFileError(error)}`, join(this.root, dir));
    }
    const found = new Set(names);
    for (const [path, bytes] of this.overlay) {
      if (!path.startsWith(`${dir}/`) || path.indexOf('/', dir.length + 1) >= 0) continue;
      const name = path.slice(dir.length + 1);
      if (bytes === null) found.delete(name);
      else found.add(name);
    }
    return [...found].sort();
  }

  /** A journal line's writes, as applying it would leave the files. */
  apply(writes: readonly JournalWrite[]): void {
    for (const write of writes) {
      if ('remove' in write) this.overlay.set(write.path, null);
      else if ('lines' in write) {
        const before = this.read(write.path) ?? Buffer.alloc(0);
        // As writeAt: the file cut (or extended) to `at`, the lines written there.
        const kept = before.length >= write.at ? before.subarray(0, write.at) : Buffer.concat([before, Buffer.alloc(write.at - before.length)]);
        this.overlay.set(write.path, Buffer.concat([kept, Buffer.from(appendText(write))]));
      } else this.overlay.set(write.path, Buffer.from(write.text));
    }
  }
}

/** The whole lines of a bucket log, parsed; a line that is no JSON object is counted as damaged. */
function bucketLines(bytes: Buffer | undefined): { lines: Array<Record<string, unknown>>; damaged: number } {
  const lines: Array<Record<string, unknown>> = [];
  let damaged = 0;
  if (!bytes) return { lines, damaged };
  const text = bytes.toString('utf8');
  // The last line without its newline is one being written (or torn): not a record yet.
  const whole = text.slice(0, text.lastIndexOf('\n') + 1);
  for (const line of whole.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) lines.push(value as Record<string, unknown>);
      else damaged++;
    } catch {
      damaged++;
    }
  }
  return { lines, damaged };
}

function fileRecord(bytes: Buffer | undefined): unknown {
  if (!bytes) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8').trim()) as unknown;
  } catch {
    return Symbol.for('damaged');
  }
}

/** Every record of the file store at `root` as transfer lines (transfer.ts), newest shipments first as exportThroughPorts orders them. */
export async function* exportSnapshot(root: string, journal: Journal, now: Date, warn: (item: SnapshotWarning) => void): AsyncIterable<TransferLine> {
  const view = new View(root);
  const scan = await journal.inspect();
  for (const line of scan.pending) view.apply(line.writes);
  const damagedRecord = (what: string) => warn({ code: 'RECORD_UNREADABLE', message: `store export left out ${what}: it is damaged` });
  if (scan.damage) {
    warn({
      code: 'RECORD_UNREADABLE',
      message: `the store's journal ${journal.file} is damaged at byte ${scan.damage.at}: exported every record written before it; the ${scan.damage.linesAfter} whole line${scan.damage.linesAfter === 1 ? '' : 's'} after it ${scan.damage.linesAfter === 1 ? 'is' : 'are'} not (shipper store check)`,
    });
  }
  yield headerLine(now);

  // Shipments: the last line of an id in its second's bucket; files of an older layout that no bucket line supersedes.
  const shipments = new Map<string, unknown>();
  const files = new Map<string, unknown>();
  const marks = new Map<string, number>();
  const raise = (name: string, value: unknown) => {
    const counter = counterSchema.safeParse(value);
    if (counter.success && COUNTER.test(name)) marks.set(name, Math.max(marks.get(name) ?? 0, counter.data.last));
  };
  for (const name of view.names('shipments')) {
    const path = `shipments/${name}`;
    if (SECOND_BUCKET.test(name)) {
      const { lines, damaged } = bucketLines(view.read(path));
      for (const line of lines) if (typeof line.i === 'string') shipments.set(line.i, line.s);
      if (damaged > 0) damagedRecord(`${damaged} line${damaged === 1 ? '' : 's'} of ${join(root, path)}`);
    } else if (MARK_FILE.test(name)) raise(MARK_FILE.exec(name)![1]!, fileRecord(view.read(path)));
    else if (RECORD_FILE.test(name)) files.set(RECORD_FILE.exec(name)![1]!, path);
  }
  for (const [id, path] of files) if (!shipments.has(id)) shipments.set(id, fileRecord(view.read(path as string)));
  for (const id of [...shipments.keys()].sort().reverse()) {
    const record = parseStored(storedShipmentSchema, shipments.get(id));
    if (!record.success) {
      damagedRecord(`shipment ${id}`);
      continue;
    }
    const { quote, ...shipment } = record.data;
    yield { type: 'shipment', shipment, ownQuote: quote ?? null };
    if (!RECORD_FILE.test(`${id}.json`)) continue;
    const stored = fileRecord(view.read(`events/${id}.json`));
    if (stored === undefined) continue;
    const events = parseStored(eventsFileSchema, stored);
    if (!events.success) {
      damagedRecord(`the events of shipment ${id}`);
      continue;
    }
    const sorted = [...events.data.events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.recordedAt.localeCompare(b.recordedAt) || a.id.localeCompare(b.id));
    for (const event of sorted) yield { type: 'event', event };
  }

  // Quotes saved by POST quote: buckets by second, and files of an older layout.
  const quotes = new Map<string, unknown>();
  for (const name of view.names('quotes')) {
    const path = `quotes/${name}`;
    if (SECOND_BUCKET.test(name)) {
      const { lines, damaged } = bucketLines(view.read(path));
      for (const line of lines) if (typeof line.i === 'string') quotes.set(line.i, line.q);
      if (damaged > 0) damagedRecord(`${damaged} line${damaged === 1 ? '' : 's'} of ${join(root, path)}`);
    } else if (RECORD_FILE.test(name) && !quotes.has(RECORD_FILE.exec(name)![1]!)) quotes.set(RECORD_FILE.exec(name)![1]!, fileRecord(view.read(path)));
  }
  for (const id of [...quotes.keys()].sort().reverse()) {
    const quote = parseStored(quoteSchema, quotes.get(id));
    if (quote.success) yield { type: 'quote', quote: quote.data };
    else damagedRecord(`quote ${id}`);
  }

  // Idempotency records: files of an older layout, then the buckets, the pending log newest.
  const records = new Map<string, unknown>();
  const pendingLog: Array<Record<string, unknown>> = [];
  const names = view.names('idempotency');
  for (const name of names) {
    const path = `idempotency/${name}`;
    if (MARK_FILE.test(name)) raise(MARK_FILE.exec(name)![1]!, fileRecord(view.read(path)));
    else if (RECORD_FILE.test(name)) records.set(name.slice(0, -5), fileRecord(view.read(path)));
  }
  for (const name of names) {
    const path = `idempotency/${name}`;
    if (name.endsWith('.log')) {
      const { lines, damaged } = bucketLines(view.read(path));
      if (damaged > 0) damagedRecord(`${damaged} line${damaged === 1 ? '' : 's'} of ${join(root, path)}`);
      if (name === 'pending.log') pendingLog.push(...lines);
      else for (const line of lines) records.set(String(line.h), line.r);
    }
  }
  for (const line of pendingLog) records.set(String(line.h), line.r);
  for (const value of records.values()) {
    const stored = idempotencySchema.safeParse(value);
    if (!stored.success) continue;
    const { key, ...record } = stored.data;
    // Records written before their key was kept cannot be carried (as exportThroughPorts).
    if (key !== undefined && key !== '') yield { type: 'idempotency', key, record };
  }

  for (const name of view.names('fuel-prices')) {
    const week = RECORD_FILE.exec(name)?.[1];
    if (!week || !WEEK.test(week)) continue;
    const price = z.object({ week: z.string().regex(WEEK), usdPerGallon: z.string() }).safeParse(fileRecord(view.read(`fuel-prices/${name}`)));
    if (price.success) yield { type: 'fuelPrice', price: { week: price.data.week, usdPerGallon: price.data.usdPerGallon } };
    else damagedRecord(`the fuel price of ${week}`);
  }
  for (const name of view.names('locations')) {
    if (!RECORD_FILE.test(name)) continue;
    const location = z.object({ name: z.string().min(1), address: z.unknown() }).safeParse(fileRecord(view.read(`locations/${name}`)));
    if (location.success) yield { type: 'location', location: location.data };
    else damagedRecord(`saved location ${name.slice(0, -5)}`);
  }
  for (const name of view.names('audited-bills')) {
    if (!RECORD_FILE.test(name)) continue;
    const record = fileRecord(view.read(`audited-bills/${name}`));
    const billKey = (record as { billKey?: unknown } | undefined)?.billKey;
    if (typeof billKey === 'string' && billKey !== '') yield { type: 'auditedBill', billKey, record };
    else damagedRecord(`audited bill ${name.slice(0, -5)}`);
  }

  // Counters: the highest of their three copies (counters.ts).
  for (const name of view.names('counters')) {
    const counter = RECORD_FILE.exec(name)?.[1];
    if (counter) raise(counter, fileRecord(view.read(`counters/${name}`)));
  }
  for (const [name, last] of [...marks].sort(([a], [b]) => a.localeCompare(b))) if (last > 0) yield { type: 'counter', name, last };
}
