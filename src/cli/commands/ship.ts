/**
 * `shipper ship`: book a shipment, on a quote (`--quote ID`) or quoting and booking in one step
 * with the flags of `shipper quote`: the order is created (INITIALIZED, as published) and
 * confirmed (CONFIRMED) in one step, as ops expect; `--no-confirm` stops at INITIALIZED.
 *
 * *Decisions* (docs/published-wire.md): before anything is written, the published confirm checks
 * that the request itself shows (confirmChecks.ts: contact and phone on both addresses, the
 * description...) are made, and a request that fails them is refused (exit 2) naming every field
 * and the flag or key that gives it; nothing is invented. A confirm the server still refuses after
 * the create (remote mode, a race) says that the order was created and left INITIALIZED (exit 1).
 * A retried `--idempotency-key` whose order is already CONFIRMED is done.
 */
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { ShipperApi } from '../../api/types.js';
import type { Quote, QuoteRequestInput, Shipment, ShipmentRequestInput } from '../../domain/schemas.js';
import { formatCents } from '../output.js';
import { ADDRESS_SPEC_EXAMPLE } from '../addressSpec.js';
import { addBookingCarrierFlags, carrierFieldsFromFlags, type BookingCarrierFlags } from '../carrierOptions.js';
import { COMPONENT_SPEC_EXAMPLE, HAZMAT_SPEC_EXAMPLE, namingComponentFlags, parseComponentSpec } from '../componentSpec.js';
import type { CommandContext, ContextFactory } from '../context.js';
import type { ShipperCommand } from '../examples.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../domain/limits.js';
import { ProblemError, RemoteError, UsageError } from '../errors.js';
import { collect } from '../optionParsers.js';
import { pickupDateOption } from '../pickupDateFlag.js';
import { normaliseAccessorials } from '../quoteRequest.js';
import { CliError } from '../errors.js';
import { printShipment } from '../views/shipment.js';
import { isPublishedOnly, noteUnanswered, printPublishedAnswer } from '../views/published.js';

export interface ShipOptions extends BookingCarrierFlags {
  quote?: string;
  from?: string;
  to?: string;
  pickupDate?: string;
  component: string[];
  accessorial: string[];
  shipper?: string;
  consignee?: string;
  ref?: string;
  specialInstructions?: string;
  idempotencyKey?: string;
  bookAgain?: boolean;
  requote?: boolean;
  /** The order's published description; default the lines' descriptions (orderDescriptionOf). */
  description?: string;
  /** false (`--no-confirm`): create the order INITIALIZED and leave it so. */
  confirm?: boolean;
}

/** A consignee written inline whose city and state agree with its ZIP (the API checks them). */
const CONSIGNEE_EXAMPLE = 'name="Store 12",address1="1 Penn Plaza",city="New York",state=NY,zip=10001';
const EXAMPLE = `shipper ship --quote QUOTE_ID --shipper chicago-dc --consignee ${CONSIGNEE_EXAMPLE}`;

