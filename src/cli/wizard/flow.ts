/**
 * The interactive quote wizard as a flow over injected parts (prompter, API, ZIP directory,
 * saved locations, clock, file writer), so tests can drive it with scripted answers and the
 * terminal shell (quoteWizard.ts) only wires the real ones.
 *
 * Order: lane (ZIPs checked as typed) -> pickup date (closed days refused with the reason) ->
 * accessorials -> freight lines -> quote shown -> book (reference, addresses, saved locations)
 * -> BOL PDF. Nothing is written before the quote is shown; Ctrl-C after that says what exists.
 */
import { CliError, ExitCode, ProblemError, problemLine } from '../../api/problems.js';
import type { ShipperApi } from '../../api/types.js';
import { checkAddressAgainstZip, type ZipPlaceName } from '../../domain/addressZip.js';
import { componentDensity } from '../../domain/density.js';
import type { ZipPlace } from '../../domain/rating.js';
import {
  addressSchema,
  orderComponentInputSchema,
  shipmentRequestSchema,
  type Address,
  type OrderComponentInput,
  type Quote,
  type Shipment,
  type TransitRow,
} from '../../domain/schemas.js';
import { DEFAULT_CARRIER_HOLIDAYS, businessDayReason, localDateInZone, nextBusinessDay } from '../../domain/transit.js';
import { formatFieldPath } from '../../domain/validation.js';
import { locationNameSchema, type SavedLocation } from '../../store/locations.js';
import { describeDate, parseUserDate, relativeDay } from '../dates.js';
import { printQuote } from '../views/quote.js';
import { formatCents, formatDate, formatInstant, formatNumber, plural, type IO } from '../output.js';
import { isPromptInterrupt, type Prompter, type Validation } from './prompter.js';

export interface AccessorialChoice {
  code: string;
  description: string;
  /** Known only from a local tariff. */
  amountInCents?: number | undefined;
}

/** What the wizard needs of saved locations (LocationBook). */
export interface LocationDirectory {
  list(): Promise<SavedLocation[]>;
  get(name: string): Promise<SavedLocation | undefined>;
  save(name: string, address: Address): Promise<unknown>;
}

export interface WizardDeps {
  prompter: Prompter;
  api: ShipperApi;
  io: IO;
  zips: { lookup(postalCode: string): ZipPlace | undefined };
  locations: LocationDirectory;
  now: () => Date;
  accessorials: ReadonlyArray<AccessorialChoice>;
  /** Where a relative PDF path is resolved. */
  resolvePath: (path: string) => string;
  fileExists: (path: string) => boolean;
  writeFile: (path: string, bytes: Uint8Array) => Promise<void>;
  /** The mode label for the API's mode of operation; used in messages only. */
  mode: 'local' | 'remote';
}

/** Answers already given as flags (`shipper quote -i --from 60601 ...`): defaults or skipped steps. */
export interface WizardDefaults {
  from?: string | undefined;
  to?: string | undefined;
  pickupDate?: string | undefined;
  accessorials: string[];
  /** Parsed --component specs: when present the freight lines are not asked. */
  components: Array<Record<string, unknown>>;
}

export interface WizardResult {
  quote: Quote;
  shipment?: Shipment;
  bolFile?: string;
}

const ZIP = /^\d{5}(?:-?\d{4})?$/;
export const STANDARD_PALLET = '48x40x48';

// -----------------------------------------------------------------------------------------------
// Checks of single answers (pure; the same messages as the API where the API has one)

export function zipProblem(value: string, field: string, zips: WizardDeps['zips']): Validation {
  const zip = value.trim();
  if (!ZIP.test(zip)) return `a ZIP code is 5 digits, e.g. 60601 (${field})`;
  return zips.lookup(zip) ? true : `unknown ZIP ${zip.slice(0, 5)} (${field})`;
}

