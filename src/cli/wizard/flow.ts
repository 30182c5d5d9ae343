/**
 * The interactive quote wizard as a flow over injected parts (prompter, API, ZIP directory,
 * saved locations, clock, file writer), so tests can drive it with scripted answers and the
 * terminal shell (quoteWizard.ts) only wires the real ones.
 *
 * Order: lane (ZIPs checked as typed) -> pickup date (closed days refused with the reason) ->
 * accessorials -> freight lines -> quote shown -> book (reference, addresses, saved locations)
 * -> BOL PDF (booking.ts; the carrier step in carrierSteps.ts). Nothing is written before the quote is shown; Ctrl-C after that says what exists.
 */
import { CliError, ProblemError, problemLine } from '../../api/problems.js';
import { componentDensity } from '../../domain/density.js';
import { checkFreight } from '../../domain/freightCheck.js';
import { DEFAULT_INSPECTION_RULES } from '../../domain/inspectionRules.js';
import { rateComponent } from '../../domain/rating.js';
import { closestLocationName, locationsNear } from '../../domain/locationMatch.js';
import type { ZipPlace } from '../../domain/zipCode.js';
import type { OrderComponentInput, Quote, TransitRow } from '../../domain/schemas.js';
import { DEFAULT_CARRIER_HOLIDAYS, businessDayReason, nextBusinessDay } from '../../domain/transit.js';
import { describeDate, parseUserDate, relativeDay, localDateInZone } from '../../domain/dates.js';
import { printQuote } from '../views/quote.js';
import { printRates } from '../views/rates.js';
import { formatCents, formatDate, formatInstant, formatNumber, plural } from '../output.js';
import { componentFieldProblem, parseDimensions, readNumber, STANDARD_PALLET, zipHint, zipProblem } from './answers.js';
import { askAndBook, askAndPrintBol } from './booking.js';
import type { AccessorialChoice, WizardDefaults, WizardDeps, WizardResult } from './deps.js';
import { isPromptInterrupt } from './prompter.js';

export type { AccessorialChoice, LocationDirectory, WizardDefaults, WizardDeps, WizardResult } from './deps.js';
export { addressFieldProblem, addressStateProblem, componentFieldProblem, parseDimensions, readNumber, STANDARD_PALLET, zipHint, zipProblem } from './answers.js';

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

  const request = {
    pickupAddress: { zipCode: origin.zipCode, countryCode: 'US' as const },
    deliveryAddress: { zipCode: destination.zipCode, countryCode: 'US' as const },
    requiredPickupDate: pickupDate,
    accessorials,
    // Answers pass through as typed: the API's schema judges them.
    orderComponents: orderComponents as OrderComponentInput[],
  };
  const pricing = await askPricing(deps);
  let quote: Quote;
  if (pricing === ALL_CARRIERS) {
    const { data: rates, warnings } = await deps.api.shopRates(request);
    io.warnAll(warnings.filter((warning) => !rates.uncovered.some((line) => warning.message.startsWith(`${line.carrier.scac} (`))));
    io.out('');
    printRates(io, rates, deps.zips);
    io.out('');
    if (rates.items.length === 0) throw new CliError('no carrier prices this shipment: nothing was quoted', 'REJECTED');
    quote = await deps.prompter.select({
      message: 'Which quote?',
      choices: rates.items.map((item) => ({
        name: `${item.carrier?.scac ?? ''} ${item.carrier?.name ?? ''}: ${formatCents(item.quotedPriceInCents)}${item.transitDays === null ? '' : `, ${plural(item.transitDays, 'day')}`}`,
        value: item,
        short: item.carrier?.scac ?? item.id,
      })),
      default: rates.items[0],
    });
  } else {
    const { data, warnings } = await deps.api.createQuote(pricing ? { ...request, carrierScac: pricing } : request);
    io.warnAll(warnings);
    quote = data;
    io.out('');
    printQuote(io, quote, deps.zips, deps.now());
    io.out('');
  }

  const shipment = await afterInterrupt(`cancelled; quote ${quote.id} is saved, nothing was booked`, () => askAndBook(deps, quote, orderComponents));
  if (!shipment) return { quote };
  const bolFile = await afterInterrupt(`cancelled; shipment ${shipment.orderNumber} is booked (${shipment.id}); print its BOL with: shipper bol ${shipment.id}`, () =>
    askAndPrintBol(deps, shipment),
  );
  return bolFile ? { quote, shipment, bolFile } : { quote, shipment };
}