/** The API request the flags describe; `quote` is the booked quote, when --quote names one. */
export async function shipmentRequestFromOptions(ctx: CommandContext, options: ShipOptions, quote?: Quote): Promise<ShipmentRequestInput> {
  const missing = [!options.shipper && '--shipper NAME|ADDRESS', !options.consignee && '--consignee NAME|ADDRESS'].filter(Boolean);
  if (!options.quote && options.component.length === 0) missing.push('--component SPEC (or --quote ID)');
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`, `example: ${EXAMPLE}`);
  if (options.quote && options.accessorial.length > 0) {
    throw new UsageError(
      '--accessorial cannot change a quote: the shipment gets the accessorials it was quoted with',
      'quote again with the accessorials, or book without --quote',
    );
  }

  // The address book reads the store (zod, locks): loaded only when a shipment is booked.
  const { partyAddress } = await import('../savedLocations.js');
  const shipper = await partyAddress(ctx, options.shipper!, '--shipper');
  const consignee = await partyAddress(ctx, options.consignee!, '--consignee');
  // --from/--to are the ZIPs of the lane: they fill an inline address without zip and must agree with the rest.
  for (const [flag, zip, address, party] of [
    ['--from', options.from, shipper, 'shipper'],
    ['--to', options.to, consignee, 'consignee'],
  ] as const) {
    if (!zip) continue;
    if (address.zipCode === undefined || address.zipCode === '') address.zipCode = zip;
    else if (String(address.zipCode).slice(0, 5) !== zip.trim().slice(0, 5)) {
      throw new UsageError(`${flag} ${zip} differs from the ${party}'s ZIP ${String(address.zipCode)}; the lane runs from the shipper to the consignee`);
    }
  }

  const orderComponents = bookedLines(options.component.map(parseComponentSpec), quote);
  // The published description: --description; without it the engine (or, for Oway's service, the
  // remote client) gives the freight lines' own words (orderDescriptionOf), so a retried booking's
  // request is the one an earlier version sent.
  const description = options.description !== undefined ? { description: options.description } : {};

  return {
    ...(options.quote ? { quoteId: options.quote } : {}),
    ...(options.ref !== undefined ? { refNumber: options.ref } : {}),
    pickupAddress: shipper,
    deliveryAddress: consignee,
    ...description,
    ...(options.specialInstructions !== undefined ? { specialInstructions: options.specialInstructions } : {}),
    ...(options.pickupDate ? { requiredPickupDate: options.pickupDate } : {}),
    ...(options.accessorial.length > 0 ? { accessorials: normaliseAccessorials(options.accessorial) } : {}),
    ...(options.bookAgain ? { rebookQuote: true } : {}),
    ...(await carrierFieldsFromFlags(ctx, options)),
    orderComponents,
    // Flag values pass through as written: the API's schema judges them and names the field.
  } as ShipmentRequestInput;
}

/**
 * The lines a booking on a quote sends: the quoted lines whole (description, NMFC, packaging,
 * pieces, hazmat and the freight); the n-th `-c` changes or adds what it names on the n-th line,
 * and its freight must still be the quoted freight (the API compares); lines no `-c` names come
 * over whole. Without a quote, the `-c` lines as written.
 */
export function bookedLines(specs: Array<Record<string, unknown>>, quote: Quote | undefined): Array<Record<string, unknown>> {
  // A quote of Oway's service carries no freight lines: the -c lines as written.
  if (!quote?.orderComponents) return specs;
  const quoted = quote.orderComponents.map(({ densityPcf: _density, freightClass: _class, ...line }) =>
    Object.fromEntries(Object.entries(line).filter(([, value]) => value !== null)),
  );
  const changed = specs.map((spec, index) => {
    const line = quoted[index];
    if (!line) return spec;
    const hazmat = spec.hazmat && line.hazmat ? { hazmat: { ...(line.hazmat as object), ...(spec.hazmat as object) } } : {};
    return { ...line, ...spec, ...hazmat };
  });
  // Quoted lines after the last -c come over whole: one -c changes the first line, not the count.
  return [...changed, ...quoted.slice(specs.length)];
}

/**
 * --requote: the same freight, lane and accessorials on a new quote for the next pickup day (or
 * --pickup-date), with the price difference said, when the old quote expired or its day passed.
 */
async function requote(ctx: CommandContext, api: ShipperApi, old: Quote, pickupDate: string | undefined): Promise<Quote> {
  const { data: fresh, warnings } = await api.createQuote({
    pickupAddress: { zipCode: old.pickupAddress.zipCode, countryCode: 'US' },
    deliveryAddress: { zipCode: old.deliveryAddress.zipCode, countryCode: 'US' },
    ...(pickupDate ? { pickupDate } : {}),
    accessorials: old.accessorials,
    orderComponents: bookedLines([], old) as QuoteRequestInput['orderComponents'],
  });
  ctx.io.warnAll(warnings);
  const difference = fresh.quotedPriceInCents - old.quotedPriceInCents;
  const change = difference === 0 ? 'the same price' : `${difference > 0 ? '+' : '-'}${formatCents(Math.abs(difference))}`;
  ctx.io.note(
    `requoted ${old.id} (${formatCents(old.quotedPriceInCents)}, pickup ${old.requiredPickupDate}) as ${fresh.id} (${formatCents(fresh.quotedPriceInCents)}, pickup ${fresh.requiredPickupDate}): ${change}`,
  );
  return fresh;
}