/** "Chicago, IL" under a ZIP as it is typed, or why it is not one yet. */
export function zipHint(value: string, zips: WizardDeps['zips']): string {
  const zip = value.trim();
  if (!/^\d{5}/.test(zip)) return '';
  const place = zips.lookup(zip.slice(0, 5));
  return place ? `${place.city}, ${place.state}` : 'unknown ZIP';
}

/** "48x40x48" -> dimensions; null when it is not three numbers. */
export function parseDimensions(value: string): { length: number; width: number; height: number } | null {
  const parts = value.trim().split(/\s*[xX*×]\s*/);
  if (parts.length !== 3 || parts.some((part) => part === '' || !Number.isFinite(Number(part)))) return null;
  const [length, width, height] = parts.map(Number) as [number, number, number];
  return { length, width, height };
}

/** "1,200", "1200 lb" -> 1200; anything else is passed on for the schema to name. */
export function readNumber(value: string): number | string {
  const text = value.trim().replace(/,/g, '').replace(/\s*(lbs?|pounds?|in|inches)\.?$/i, '');
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : value.trim();
}

const PLACEHOLDER_COMPONENT = { palletCount: 1, poundsWeight: 1, dimensions: { length: 1, width: 1, height: 1 } };

/**
 * The API schema's verdict on one field of an order component: the same rule and message as a
 * request would get, e.g. "pieceCount must be 0 or more (orderComponents[0].pieceCount)".
 */
export function componentFieldProblem(field: string, value: unknown, index: number): Validation {
  const result = orderComponentInputSchema.safeParse({ ...PLACEHOLDER_COMPONENT, [field]: value });
  if (result.success) return true;
  const issue = result.error.issues.find((candidate) => candidate.path[0] === field);
  if (!issue) return true;
  return `${issue.message.replace(/^Invalid input: /, '')} (${formatFieldPath(['orderComponents', index, ...issue.path])})`;
}

export function addressFieldProblem(field: keyof typeof addressSchema.shape, value: string, role: string): Validation {
  const result = addressSchema.shape[field].safeParse(value);
  return result.success ? true : `${result.error.issues[0]?.message ?? 'is not valid'} (${role}.${field})`;
}

/** The state as the API judges it: a 2-letter code that agrees with the ZIP of the quoted lane. */
export function addressStateProblem(value: string, place: ZipPlaceName, role: string): Validation {
  const form = addressFieldProblem('state', value, role);
  if (form !== true) return form;
  const [violation] = checkAddressAgainstZip({ state: value }, place, role).violations;
  return violation ? `${violation.message} (${violation.field})` : true;
}

// -----------------------------------------------------------------------------------------------
// The flow

export async function runWizardFlow(deps: WizardDeps, defaults: WizardDefaults): Promise<WizardResult> {
  const { io } = deps;
  io.info(io.color.bold('Quote LTL freight step by step.') + io.color.dim(' Ctrl-C quits; nothing is saved before the quote is shown.'));
  const origin = await askZip(deps, 'origin', defaults.from);
  const destination = await askZip(deps, 'destination', defaults.to);
  const pickupDate = await askPickupDate(deps, origin, destination, defaults.pickupDate);
  const accessorials = await askAccessorials(deps, defaults.accessorials);
  const orderComponents = defaults.components.length > 0 ? defaults.components : await askComponents(deps);

  const { data: quote, warnings } = await deps.api.createQuote({
    origin: { postalCode: origin.postalCode, countryCode: 'US' },
    destination: { postalCode: destination.postalCode, countryCode: 'US' },
    pickupDate,
    accessorials,
    // Answers pass through as typed: the API's schema judges them.
    orderComponents: orderComponents as OrderComponentInput[],
  });
  warnings.forEach((warning) => io.warn(warning));
  io.out('');
  printQuote(io, quote, deps.zips, deps.now());
  io.out('');

  const shipment = await afterInterrupt(`cancelled; quote ${quote.id} is saved, nothing was booked`, () => askAndBook(deps, quote, orderComponents));
  if (!shipment) return { quote };
  const bolFile = await afterInterrupt(
    `cancelled; shipment ${shipment.orderNumber} is booked (${shipment.id}); print its BOL with: shipper bol ${shipment.id}`,
    () => askAndPrintBol(deps, shipment),
  );
  return bolFile ? { quote, shipment, bolFile } : { quote, shipment };
}

