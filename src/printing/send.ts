/**
 * Sending documents to a resolved printer: the check before a batch (the spooler is installed; a
 * thermal printer answers ~HS and is ready) and one document at a time, by the printer's transport.
 */
import { PrintError } from './errors.js';
import { DEFAULT_MEDIA, type DocumentKind, type Printer } from './printers.js';
import { printerLabel, queryStatus, sendRaw } from './rawTcp.js';
import { findSpooler, submitToSpooler, type Spooler } from './spooler.js';
import { statusProblems } from './zplStatus.js';

/** One document to print: its bytes are made when it is its turn (rendered, or fetched from the server). */
export interface PrintDocument {
  kind: DocumentKind;
  /** The job's title and, with the format as extension, the spooler's file name: BOL-SO-000123. */
  name: string;
  format: 'pdf' | 'zpl';
  bytes: Uint8Array;
}

export interface SendOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** The format a printer takes for a kind of document; a PrintError when it takes none (a BOL on a ZPL-only printer). */
export function formatFor(printer: Printer, kind: DocumentKind): 'pdf' | 'zpl' {
  if (printer.transport.kind === 'spooler') return 'pdf';
  if (kind === 'labels') return 'zpl';
  const what = { bol: 'a BOL', invoice: 'an invoice', dispute: 'a dispute pack', labels: 'labels' }[kind];
  throw new PrintError(
    `${printerLabel(printer.name, printer.transport.address)} takes ZPL only: ${what} is a letter-size PDF and is not sent to it`,
    `print it on a spooler queue: --printer QUEUE, or shipper config set print.${kind} NAME`,
  );
}

export interface PrinterSession {
  printer: Printer;
  send(document: PrintDocument, copies: number): Promise<{ requestId?: string | undefined }>;
}

/**
 * Checks the printer before anything is sent and returns the session that sends. A thermal printer
 * that reports paper out, head open or paused stops the batch here; one that does not answer ~HS in
 * time (not every raw printer speaks ZPL's status) is printed to.
 */
export async function openPrinter(printer: Printer, options: SendOptions): Promise<PrinterSession> {
  const transport = printer.transport;
  if (transport.kind === 'zpl') {
    const status = await queryStatus(transport.address, printer.name, options);
    const problems = status ? statusProblems(status) : [];
    if (problems.length > 0) {
      throw new PrintError(
        `${printerLabel(printer.name, transport.address)} is not ready: ${problems.join(', ')}; nothing was sent`,
        'fix it at the printer, then run the command again',
      );
    }
    return {
      printer,
      async send(document, copies) {
        // The copies on the one connection of the document: the format repeated, in order.
        const bytes = copies === 1 ? document.bytes : concatenate(Array.from({ length: copies }, () => document.bytes));
        await sendRaw(transport.address, printer.name, bytes, options);
        return {};
      },
    };
  }
  const spooler: Spooler = await findSpooler(options.env);
  return {
    printer,
    send: (document, copies) =>
      submitToSpooler(
        spooler,
        {
          queue: transport.queue,
          copies,
          media: printer.media ?? DEFAULT_MEDIA[document.kind],
          title: document.name,
          fileName: `${document.name}.${document.format}`,
          bytes: document.bytes,
        },
        options,
      ),
  };
}

function concatenate(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
