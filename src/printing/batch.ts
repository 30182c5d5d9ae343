/**
 * A print run: the documents one request asked for, in order, each sent once. Its record (which
 * were sent, which not and why) is saved in the store after every document, so that a run stopped
 * by the printer or by Ctrl-C says what went out, and `--resume` sends the rest and nothing twice.
 */
import { z } from 'zod';
import { ShipperError } from '../domain/errors.js';
import { PrintError } from './errors.js';
import { DOCUMENT_KINDS, type DocumentKind } from './printers.js';
import type { PrintDocument, PrinterSession } from './send.js';

export const printedDocumentSchema = z.object({
  /** `bol:sh_...`, `labels:sh_...`: a document once per run. */
  key: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  shipmentId: z.string(),
  /** The document's name, as its file would be named without the extension: BOL-SO-000123, labels-SO-000123. */
  name: z.string(),
  printed: z.boolean(),
  printedAt: z.string().optional(),
  /** The spooler's request id, when it gave one. */
  requestId: z.string().optional(),
  /** Why it was not printed (yet). */
  reason: z.string().optional(),
});
export type PrintedDocument = z.output<typeof printedDocumentSchema>;

export const printRunSchema = z.object({
  id: z.string(),
  /** What the run printed, for --resume: `bol`, `labels`, `import:<digest of the file>`. */
  scope: z.string(),
  startedAt: z.string(),
  /** The printers of the run by kind of document, as named (`--printer`, a profile, a queue). */
  printers: z.record(z.string(), z.string()),
  copies: z.record(z.string(), z.number().int()),
  documents: z.array(printedDocumentSchema),
});
export type PrintRun = z.output<typeof printRunSchema>;

export const openDocuments = (run: PrintRun): PrintedDocument[] => run.documents.filter((document) => !document.printed);

export interface RunPrintOptions {
  run: PrintRun;
  /** The session of each kind's printer (opened, and checked, before anything is sent). */
  sessions: Partial<Record<DocumentKind, PrinterSession>>;
  copies: Partial<Record<DocumentKind, number>>;
  /** The bytes of a document, in the format its printer takes. */
  produce(document: PrintedDocument, format: 'pdf' | 'zpl'): Promise<Uint8Array>;
  formatOf(kind: DocumentKind): 'pdf' | 'zpl';
  /** Saves the run's record (after every document). */
  save(run: PrintRun): Promise<void>;
  now(): Date;
  signal?: AbortSignal | undefined;
  /** After each document sent or failed. */
  progress?(document: PrintedDocument, done: number, total: number): void;
  /** Documents produced ahead of the one being sent (rendering overlaps printing). */
  ahead?: number;
}

export interface RunPrintResult {
  run: PrintRun;
  /** What stopped the run (the printer, Ctrl-C); undefined when every document was tried. */
  stoppedBy?: ShipperError | undefined;
}

/**
 * Sends the run's unsent documents in order. A document that cannot be produced (a shipment
 * cancelled meanwhile) is marked with its reason and the run goes on; a printer failure or Ctrl-C
 * stops it: that document and the rest are marked not sent.
 */
export async function runPrint(options: RunPrintOptions): Promise<RunPrintResult> {
  const { run } = options;
  const pending = openDocuments(run);
  const total = pending.length;
  const ahead = options.ahead ?? 4;
  const produced: Array<Promise<Uint8Array>> = [];
  const produce = (index: number) => {
    const document = pending[index]!;
    const task = options.produce(document, options.formatOf(document.kind));
    task.catch(() => undefined);
    produced[index] = task;
  };
  let stoppedBy: ShipperError | undefined;
  let done = 0;
  for (let index = 0; index < pending.length; index++) {
    const document = pending[index]!;
    if (options.signal?.aborted) {
      stoppedBy = new PrintError('stopped by Ctrl-C', 'run the command again with --resume to print the rest');
      break;
    }
    for (let next = index; next < Math.min(pending.length, index + 1 + ahead); next++) if (!produced[next]) produce(next);
    let bytes: Uint8Array;
    try {
      bytes = await produced[index]!;
    } catch (error) {
      if (error instanceof PrintError) {
        document.reason = error.message;
        stoppedBy = error;
        break;
      }
      if (!(error instanceof ShipperError)) throw error;
      // This document cannot be made (a shipment cancelled meanwhile): said, and the run goes on.
      document.reason = error.message;
      done++;
      await options.save(run);
      options.progress?.(document, done, total);
      continue;
    }
    const session = options.sessions[document.kind]!;
    try {
      const { requestId } = await session.send(
        { kind: document.kind, name: document.name, format: options.formatOf(document.kind), bytes } satisfies PrintDocument,
        options.copies[document.kind] ?? 1,
      );
      document.printed = true;
      document.printedAt = options.now().toISOString();
      if (requestId) document.requestId = requestId;
      delete document.reason;
    } catch (error) {
      if (!(error instanceof PrintError)) throw error;
      document.reason = error.message;
      stoppedBy = error;
    }
    done++;
    await options.save(run);
    options.progress?.(document, done, total);
    if (stoppedBy) break;
  }
  if (stoppedBy) {
    for (const document of pending) if (!document.printed && !document.reason) document.reason = 'not sent: the run stopped before it';
    await options.save(run);
  }
  return { run, stoppedBy };
}