/** Ctrl-C once something exists: say what was kept instead of "nothing was written". */
async function afterInterrupt<T>(message: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isPromptInterrupt(error)) throw new CliError(message, ExitCode.interrupted);
    throw error;
  }
}

async function askZip(deps: WizardDeps, role: 'origin' | 'destination', preset: string | undefined): Promise<ZipPlace> {
  const field = `${role}.postalCode`;
  const c = deps.io.color;
  const answer = await deps.prompter.input({
    message: role === 'origin' ? 'Pickup ZIP (origin)' : 'Delivery ZIP (destination)',
    default: preset,
    transformer: (value, { isFinal }) => {
      const hint = zipHint(value, deps.zips);
      if (!hint) return value;
      return `${isFinal ? c.cyan(value) : value}  ${hint === 'unknown ZIP' ? c.yellow(hint) : c.dim(hint)}`;
    },
    validate: (value) => zipProblem(value, field, deps.zips),
  });
  return deps.zips.lookup(answer.trim().slice(0, 5))!;
}

interface PickupCheck {
  ok: boolean;
  message?: string;
  row?: TransitRow | undefined;
  timeZone?: string | undefined;
}

/**
 * Asks the API (so the server's holiday calendar decides in remote mode) whether carriers pick up
 * on that day. A server without the transit extension falls back to the standard carrier holidays.
 */
async function checkPickup(deps: WizardDeps, origin: ZipPlace, destination: ZipPlace, date: string | undefined): Promise<PickupCheck & { date: string }> {
  try {
    const { data } = await deps.api.transitTimes({
      origin: { postalCode: origin.postalCode, countryCode: 'US' },
      destinations: [{ postalCode: destination.postalCode, countryCode: 'US' }],
      ...(date ? { pickupDate: date } : {}),
    });
    const lane = data.lanes[0]!;
    const first = lane.rows[0]!;
    const pickup = lane.rows.find((row) => row.pickupAvailable) ?? first;
    if (!first.pickupAvailable) {
      return {
        ok: false,
        date: first.pickupDate,
        message: `${formatDate(first.pickupDate)} is ${first.closedReason}: carriers do not pick up; next pickup ${formatDate(pickup.pickupDate)} (pickupDate)`,
      };
    }
    return { ok: true, date: first.pickupDate, row: first, timeZone: lane.destination.timeZone };
  } catch (error) {
    if (error instanceof ProblemError && error.problem.violations?.length) return { ok: false, date: date ?? '', message: problemLine(error.problem) };
    if (!(error instanceof ProblemError && (error.status === 404 || error.status === 405))) throw error;
    const today = localDateInZone(deps.now(), origin.timeZone);
    const day = date ?? nextBusinessDay(today, DEFAULT_CARRIER_HOLIDAYS);
    if (day < today) return { ok: false, date: day, message: `${day} is in the past (today is ${today} at the origin) (pickupDate)` };
    const reason = businessDayReason(day, DEFAULT_CARRIER_HOLIDAYS);
    if (reason) {
      return { ok: false, date: day, message: `${formatDate(day)} is ${reason}: carriers do not pick up; next pickup ${formatDate(nextBusinessDay(day, DEFAULT_CARRIER_HOLIDAYS))} (pickupDate)` };
    }
    return { ok: true, date: day };
  }
}