/**
 * The key is the user's --idempotency-key: the server's words name its HTTP header
 * (`Idempotency-Key`), which the user never typed.
 */
function idempotencyKeyProblem(error: unknown, key: string | undefined): unknown {
  if (!(error instanceof ProblemError) || key === undefined) return error;
  const { problem } = error;
  if (problem.type.endsWith('idempotency-key-reused')) {
    return new ProblemError({ ...problem, detail: `--idempotency-key ${key} was already used to book a different shipment; give each new booking its own key` });
  }
  if (problem.violations?.some((violation) => violation.field === 'Idempotency-Key')) {
    return new ProblemError({
      ...problem,
      violations: problem.violations.map((violation) => (violation.field === 'Idempotency-Key' ? { ...violation, field: '--idempotency-key' } : violation)),
    });
  }
  return error;
}

/**
 * A booking sent to the server whose answer never came whole (a timeout, a connection cut off, an
 * answer that is not a shipment): it may have been booked. Says so, how to check, and the key
 * that makes running the command again safe.
 */
function mayHaveBooked(error: RemoteError, key: string, options: ShipOptions): RemoteError {
  const check = options.ref ? `shipper shipment list --ref ${shellWord(options.ref)}` : 'shipper shipment list --since today';
  const again = options.idempotencyKey !== undefined ? 'run the same command again (same --idempotency-key)' : `run the same command again with --idempotency-key ${key}`;
  return new RemoteError(`${error.message}. The shipment may have been booked all the same: check with ${check}; to finish safely, ${again}: it books at most once`);
}

