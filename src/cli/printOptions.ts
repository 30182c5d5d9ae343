/**
 * The print options of the document commands (`--print`, `--printer`, `--copies`, `--resume`):
 * commander only, so that registering them loads nothing (printDocuments.ts does the printing).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from './errors.js';

export interface PrintFlags {
  print?: boolean;
  printer?: string;
  copies?: number;
  /** true: --resume (a run must be open); 'if-open': resume the scope's open run, else start one (import). */
  resume?: boolean | 'if-open';
  /** A printer per kind of document (import: --bol-printer, --label-printer), beating --printer. */
  printers?: Partial<Record<'bol' | 'labels' | 'invoice' | 'dispute', string | undefined>>;
  /** Copies per kind of document, beating --copies (import: --copies counts BOLs only). */
  copiesByKind?: Partial<Record<'bol' | 'labels' | 'invoice' | 'dispute', number | undefined>>;
}

function parseCopies(value: string): number {
  const copies = /^\d{1,2}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(copies) || copies < 1 || copies > 99) throw new InvalidArgumentError('must be a whole number from 1 to 99');
  return copies;
}

/** The print options every document command takes. */
export function addPrintOptions<C extends Command>(command: C, kind: string): C {
  return command
    .option('--print', `send the ${kind} to a printer (with -o the files are written too)`)
    .option('--printer <name>', 'a printer of shipper printer list, a spooler queue, or tcp://HOST[:PORT] (default: print.<kind> of the config, else the system default queue)')
    .addOption(new Option('--copies <n>', "copies of each document, 1-99 (default: the printer profile's, else 1)").argParser(parseCopies))
    .option('--resume', 'print the documents an interrupted --print run of this command did not send, and nothing twice');
}

/** Refuses print options without --print (a --printer alone prints nothing: surely a mistake). */
export function checkPrintFlags(flags: PrintFlags): boolean {
  const wanted = Boolean(flags.print || flags.resume);
  if (!wanted && (flags.printer !== undefined || flags.copies !== undefined)) throw new UsageError('--printer and --copies need --print');
  return wanted;
}