async function askPickupDate(deps: WizardDeps, origin: ZipPlace, destination: ZipPlace, preset: string | undefined): Promise<string> {
  const today = localDateInZone(deps.now(), origin.timeZone);
  const first = await checkPickup(deps, origin, destination, undefined);
  let accepted: PickupCheck | undefined;
  const answer = await deps.prompter.input({
    message: 'Pickup date',
    default: preset ?? first.date,
    transformer: (value) => {
      const parsed = parseUserDate(value, today);
      if (!parsed.ok) return value;
      // Words get their date, dates get their words: "friday  Fri 2026-11-27", "2026-11-24  tomorrow".
      const hint = value.trim() === parsed.date ? describeDate(parsed.date, today) : formatDate(parsed.date);
      return `${value}  ${deps.io.color.dim(hint)}`;
    },
    validate: async (value) => {
      const parsed = parseUserDate(value, today);
      if (!parsed.ok) return `${parsed.message} (pickupDate)`;
      const check = await checkPickup(deps, origin, destination, parsed.date);
      if (!check.ok) return check.message ?? `no pickup on ${parsed.date} (pickupDate)`;
      accepted = check;
      return true;
    },
  });
  const parsed = parseUserDate(answer, today);
  const date = parsed.ok ? parsed.date : answer.trim();
  const row = accepted?.row;
  if (row && row.pickupDate === date) {
    const relative = relativeDay(date, today);
    const day = `${formatDate(date)}${relative ? ` (${relative})` : ''}`;
    deps.io.info(
      deps.io.color.dim(
        row.transitDays === null || row.estimatedDeliveryDate === null
          ? `  Pickup ${day}: no coverage on this lane, so no transit days or ETA`
          : `  Pickup ${day}: ${plural(row.transitDays, 'business day')} in transit, ETA ${formatInstant(row.estimatedDeliveryDate, accepted?.timeZone)}`,
      ),
    );
  }
  return date;
}

async function askAccessorials(deps: WizardDeps, preset: string[]): Promise<string[]> {
  if (deps.accessorials.length === 0) return preset;
  const width = Math.max(...deps.accessorials.map((choice) => choice.code.length));
  return deps.prompter.checkbox({
    message: 'Accessorial services (space to select, enter when done)',
    choices: deps.accessorials.map((choice) => ({
      name: `${choice.code.padEnd(width)}  ${choice.description}${choice.amountInCents !== undefined ? ` (+${formatCents(choice.amountInCents)})` : ''}`,
      value: choice.code,
      short: choice.code,
      checked: preset.includes(choice.code),
    })),
  });
}

async function askComponents(deps: WizardDeps): Promise<Array<Record<string, unknown>>> {
  const components: Array<Record<string, unknown>> = [];
  do {
    components.push(await askComponent(deps, components.length));
  } while (await deps.prompter.confirm({ message: 'Add another line?', default: false }));
  return components;
}

async function askComponent(deps: WizardDeps, index: number): Promise<Record<string, unknown>> {
  const { prompter, io } = deps;
  const line = `Line ${index + 1}`;
  io.info(io.color.bold(`${line} of freight`));
  const number = (field: string) => (value: string) => componentFieldProblem(field, readNumber(value), index);
  const palletCount = Number(readNumber(await prompter.input({ message: `${line}: pallets (handling units)`, default: '1', validate: number('palletCount') })));
  const poundsWeight = Number(readNumber(await prompter.input({ message: `${line}: total weight of the ${plural(palletCount, 'pallet')} (lb)`, validate: number('poundsWeight') })));
  const dimensions = parseDimensions(
    await prompter.input({
      message: `${line}: dimensions of one pallet, L x W x H (in)`,
      default: STANDARD_PALLET,
      transformer: (value) => {
        const dims = parseDimensions(value);
        if (!dims || componentFieldProblem('dimensions', dims, index) !== true) return value;
        const { densityPcf, freightClass } = componentDensity(poundsWeight, palletCount, dims);
        return `${value}  ${io.color.dim(`${formatNumber(densityPcf)} pcf, class ${freightClass}`)}`;
      },
      validate: (value) => {
        const dims = parseDimensions(value);
        if (!dims) return `write length x width x height in inches, e.g. ${STANDARD_PALLET} (orderComponents[${index}].dimensions)`;
        return componentFieldProblem('dimensions', dims, index);
      },
    }),
  )!;
  const text = (field: string) => (value: string) => componentFieldProblem(field, value.trim(), index);
  const description = (await prompter.input({ message: `${line}: description (optional)`, validate: text('description') })).trim();
  const nmfcCode = (await prompter.input({ message: `${line}: NMFC code (optional)`, validate: text('nmfcCode') })).trim();
  const packagingType = (await prompter.input({ message: `${line}: packaging, e.g. pallets, crates, boxes (optional)`, validate: text('packagingType') })).trim();
  const pieces = (
    await prompter.input({
      message: `${line}: loose pieces inside (optional)`,
      validate: (value) => (value.trim() === '' ? true : componentFieldProblem('pieceCount', readNumber(value), index)),
    })
  ).trim();
  return {
    palletCount,
    poundsWeight,
    dimensions,
    ...(description ? { description } : {}),
    ...(nmfcCode ? { nmfcCode } : {}),
    ...(packagingType ? { packagingType } : {}),
    ...(pieces ? { pieceCount: Number(readNumber(pieces)) } : {}),
  };
}