const ALL_CARRIERS = '*all*';

/** With carrier agreements loaded: the tariff, every carrier (rate shopping) or one carrier. */
async function askPricing(deps: WizardDeps): Promise<string | null> {
  const carriers = deps.agreementCarriers ?? [];
  if (carriers.length === 0) return null;
  return deps.prompter.select<string | null>({
    message: 'Price with',
    choices: [
      { name: `All ${carriers.length} carriers (rate shopping, cheapest first)`, value: ALL_CARRIERS, short: 'all carriers' },
      ...carriers.map((carrier) => ({ name: `${carrier.scac} ${carrier.name}`, value: carrier.scac, short: carrier.scac })),
      { name: 'The tariff (no carrier)', value: null, short: 'the tariff' },
    ],
    default: ALL_CARRIERS,
  });
}

/** Ctrl-C once something exists: say what was kept instead of "nothing was written". */
async function afterInterrupt<T>(message: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isPromptInterrupt(error)) throw new CliError(message, 'INTERRUPTED');
    throw error;
  }
}

/**
 * The ZIP of a lane's end, or a saved location's name (its ZIP). When saved locations are near the
 * ZIP typed but not at it (the same city, the same 3-digit prefix: a dock at 60608 for 60609), they
 * are offered, since only a location at the quoted ZIP can be booked on the quote.
 */
async function askZip(deps: WizardDeps, role: 'origin' | 'destination', preset: string | undefined): Promise<ZipPlace> {
  const field = `${role === 'origin' ? 'pickupAddress' : 'deliveryAddress'}.zipCode`;
  const c = deps.io.color;
  const saved = await deps.locations.list();
  const named = (value: string) => saved.find((location) => location.name.toLowerCase() === value.trim().toLowerCase());
  const answer = await deps.prompter.input({
    message: `${role === 'origin' ? 'Pickup ZIP (origin)' : 'Delivery ZIP (destination)'}${saved.length > 0 ? ' or saved location' : ''}`,
    default: preset,
    transformer: (value, { isFinal }) => {
      const location = named(value);
      const hint = location ? `saved location: ${location.address.city}, ${location.address.state} ${location.address.zipCode}` : zipHint(value, deps.zips);
      if (!hint) return value;
      return `${isFinal ? c.cyan(value) : value}  ${hint === 'unknown ZIP' ? c.yellow(hint) : c.dim(hint)}`;
    },
    validate: (value) => {
      const location = named(value);
      if (location) return zipProblem(location.address.zipCode, field, deps.zips);
      const problem = zipProblem(value, field, deps.zips);
      if (problem === true || saved.length === 0 || /^\d/.test(value.trim())) return problem;
      const closest = closestLocationName(
        value,
        saved.map((location) => location.name),
      );
      return `no saved location named ${value.trim()}${closest ? ` (did you mean ${closest}?)` : ''}; a ZIP code is 5 digits, e.g. 60601 (${field})`;
    },
  });
  const place = deps.zips.lookup((named(answer)?.address.zipCode ?? answer).trim().slice(0, 5))!;
  const { same, near } = locationsNear(saved, place);
  if (named(answer) || near.length === 0) return place;
  const choice = await deps.prompter.select<ZipPlace>({
    message: `${role === 'origin' ? 'Pickup' : 'Delivery'} at ${place.zipCode} (${place.city}, ${place.state}), or at a saved location nearby?`,
    choices: [
      {
        name: `${place.zipCode} as typed${same.length > 0 ? ` (saved there: ${same.map((location) => location.name).join(', ')})` : ''}`,
        value: place,
        short: place.zipCode,
      },
      ...near.map((location) => ({
        name: `${location.name}: ${location.address.city}, ${location.address.state} ${location.address.zipCode}`,
        value: deps.zips.lookup(location.address.zipCode.slice(0, 5)) ?? place,
        short: location.name,
      })),
    ],
    default: place,
  });
  return choice;
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
      origin: { zipCode: origin.zipCode, countryCode: 'US' },
      destinations: [{ zipCode: destination.zipCode, countryCode: 'US' }],
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
      return {
        ok: false,
        date: day,
        message: `${formatDate(day)} is ${reason}: carriers do not pick up; next pickup ${formatDate(nextBusinessDay(day, DEFAULT_CARRIER_HOLIDAYS))} (pickupDate)`,
      };
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
      name: `${choice.code.padEnd(width)}  ${choice.description}${accessorialPrice(choice)}`,
      value: choice.code,
      short: choice.code,
      checked: preset.includes(choice.code),
    })),
  });
}

