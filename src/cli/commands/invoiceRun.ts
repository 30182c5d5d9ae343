/** What `shipper invoice` does (loaded when it runs; see invoice.ts). */
import { shipmentIdOf } from '../shipmentRef.js';
import { stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { FileWriteError, writeFileDurably } from '../../fs/durableWrite.js';
import { formatNumber } from '../output.js';
import { printInvoice } from '../views/invoice.js';
import { checkPrintFlags, type PrintFlags } from '../printOptions.js';
import { documentPdf } from '../documentDownload.js';

export interface InvoiceOptions extends PrintFlags {
  output?: string;
  force?: boolean;
}

/** `-o x.pdf` is that file; `-o dir` (an existing directory) gets `<invoice number>.pdf` in it. */
async function pdfPath(output: string, invoiceNumber: string): Promise<string> {
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory()) return join(resolve(output), `${invoiceNumber}.pdf`);
  if (extname(output).toLowerCase() !== '.pdf') throw new UsageError(`-o ${output}: name a .pdf file or an existing directory`);
  return resolve(output);
}

export async function runInvoice(ctx: CommandContext, reference: string | undefined, options: InvoiceOptions): Promise<void> {
  if (checkPrintFlags(options)) return printInvoices(ctx, reference, options);
  if (reference === undefined) throw new UsageError('no shipment given', 'example: shipper invoice <shipment> [-o invoice.pdf]');
  const api = await ctx.api();
  const id = await shipmentIdOf(api, reference);
  const { data: invoice, warnings } = await api.getInvoiceDetail(id);
  ctx.io.warnAll(warnings);
  if (options.output !== undefined) {
    const file = await pdfPath(options.output, invoice.invoiceNumber);
    // Remote mode: through the download link (the invoice document exists once the order is DELIVERED).
    const { data: pdf } = await documentPdf(api, invoice.orderNumber, 'INVOICE', () => api.renderInvoice(id));
    // Never over an invoice someone filed or annotated, unless asked to.
    await writeFileDurably(file, pdf, { whenExists: options.force ? 'replace' : 'refuse' }).catch((error: unknown) => {
      if (error instanceof FileWriteError && error.errno === 'EEXIST')
        throw new UsageError(`${file} exists already; nothing was written`, 'add --force to replace it, or give another name with -o');
      throw error;
    });
    ctx.io.note(`Wrote ${invoice.invoiceNumber} (${invoice.orderNumber}) to ${file} (${formatNumber(Math.max(1, Math.round(pdf.byteLength / 1024)))} KB)`);
    if (ctx.io.options.json) ctx.io.json(invoice);
    else if (ctx.io.options.quiet) ctx.io.out(file);
    return;
  }
  if (ctx.io.options.json) return ctx.io.json(invoice);
  printInvoice(ctx.io, invoice);
}

/**
 * `invoice --print`: the invoice PDF to the printer of invoices (print.invoice); shown or written
 * (-o) as without --print first. --resume sends it when the last run did not.
 */
async function printInvoices(ctx: CommandContext, reference: string | undefined, options: InvoiceOptions): Promise<void> {
  const [{ printDocuments, jsonOf, warnOnce }, { capturingJson }] = await Promise.all([import('../printDocuments.js'), import('../printCapture.js')]);
  const api = await ctx.api();
  if (!options.resume && reference === undefined) throw new UsageError('no shipment given', 'example: shipper invoice <shipment> --print, shipper invoice --resume');
  let shown: unknown;
  const requests = [];
  if (reference !== undefined) {
    const id = await shipmentIdOf(api, reference);
    await runInvoice(
      capturingJson(ctx, (value) => (shown = value)),
      id,
      { ...options, print: false, resume: false, printer: undefined, copies: undefined },
    );
    const { data: invoice } = await api.getInvoiceDetail(id);
    requests.push({ kind: 'invoice' as const, shipmentId: id, name: invoice.invoiceNumber });
  }
  const warn = warnOnce(ctx.io);
  const { run, failure } = await printDocuments(ctx, 'invoice', requests, options, async (_kind, shipmentId) => {
    const { data: pdf, warnings } = await api.renderInvoice(shipmentId);
    warn(warnings);
    return pdf;
  });
  if (ctx.io.options.json) ctx.io.json({ ...(shown && typeof shown === 'object' ? { invoice: shown } : {}), ...jsonOf(run) });
  if (failure) throw failure;
}