// -----------------------------------------------------------------------------------------------
// Booking

interface AddressAnswer {
  address: Address;
  /** A name to save the new address under once the booking succeeded. */
  saveAs: string | null;
}

async function askAndBook(deps: WizardDeps, quote: Quote, orderComponents: Array<Record<string, unknown>>): Promise<Shipment | undefined> {
  const { prompter, io } = deps;
  if (!(await prompter.confirm({ message: `Book this shipment at ${formatCents(quote.quotedPriceInCents)}?`, default: false }))) {
    io.info(`Quote ${quote.id} is saved; book it later with: shipper ship --quote ${quote.id} ...`);
    return undefined;
  }
  const refNumber = (
    await prompter.input({
      message: 'Your reference, e.g. a PO number (optional)',
      validate: (value) => {
        const result = shipmentRequestSchema.shape.refNumber.safeParse(value);
        return result.success ? true : `${result.error.issues[0]?.message} (refNumber)`;
      },
    })
  ).trim();
  const shipper = await askAddress(deps, 'shipper', quote.origin);
  const consignee = await askAddress(deps, 'consignee', quote.destination);

  const { data: shipment, warnings } = await deps.api.createShipment({
    quoteId: quote.id,
    ...(refNumber ? { refNumber } : {}),
    shipper: shipper.address,
    consignee: consignee.address,
    orderComponents: orderComponents as OrderComponentInput[],
  });
  warnings.forEach((warning) => io.warn(warning));
  for (const { saveAs, address } of [shipper, consignee]) {
    if (!saveAs) continue;
    try {
      await deps.locations.save(saveAs, address);
      io.info(`Saved location ${saveAs}`);
    } catch (error) {
      io.warn(`location ${saveAs} was not saved: ${(error as Error).message}`);
    }
  }
  const c = io.color;
  io.out('');
  io.out(`${c.bold.green('Booked')} ${c.bold(shipment.orderNumber)}  BOL ${shipment.bolNumber}  (shipment ${shipment.id})`);
  io.out(`  Pickup ${formatDate(shipment.pickupDate)}${shipment.estimatedDeliveryDate ? ` · ETA ${formatInstant(shipment.estimatedDeliveryDate, deps.zips.lookup(shipment.consignee.postalCode)?.timeZone)}` : ''}`);
  return shipment;
}