const shellWord = (text: string): string => (/^[\w.:/#@+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

export async function runShip(ctx: CommandContext, options: ShipOptions): Promise<void> {
  // Checked here as the server checks its header, so a key refused remotely is refused locally too.
  if (options.idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(options.idempotencyKey)) {
    throw new UsageError('--idempotency-key must be 1 to 255 printable ASCII characters without spaces');
  }
  const api = await ctx.api();
  if (options.requote && !options.quote) throw new UsageError('--requote books the freight of a quote (--quote ID) on a new quote');
  if (options.bookAgain && !options.quote)
    throw new UsageError('--book-again books a quote (--quote ID) that already has a shipment; without --quote every booking is on a quote of its own');
  let quote = options.quote ? (await api.getQuote(options.quote)).data : undefined;
  const pickupDate = await pickupDateOption(ctx, options.pickupDate, options.from ?? quote?.pickupAddress?.zipCode);
  if (options.requote && quote) {
    quote = await requote(ctx, api, quote, pickupDate);
    options = { ...options, quote: quote.id };
  }
  const request = await shipmentRequestFromOptions(ctx, { ...options, pickupDate: options.requote ? undefined : pickupDate }, quote);
  const confirm = options.confirm !== false;
  if (confirm) await refuseUnconfirmable(request);
  // Remote mode always sends a key (the user's, else one of its own), said back when the answer is
  // lost after sending, so that the same command with that key books at most once.
  const key = options.idempotencyKey ?? (ctx.mode === 'remote' ? `ship-${randomUUID()}` : undefined);
  const result = await api.createShipment(request, { idempotencyKey: key }).catch((error: unknown) => {
    if (error instanceof RemoteError && error.reached !== false && key !== undefined) throw mayHaveBooked(error, key, options);
    throw idempotencyKeyProblem(error, options.idempotencyKey);
  });
  const { warnings, replayed } = result;
  let shipment = result.data;
  ctx.io.warnAll(namingComponentFlags(warnings, options.component.length));
  if (replayed) {
    ctx.io.note(
      options.idempotencyKey !== undefined
        ? `already booked with --idempotency-key ${options.idempotencyKey}: nothing new was booked`
        : 'the server had booked this shipment on an earlier attempt whose answer was lost: this is that booking, nothing new was booked',
    );
  }
  // Confirmed in a second step, as published; an order the create answered as further on (a replay
  // of a confirmed order) is done.
  let confirmed = false;
  if (confirm && shipment.orderStatus === 'INITIALIZED') {
    shipment = await confirmCreated(api, shipment);
    confirmed = true;
  }
  // --json wins over --quiet: a script that asked for the document gets the document, with its warnings as the API answers them.
  noteUnanswered(ctx.io, result);
  if (ctx.io.options.json) return ctx.io.json({ ...shipment, warnings });
  if (ctx.io.options.quiet) return ctx.io.out(shipment.id ?? shipment.orderNumber);
  const title = replayed ? 'Shipment' : confirmed ? 'Confirmed shipment' : 'Created shipment (INITIALIZED)';
  if (isPublishedOnly(result)) printPublishedAnswer(ctx.io, title, shipment);
  else printShipment(ctx.io, shipment, await ctx.zips(), title);
  if (shipment.orderStatus === 'INITIALIZED') ctx.io.info(`Not confirmed (--no-confirm): confirm it with  shipper shipment confirm ${shipment.orderNumber}`);
}

/** Where each field the confirm checks name is given on the command line. */
function flagOf(field: string): string {
  const [address, key] = field.split('.');
  const flag = address === 'pickupAddress' ? '--shipper' : address === 'deliveryAddress' ? '--consignee' : undefined;
  const keys: Record<string, string> = {
    contactPerson: 'contact=',
    phoneNumber: 'phone=',
    name: 'name=',
    address1: 'address1=',
    zipCode: 'zip=',
    openTime: 'the open time',
    closeTime: 'the close time',
  };
  if (flag && key) return `${keys[key] ?? `${key}=`} in ${flag} (or its saved location's ${key === 'contactPerson' ? '--contact' : key === 'phoneNumber' ? '--phone' : key})`;
  if (field === 'description') return '--description TEXT, or desc= on a -c line';
  const line = /^orderComponents\[(\d+)\]/.exec(field);
  return line ? `-c line ${Number(line[1]) + 1}` : field;
}

/**
 * The published confirm checks the request shows (confirmChecks.ts), before anything is written:
 * a request that fails them is refused, naming every field and where it is given. A request the
 * schema refuses is left to the create, which names its own violations (and writes nothing).
 */
async function refuseUnconfirmable(request: ShipmentRequestInput): Promise<void> {
  const [{ shipmentRequestSchema }, { parseRequest }, { requestConfirmViolations }] = await Promise.all([
    import('../../domain/schemas.js'),
    import('../../domain/validation.js'),
    import('../../domain/confirmChecks.js'),
  ]);
  const parsed = parseRequest(shipmentRequestSchema, request);
  if (!parsed.ok) return;
  // A request without quoteId is quoted as it is created: it will have its quote.
  const violations = requestConfirmViolations(parsed.value, parsed.value.quoteId ?? 'quoted on creation');
  if (violations.length === 0) return;
  const lines = violations.map((violation) => `${violation.field}: ${violation.reason}; give it with ${flagOf(violation.field)}`);
  throw new UsageError(
    [
      'the order could not be confirmed as published, so nothing was booked; it lacks:',
      ...lines.map((line) => `  ${line}`),
      'Add them, or create it unconfirmed (INITIALIZED) with --no-confirm and confirm it later with shipper shipment confirm SO-...',
    ].join('\n'),
  );
}

/** The confirm after the create: refused, the order exists INITIALIZED, and the user is told so with the violations. */
async function confirmCreated(api: ShipperApi, shipment: Shipment): Promise<Shipment> {
  try {
    return (await api.confirmShipment(shipment.orderNumber)).data;
  } catch (error) {
    // A replayed create answers the order as first created: confirmed since (an earlier run of this command), it is done.
    const now = error instanceof ProblemError && error.status === 400 ? await api.getShipment(shipment.orderNumber).catch(() => undefined) : undefined;
    if (now && now.data.orderStatus !== 'INITIALIZED' && now.data.orderStatus !== 'CANCELLED') return now.data;
    const why = error instanceof ProblemError ? problemWords(error) : error instanceof Error ? error.message : String(error);
    throw new CliError(
      `${shipment.orderNumber} was created and left INITIALIZED: its confirm was refused (${why}); once that is put right, confirm it with shipper shipment confirm ${shipment.orderNumber}, or cancel it with shipper shipment cancel ${shipment.orderNumber}`,
      error instanceof ProblemError || error instanceof RemoteError ? error : 'REJECTED',
    );
  }
}

const problemWords = (error: ProblemError): string => {
  const violations = error.problem.violations ?? [];
  return violations.length > 0 ? violations.map((violation) => `${violation.field}: ${violation.reason}`).join('; ') : (error.problem.detail ?? error.message);
};

export function registerShipCommand(program: ShipperCommand, context: ContextFactory): void {
  const ship = program
    .command('ship')
    .description(
      'book a shipment: create the order and confirm it (CONFIRMED) in one step, on a quote (--quote ID) or quoting first with the flags of `shipper quote`; --no-confirm leaves it INITIALIZED',
    )
    .option('--quote <id>', 'book this quote (unexpired; the freight must be the quoted freight)')
    .option('--shipper <name|address>', `saved location or address: ${ADDRESS_SPEC_EXAMPLE}`)
    .option('--consignee <name|address>', 'saved location or address, as --shipper')
    .option(
      '-c, --component <spec>',
      'one freight line (repeat for more): pallets=N,weight=LB,dims=LxWxH[,desc=,nmfc=,pkg=,pieces=]; with --quote: default the quoted lines whole, and a -c line changes what it names',
      collect,
      [],
    )
    .option('--from <zip>', "origin ZIP (the shipper's; fills an address without zip)")
    .option('--to <zip>', "destination ZIP (the consignee's)")
    .option('--pickup-date <date>', 'pickup date: YYYY-MM-DD or words (tomorrow, friday, +3); default the next business day (with --quote: the quoted one)')
    .option('-a, --accessorial <code>', 'accessorial service, e.g. LIFTGATE_DELIVERY (repeat or comma-separate; not with --quote)', collect, [])
    .option('--ref <refNumber>', 'your reference (PO number...), at most 64 characters')
    .option('--special-instructions <text>', 'printed on the BOL')
    .option('--description <text>', "what the order is, for the carrier (the published description, at most 256 characters); default the freight lines' descriptions joined")
    .option('--no-confirm', 'create the order INITIALIZED without confirming it (confirm it later: shipper shipment confirm SO-...); no contact or phone needed')
    .option(
      '--requote',
      'book the freight of --quote on a new quote for the next pickup day (or --pickup-date), when the old one expired or its pickup day passed; the price difference is shown',
    )
    .option('--book-again', 'book a quote that already has a booked shipment once more (refused otherwise, to prevent double bookings)')
    .option('--idempotency-key <key>', 'retry-safe booking: the same key and request return the first shipment instead of a second');
  addBookingCarrierFlags(ship)
    .examples(
      'shipper ship --quote qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --shipper chicago-dc --consignee nyc-store --ref PO-4711',
      `shipper ship --shipper chicago-dc --consignee ${CONSIGNEE_EXAMPLE} \\\n-c pallets=2,weight=1200,dims=48x40x48,desc="Machine parts",nmfc=161030,pkg=crates,pieces=10 -a LIFTGATE_DELIVERY --json`,
      'shipper location add chicago-dc --name "Acme Chicago DC" --street1 "2100 S Halsted St" --city Chicago --state IL --zip 60608',
      'shipper ship --quote qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3O --shipper chicago-dc --consignee nyc-store \\\n--carrier "Old Dominion" --scac ODFL --terms collect --ready 08:00 --close 16:30 --cod 1250 --declared-value 5000',
      `shipper ship --shipper chicago-dc --consignee nyc-store -c ${HAZMAT_SPEC_EXAMPLE} --emergency-phone 800-424-9300`,
    )
    .addHelpText(
      'after',
      `
The order is created and confirmed: confirm needs a contact person and phone on both addresses
(contact= and phone= in the address, or the saved location's --contact and --phone) and a
description (--description, or desc= on the lines); without them ship refuses before booking,
naming each. --no-confirm creates it INITIALIZED: shipper shipment confirm SO-... confirms it later.
The freight class is never an input: it is computed from density at quote time and printed as quoted.
A component SPEC is ${COMPONENT_SPEC_EXAMPLE}`,
    )
    .action(async (options: ShipOptions, command: Command) => runShip(context(command), options));
}
