/**
 * Printers: the profiles kept with the config (`printers.NAME`, `shipper printer add`), the
 * default printer of each kind of document (`print.bol`, `print.labels`, ...), and how
 * `--printer NAME` resolves: a profile, else a `tcp://HOST[:PORT]` thermal printer, else a queue of
 * the system's spooler; without one, the kind's default, else the system's default queue.
 */
import { z } from 'zod';
import { parseTcpPrinter, tcpUrl, type TcpPrinterAddress } from './rawTcp.js';
import { ConfigError } from '../config/settings.js';

export const DOCUMENT_KINDS = ['bol', 'labels', 'invoice', 'dispute'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The paper each kind is printed on when the profile names none. */
export const DEFAULT_MEDIA: Record<DocumentKind, string> = { bol: 'Letter', labels: '4x6', invoice: 'Letter', dispute: 'Letter' };

export const DEFAULT_PRINT_TIMEOUT_MS = 10_000;

export const printerNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { message: 'printer names are letters, digits, ., - and _ (at most 64)' });
const queueSchema = z.string().regex(/^[A-Za-z0-9_.@/-]{1,127}$/, { message: 'a queue name is letters, digits and _ . @ / -' });
const mediaSchema = z.string().regex(/^[A-Za-z0-9_.x-]{1,40}$/, { message: 'media is a size name such as Letter, Legal, A4 or 4x6' });

export const printerProfileSchema = z
  .object({
    queue: queueSchema.optional(),
    zpl: z
      .string()
      .refine((text) => parseTcpPrinter(text) !== undefined, { message: 'must be tcp://HOST or tcp://HOST:PORT' })
      .optional(),
    media: mediaSchema.optional(),
    copies: z.number().int().min(1).max(99).optional(),
  })
  .refine((profile) => (profile.queue === undefined) !== (profile.zpl === undefined), { message: 'a printer has either a queue or a zpl address' });
export type PrinterProfile = z.output<typeof printerProfileSchema>;

export const printSettingsSchema = z.object({
  bol: z.string().min(1).optional(),
  labels: z.string().min(1).optional(),
  invoice: z.string().min(1).optional(),
  dispute: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
});

export type Transport = { kind: 'spooler'; queue: string | undefined } | { kind: 'zpl'; address: TcpPrinterAddress };

export interface Printer {
  /** As the operator names it: a profile's name, a queue, a tcp:// URL, or "the default queue". */
  name: string;
  transport: Transport;
  media: string | undefined;
  copies: number | undefined;
}

export interface PrintConfig {
  printers: Record<string, PrinterProfile>;
  print: z.output<typeof printSettingsSchema>;
}

/** The printers and print settings of a config file (its loose keys); a bad one is a ConfigError naming it. */
export function printConfigOf(config: Record<string, unknown>): PrintConfig {
  const printers: Record<string, PrinterProfile> = {};
  const stored = config.printers;
  if (stored !== undefined && (typeof stored !== 'object' || stored === null)) throw new ConfigError('the config file\'s "printers" must be an object (shipper printer list)');
  for (const [name, value] of Object.entries((stored ?? {}) as Record<string, unknown>)) {
    const parsed = printerProfileSchema.safeParse(value);
    if (!parsed.success) throw new ConfigError(`printer ${name} in the config file: ${parsed.error.issues[0]!.message} (shipper printer remove ${name}, then add it again)`);
    printers[name] = parsed.data;
  }
  const print = printSettingsSchema.safeParse(config.print ?? {});
  if (!print.success) throw new ConfigError(`the config file's print.${print.error.issues[0]!.path.join('.')}: ${print.error.issues[0]!.message}`);
  return { printers, print: print.data };
}

export function profilePrinter(name: string, profile: PrinterProfile): Printer {
  const transport: Transport = profile.zpl ? { kind: 'zpl', address: parseTcpPrinter(profile.zpl)! } : { kind: 'spooler', queue: profile.queue };
  return { name, transport, media: profile.media, copies: profile.copies };
}

/** Where `--printer` (or the kind's default, or the system's default queue) sends a document of this kind. */
export function resolvePrinter(requested: string | undefined, kind: DocumentKind, config: PrintConfig): Printer {
  const name = requested?.trim() || config.print[kind];
  if (!name) return { name: "the system's default queue", transport: { kind: 'spooler', queue: undefined }, media: undefined, copies: undefined };
  if (Object.hasOwn(config.printers, name)) return profilePrinter(name, config.printers[name]!);
  const address = parseTcpPrinter(name);
  if (address) return { name: tcpUrl(address), transport: { kind: 'zpl', address }, media: undefined, copies: undefined };
  if (/^tcp:/i.test(name)) throw new ConfigError(`printer ${name}: not a tcp://HOST[:PORT] address (e.g. --printer tcp://192.168.1.50:9100)`);
  if (!queueSchema.safeParse(name).success) {
    throw new ConfigError(`printer ${name}: no such printer, and not a queue name (shipper printer list shows the printers; lpstat -p the queues)`);
  }
  return { name, transport: { kind: 'spooler', queue: name }, media: undefined, copies: undefined };
}

/** How the printer is reached, for lists and messages: `queue dock-laser`, `zpl tcp://10.0.0.5:9100`. */
export function describeTransport(transport: Transport): string {
  return transport.kind === 'zpl' ? `zpl ${tcpUrl(transport.address)}` : transport.queue ? `queue ${transport.queue}` : 'default queue';
}