async function askAddress(deps: WizardDeps, role: 'shipper' | 'consignee', place: Quote['origin']): Promise<AddressAnswer> {
  const { prompter, io } = deps;
  const label = role === 'shipper' ? 'Ship from' : 'Ship to';
  // Only locations on the quoted lane can be booked against this quote.
  const saved = (await deps.locations.list()).filter((location) => location.address.postalCode === place.postalCode);
  if (saved.length > 0) {
    const choice = await prompter.select<SavedLocation | null>({
      message: `${label} (${place.city}, ${place.state} ${place.postalCode})`,
      choices: [
        ...saved.map((location) => ({
          name: `${location.name}: ${location.address.name}, ${location.address.street1}, ${location.address.city}`,
          value: location,
        })),
        { name: 'Enter a new address', value: null },
      ],
    });
    if (choice) return { address: choice.address, saveAs: null };
  } else {
    io.info(io.color.bold(`${label} (${place.city}, ${place.state} ${place.postalCode})`));
  }
  const ask = (field: keyof typeof addressSchema.shape, message: string, preset?: string) =>
    prompter
      .input({ message: `${label}: ${message}`, default: preset, validate: (value) => addressFieldProblem(field, value, role) })
      .then((value) => value.trim());
  const name = await ask('name', 'company name');
  const street1 = await ask('street1', 'street');
  const street2 = await ask('street2', 'street line 2 (optional)');
  const city = await ask('city', 'city', place.city);
  const state = (
    await prompter.input({ message: `${label}: state`, default: place.state, validate: (value) => addressStateProblem(value, place, role) })
  )
    .trim()
    .toUpperCase();
  const contactName = await ask('contactName', 'contact name (optional)');
  const phone = await ask('phone', 'phone (optional)');
  const address = addressSchema.parse({
    name,
    street1,
    street2: street2 || null,
    city,
    state,
    postalCode: place.postalCode,
    countryCode: 'US',
    contactName: contactName || null,
    phone: phone || null,
  });
  const saveAs = (
    await prompter.input({
      message: `Save this address for next time? Location name (Enter to skip)`,
      validate: async (value) => {
        const text = value.trim();
        if (text === '') return true;
        const check = locationNameSchema.safeParse(text);
        if (!check.success) return check.error.issues[0]?.message ?? 'not a location name';
        return (await deps.locations.get(text)) ? `there is already a location named ${text}; pick another name` : true;
      },
    })
  ).trim();
  return { address, saveAs: saveAs || null };
}

// -----------------------------------------------------------------------------------------------
// Bill of lading

async function askAndPrintBol(deps: WizardDeps, shipment: Shipment): Promise<string | undefined> {
  const { prompter, io, api } = deps;
  if (!(await prompter.confirm({ message: 'Print the Bill of Lading (PDF) now?', default: true }))) {
    io.info(`Print it later with: shipper bol ${shipment.id}`);
    return undefined;
  }
  let template = 'standard';
  const templates = await api.listBolTemplates().then(
    ({ data }) => data.items,
    () => [],
  );
  if (templates.length > 1) {
    template = await prompter.select({
      message: 'BOL template',
      choices: templates.map((info) => ({ name: `${info.name}: ${info.description}`, value: info.name })),
      default: templates.some((info) => info.name === 'standard') ? 'standard' : templates[0]!.name,
    });
  } else if (templates.length === 1) {
    template = templates[0]!.name;
  }
  const answer = (
      await prompter.input({
        message: 'Save the PDF as',
        default: `BOL-${shipment.orderNumber}.pdf`,
        validate: (value) => {
          if (value.trim() === '') return 'a file name is needed';
          return deps.fileExists(deps.resolvePath(value.trim())) ? `${value.trim()} already exists; choose another name` : true;
        },
      })
    ).trim();
  const file = deps.resolvePath(answer);
  try {
    const { data: pdf } = await api.renderBol(shipment.id, { template });
    await deps.writeFile(file, pdf);
  } catch (error) {
    const reason = error instanceof ProblemError ? problemLine(error.problem) : (error as Error).message;
    const code = error instanceof ProblemError ? error.exitCode(deps.mode) : ExitCode.local;
    throw new CliError(`shipment ${shipment.orderNumber} is booked, but its BOL was not printed: ${reason} (print it later: shipper bol ${shipment.id})`, code);
  }
  io.out(`${io.color.green('Wrote')} ${answer}`);
  return file;
}
