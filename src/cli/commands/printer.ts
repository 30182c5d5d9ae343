/**
 * `shipper printer add|list|remove|test`: the dock's printers, named once and kept with the config
 * (`printers.NAME`), not in the store: a spooler queue (`--queue`) or a thermal printer that takes
 * raw ZPL (`--zpl tcp://HOST[:PORT]`), with its media and copies. `--default-for bol,labels` makes
 * it the printer of those documents (`print.bol`, `print.labels`).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { chmodSync } from 'node:fs';
import type { CommandContext, ContextFactory } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import type { ShipperCommand } from '../examples.js';
import { openConf } from './config.js';

interface AddOptions {
  queue?: string;
  zpl?: string;
  media?: string;
  copies?: string;
  defaultFor?: string;
}

const KINDS = ['bol', 'labels', 'invoice', 'dispute'] as const;

async function printersModule() {
  return import('../../printing/printers.js');
}

async function currentConfig(ctx: CommandContext) {
  const [{ readConfigFile }, { printConfigOf }, { file }] = await Promise.all([import('../../config/settings.js'), printersModule(), ctx.configLocation()]);
  return printConfigOf(readConfigFile(file) as Record<string, unknown>);
}

export async function runPrinterAdd(ctx: CommandContext, name: string, options: AddOptions): Promise<void> {
  const { printerNameSchema, printerProfileSchema } = await printersModule();
  if (!printerNameSchema.safeParse(name).success) throw new UsageError(`printer name ${name}: letters, digits, ., - and _ (at most 64)`);
  if (/^tcp:/i.test(name)) throw new UsageError('a printer name cannot be a tcp:// address', 'give it a name, e.g. shipper printer add zebra-dock2 --zpl tcp://10.0.0.50:9100');
  if (Boolean(options.queue) === Boolean(options.zpl)) throw new UsageError('give either --queue QUEUE (a spooler queue) or --zpl tcp://HOST[:PORT] (a thermal printer)');
  const copies = options.copies === undefined ? undefined : /^\d{1,2}$/.test(options.copies) ? Number(options.copies) : NaN;
  const parsed = printerProfileSchema.safeParse({ queue: options.queue, zpl: options.zpl, media: options.media, copies });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`${issue.path.length > 0 ? `--${String(issue.path[0])}` : name}: ${issue.message}`);
  }
  const kinds = options.defaultFor === undefined ? [] : options.defaultFor.split(',').map((kind) => kind.trim().toLowerCase());
  for (const kind of kinds) if (!(KINDS as readonly string[]).includes(kind)) throw new UsageError(`--default-for ${kind}: one of ${KINDS.join(', ')}`);
  if (options.zpl && kinds.some((kind) => kind !== 'labels'))
    throw new UsageError('a ZPL printer prints labels only: BOLs, invoices and dispute packs are letter-size PDFs (--default-for labels)');
  const existing = await currentConfig(ctx);
  const replaced = Object.hasOwn(existing.printers, name);
  const conf = await openConf(ctx);
  const profile = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  // conf's dotted keys would split a name with a dot: the whole map is written.
  conf.set('printers', { ...((conf.get('printers') as Record<string, unknown> | undefined) ?? {}), [name]: profile });
  for (const kind of kinds) conf.set(`print.${kind}`, name);
  chmodSync(conf.path, 0o600);
  if (ctx.io.options.json) return ctx.io.json({ name, ...profile, defaultFor: kinds, replaced });
  ctx.io.info(
    `${replaced ? 'Replaced' : 'Added'} printer ${name}${kinds.length > 0 ? `, the printer of ${kinds.join(', ')}` : ''}; shipper printer test ${name} prints a test ${options.zpl ? 'label' : 'page'}`,
  );
}

export async function runPrinterList(ctx: CommandContext): Promise<void> {
  const [config, { describeTransport, profilePrinter, DEFAULT_MEDIA }] = await Promise.all([currentConfig(ctx), printersModule()]);
  const rows = Object.entries(config.printers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, profile]) => {
      const printer = profilePrinter(name, profile);
      const defaultFor = KINDS.filter((kind) => config.print[kind] === name);
      return { name, ...profile, defaultFor, transport: describeTransport(printer.transport) };
    });
  if (ctx.io.options.json) return ctx.io.json({ printers: rows.map(({ transport: _transport, ...row }) => row), print: config.print });
  if (rows.length === 0) {
    ctx.io.note('No printers: documents go to the default queue of the system. Add one: shipper printer add NAME (--queue QUEUE | --zpl tcp://HOST:9100)');
  } else {
    ctx.io.out(
      ctx.io.fittedTable(
        ['Printer', 'Prints to', 'Media', 'Copies', 'Default for'],
        rows.map((row) => [
          row.name,
          row.transport,
          row.media ?? (row.zpl ? '4x6 (ZPL)' : `${DEFAULT_MEDIA.bol} / ${DEFAULT_MEDIA.labels}`),
          String(row.copies ?? 1),
          row.defaultFor.join(', ') || '-',
        ]),
        [{ shrink: [1], min: 12 }],
      ),
    );
  }
  // A default that names no profile is a queue or an address: said, so a removed printer is noticed.
  for (const kind of KINDS) {
    const named = config.print[kind];
    if (named && !Object.hasOwn(config.printers, named)) ctx.io.note(`print.${kind} = ${named} (a queue or address, not a printer of this list)`);
  }
}

export async function runPrinterRemove(ctx: CommandContext, name: string): Promise<void> {
  const config = await currentConfig(ctx);
  if (!Object.hasOwn(config.printers, name)) throw new CliError(`no printer ${name}; shipper printer list shows them`, 'NOT_FOUND');
  const conf = await openConf(ctx);
  const printers = { ...((conf.get('printers') as Record<string, unknown> | undefined) ?? {}) };
  delete printers[name];
  conf.set('printers', printers);
  // Its documents go back to the system's default queue, not to a queue that happens to share its name.
  const cleared = KINDS.filter((kind) => config.print[kind] === name);
  for (const kind of cleared) conf.delete(`print.${kind}`);
  chmodSync(conf.path, 0o600);
  if (ctx.io.options.json) return ctx.io.json({ name, removed: true, defaultsCleared: cleared });
  ctx.io.info(
    `Removed printer ${name}${cleared.length > 0 ? `; ${cleared.map((kind) => `print.${kind}`).join(', ')} unset (those documents go to the system default queue)` : ''}`,
  );
}

/** A test page (PDF, the printer's media) or a test label (ZPL) that says which printer and when. */
export async function runPrinterTest(ctx: CommandContext, name: string): Promise<void> {
  const [config, printers, send, clock] = await Promise.all([currentConfig(ctx), printersModule(), import('../../printing/send.js'), ctx.clock()]);
  if (!Object.hasOwn(config.printers, name)) throw new CliError(`no printer ${name}; shipper printer list shows them`, 'NOT_FOUND');
  const printer = printers.profilePrinter(name, config.printers[name]!);
  const when = clock()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const where = printers.describeTransport(printer.transport);
  const timeoutMs = config.print.timeoutMs ?? printers.DEFAULT_PRINT_TIMEOUT_MS;
  const session = await send.openPrinter(printer, { env: ctx.env, timeoutMs });
  const lines = ['shipper test', `printer ${name}`, where, `at ${when}`];
  let result: { requestId?: string | undefined };
  if (printer.transport.kind === 'zpl') {
    const zpl = `^XA^CI28^PW812^LL1218^LH0,0\n${lines.map((line, index) => `^FO40,${60 + index * 70}^A0N,50,50^FB730,1,0,L^FH^FD${line.replace(/[\^~]/g, ' ')}^FS`).join('\n')}\n^XZ\n`;
    result = await session.send({ kind: 'labels', name: `test-${name}`, format: 'zpl', bytes: new TextEncoder().encode(zpl) }, 1);
  } else {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    const small = /^4x6$/i.test(printer.media ?? '');
    const page = pdf.addPage(small ? [288, 432] : [612, 792]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    lines.forEach((line, index) => page.drawText(line, { x: 36, y: page.getHeight() - 60 - index * 28, size: small ? 16 : 20, font }));
    pdf.setTitle(`shipper test page: ${name}`);
    result = await session.send({ kind: small ? 'labels' : 'bol', name: `test-${name}`, format: 'pdf', bytes: await pdf.save() }, 1);
  }
  if (ctx.io.options.json) return ctx.io.json({ name, printed: true, at: when, ...(result.requestId ? { requestId: result.requestId } : {}) });
  ctx.io.info(`Sent a test ${printer.transport.kind === 'zpl' ? 'label' : 'page'} to ${name} (${where})${result.requestId ? `: ${result.requestId}` : ''}`);
}

export function registerPrinterCommands(program: ShipperCommand, context: ContextFactory): void {
  const printer = program
    .command('printer')
    .description('the dock printers documents go to with --print: spooler queues and ZPL thermal printers')
    .examples(
      'shipper printer add dock-laser --queue HP_LaserJet_M507 --copies 3 --default-for bol',
      'shipper printer add zebra-2 --zpl tcp://10.0.0.50:9100 --default-for labels',
      'shipper printer list',
    );
  printer
    .command('add <name>')
    .description('name a printer (replaces one of the same name)')
    .option('--queue <queue>', 'a queue of the system spooler (lpstat -p lists them)')
    .option('--zpl <address>', 'a thermal printer taking raw ZPL: tcp://HOST[:PORT] (port 9100 by default)')
    .option('--media <media>', 'the paper: Letter, Legal, A4, 4x6 (default: Letter for BOLs, 4x6 for labels)')
    .option('--copies <n>', 'copies of each document, 1-99 (default 1; --copies on a command beats it)', (value: string) => {
      if (!/^\d{1,2}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number from 1 to 99');
      return value;
    })
    .option('--default-for <kinds>', 'make it the printer of these documents: bol, labels, invoice, dispute (comma-separated)')
    .examples(
      'shipper printer add dock-laser --queue HP_LaserJet_M507 --copies 3 --default-for bol,invoice',
      'shipper printer add zebra-2 --zpl tcp://10.0.0.50 --default-for labels',
    )
    .action(async (name: string, options: AddOptions, command: Command) => runPrinterAdd(context(command), name, options));
  printer
    .command('list')
    .description('the printers, where each prints to, and the documents each is the default for')
    .examples('shipper printer list', 'shipper printer list --json')
    .action(async (_options: unknown, command: Command) => runPrinterList(context(command)));
  printer
    .command('remove <name>')
    .description('forget a printer (the documents it was the default for go to the system default queue)')
    .examples('shipper printer remove zebra-2')
    .action(async (name: string, _options: unknown, command: Command) => runPrinterRemove(context(command), name));
  printer
    .command('test <name>')
    .description('print a test page (or a ZPL test label) that says which printer and when')
    .examples('shipper printer test zebra-2')
    .action(async (name: string, _options: unknown, command: Command) => runPrinterTest(context(command), name));
}