/** The tariff's charge, else the carriers that price it (a quote on one of them). */
function accessorialPrice(choice: AccessorialChoice): string {
  if (choice.amountInCents !== undefined) return ` (+${formatCents(choice.amountInCents)})`;
  return choice.carriers?.length ? ` (${choice.carriers.join(', ')} only)` : '';
}

async function askComponents(deps: WizardDeps): Promise<Array<Record<string, unknown>>> {
  const components: Array<Record<string, unknown>> = [];
  do {
    components.push(await askComponent(deps, components.length));
  } while (await deps.prompter.confirm({ message: 'Add another line?', default: false }));
  return components;
}

const STACKABLE_ANSWERS = new Set(['', 'y', 'yes', 'n', 'no']);

/**
 * The freight check's line rules (docs/warnings.md) on a line being typed, beside its live class:
 * `DENSITY_MARGIN: class 85 with 1 in more height`. The description is asked next, so it is not
 * judged here; the quote's answer carries every warning with its price at stake.
 */
export function lineRisks(palletCount: number, poundsWeight: number, dimensions: { length: number; width: number; height: number }): string {
  const line = rateComponent({ palletCount, poundsWeight, dimensions, description: '-', nmfcCode: null, packagingType: null, pieceCount: null, hazmat: null });
  return checkFreight({ orderComponents: [line], quotedPriceInCents: 0, rules: DEFAULT_INSPECTION_RULES })
    .filter((item) => item.code !== 'LINEAR_FEET' && item.code !== 'CUBIC_CAPACITY')
    .map((item) => {
      const detail = item.detail ?? {};
      const why =
        item.code === 'DENSITY_MARGIN'
          ? `class ${detail.riskClass} with ${detail.changedBy}`
          : item.code === 'OVERLENGTH'
            ? `${detail.bandFeet} ft band`
            : `class ${detail.riskClass}`;
      return `${item.code}: ${why}`;
    })
    .join('; ');
}

async function askComponent(deps: WizardDeps, index: number): Promise<Record<string, unknown>> {
  const { prompter, io } = deps;
  const line = `Line ${index + 1}`;
  io.info(io.color.bold(`${line} of freight`));
  const number = (field: string) => (value: string) => componentFieldProblem(field, readNumber(value), index);
  const palletCount = Number(readNumber(await prompter.input({ message: `${line}: pallets (handling units)`, default: '1', validate: number('palletCount') })));
  const poundsWeight = Number(
    readNumber(await prompter.input({ message: `${line}: total weight of the ${plural(palletCount, 'pallet')} (lb)`, validate: number('poundsWeight') })),
  );
  const dimensions = parseDimensions(
    await prompter.input({
      message: `${line}: dimensions of one pallet, L x W x H (in)`,
      default: STANDARD_PALLET,
      transformer: (value) => {
        const dims = parseDimensions(value);
        if (!dims || componentFieldProblem('dimensions', dims, index) !== true) return value;
        const { densityPcf, freightClass } = componentDensity(poundsWeight, palletCount, dims);
        const risks = lineRisks(palletCount, poundsWeight, dims);
        return `${value}  ${io.color.dim(`${formatNumber(densityPcf)} pcf, class ${freightClass}`)}${risks ? `  ${io.color.yellow(risks)}` : ''}`;
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
  const stackable = (
    await prompter.input({
      message: `${line}: stackable? y: freight may go on top, n: do not stack (classed at 96 in high), empty: not said`,
      validate: (value) => STACKABLE_ANSWERS.has(value.trim().toLowerCase()) || `answer y, n, or leave it empty (orderComponents[${index}].stackable)`,
    })
  )
    .trim()
    .toLowerCase();
  return {
    palletCount,
    poundsWeight,
    dimensions,
    ...(stackable ? { stackable: stackable.startsWith('y') } : {}),
    ...(description ? { description } : {}),
    ...(nmfcCode ? { nmfcCode } : {}),
    ...(packagingType ? { packagingType } : {}),
    ...(pieces ? { pieceCount: Number(readNumber(pieces)) } : {}),
  };
}
