/**
 * fast-check arbitraries for the fuzz tests of test/fuzz: VALID requests (quotes, shipments with
 * the carrier fields and hazardous lines, transit tables) and INVALID ones (a valid request with
 * one to three mutations, each recording the path it touched).
 *
 * Valid requests are drawn from real ZIPs with the city and state the geodata gives them (an
 * address's state must agree with its ZIP), freight within src/domain/limits.ts, and pickup days
 * that are business days after the fixed clock FUZZ_NOW (Monday 2026-11-23 15:00 UTC: at that
 * instant it is already Tuesday in Auckland, so pickups start on Tuesday 2026-11-24).
 *
 * Run counts and seeds (one place for every fuzz file):
 * - Each property has a default run count sized so that the whole of test/fuzz stays under about
 *   20 s on the 2-core CI machine. `SHIPPER_FUZZ_RUNS=N` MULTIPLIES every default by N (a number,
 *   e.g. 0.5 or 200): one knob for a long campaign, whatever the cost of each target. Timeouts
 *   grow with it.
 * - Seeds are random (a fuzz run that always tries the same inputs finds nothing new); fast-check
 *   prints the seed and the counterexample's path when a property fails. `SHIPPER_FUZZ_SEED=S`
 *   (with the failing property's path in the message) replays it.
 * - `SHIPPER_FUZZ_TALLY=FILE` appends one JSON line per test file with the inputs it tried, by
 *   kind and outcome, for a campaign's figures. `SHIPPER_FUZZ_DUMP=FILE` (bol.test.ts) writes a
 *   failing BOL's request, extracted text and PDF there.
 *
 * A campaign: `SHIPPER_FUZZ_RUNS=60 SHIPPER_FUZZ_TALLY=/tmp/tally.jsonl npx vitest run test/fuzz`
 * (about 10 minutes on 2 cores; build first, server.test.ts starts the built `shipper serve`).
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FREIGHT_LIMITS } from '../../src/domain/limits.js';
import { PUBLISHED_LIMITS } from '../../src/domain/publishedLimits.js';
import { geodataDir } from '../../src/paths.js';
import { militaryMailReason } from '../../src/domain/militaryZip.js';

// ---------------------------------------------------------------------------------------------
// Runs, seeds, tallies

/** The fixed clock of every fuzz test (LocalApi `now`, SHIPPER_NOW): a Monday. */
export const FUZZ_NOW = '2026-11-23T15:00:00.000Z';

function multiplier(): number {
  const text = process.env.SHIPPER_FUZZ_RUNS;
  if (text === undefined || text.trim() === '') return 1;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`SHIPPER_FUZZ_RUNS must be a positive number (a multiplier of the default run counts), got ${JSON.stringify(text)}`);
  return value;
}

export const RUN_MULTIPLIER = multiplier();

/** The run count of a property whose default is `base`. */
export function runsOf(base: number): number {
  return Math.max(1, Math.round(base * RUN_MULTIPLIER));
}

/** A vitest timeout for a test whose default runs take about `ms`, with room for a slow machine. */
export function timeoutOf(ms: number): number {
  return Math.max(300_000, Math.round(ms * RUN_MULTIPLIER * 4));
}

/** fast-check parameters: the run count, and the seed and path to replay when SHIPPER_FUZZ_SEED is set. */
export function fuzzParameters<T>(base: number): fc.Parameters<T> {
  const seed = process.env.SHIPPER_FUZZ_SEED;
  const path = process.env.SHIPPER_FUZZ_PATH;
  return {
    numRuns: runsOf(base),
    ...(seed ? { seed: Number(seed) } : {}),
    ...(seed && path ? { path } : {}),
    // Async properties over HTTP or the store: a shrink that takes minutes helps nobody.
    interruptAfterTimeLimit: timeoutOf(10_000) - 5_000,
    markInterruptAsFailure: false,
  };
}

/** Inputs tried per target, by outcome: what a campaign reports. */
export class Tally {
  private readonly counts: Record<string, number> = {};
  constructor(readonly target: string) {}

  add(outcome: string, count = 1): void {
    this.counts[outcome] = (this.counts[outcome] ?? 0) + count;
  }

  get(outcome: string): number {
    return this.counts[outcome] ?? 0;
  }

  /** Appends the counts to SHIPPER_FUZZ_TALLY, when set. */
  flush(): void {
    const file = process.env.SHIPPER_FUZZ_TALLY;
    if (file) appendFileSync(file, `${JSON.stringify({ target: this.target, multiplier: RUN_MULTIPLIER, ...this.counts })}\n`);
  }
}

// ---------------------------------------------------------------------------------------------
// Places and days

export interface ZipEntry {
  zipCode: string;
  city: string;
  state: string;
}

/** Every ZIP of the generated geodata that LTL carriers serve (dist/geo, built by `npm run build`), with its city and state. */
function loadZips(): ZipEntry[] {
  const dir = geodataDir();
  const entries: ZipEntry[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!/^\d{3}\.json$/.test(file)) continue;
    const table = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, [number, number, string, string, number]>;
    for (const [zipCode, row] of Object.entries(table)) {
      // APO/FPO military mail ZIPs are refused with their reason (a test of their own): not valid freight lanes.
      if (militaryMailReason(zipCode, row[3]) === null) entries.push({ zipCode, city: row[2], state: row[3] });
    }
  }
  if (entries.length < 1000) throw new Error(`the ZIP geodata in ${dir} has ${entries.length} ZIPs; run npm run build`);
  return entries;
}

export const ZIPS: readonly ZipEntry[] = loadZips();

export const zipArb: fc.Arbitrary<ZipEntry> = fc.nat({ max: ZIPS.length - 1 }).map((index) => ZIPS[index]!);

/** A ZIP as clients write it: 5 digits, ZIP+4 with or without the hyphen, sometimes padded. */
export const postalCodeTextArb = (zip: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(zip) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }).map((plus4) => `${zip}-${String(plus4).padStart(4, '0')}`) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }).map((plus4) => `${zip}${String(plus4).padStart(4, '0')}`) },
    { weight: 1, arbitrary: fc.constant(` ${zip} `) },
  );

/** The carrier holidays of the shipped tariff in the window below (Thanksgiving, Christmas, New Year's Day). */
const HOLIDAYS = new Set(['2026-11-26', '2026-12-25', '2027-01-01']);

/** Business days from Tuesday 2026-11-24 to the end of January 2027 (a quote lives a week; pickups may be later). */
export const PICKUP_DAYS: readonly string[] = (() => {
  const days: string[] = [];
  for (let time = Date.UTC(2026, 10, 24); time <= Date.UTC(2027, 0, 31); time += 86_400_000) {
    const date = new Date(time);
    const iso = date.toISOString().slice(0, 10);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6 && !HOLIDAYS.has(iso)) days.push(iso);
  }
  return days;
})();

export const pickupDateArb = fc.constantFrom(...PICKUP_DAYS);

export const ACCESSORIAL_CODES = [
  'LIFTGATE_PICKUP',
  'LIFTGATE_DELIVERY',
  'RESIDENTIAL_PICKUP',
  'RESIDENTIAL_DELIVERY',
  'INSIDE_PICKUP',
  'INSIDE_DELIVERY',
  'LIMITED_ACCESS_PICKUP',
  'LIMITED_ACCESS_DELIVERY',
  'APPOINTMENT',
  'NOTIFY_BEFORE_DELIVERY',
] as const;

/** Codes as a client sends them: duplicates allowed (the API keeps one of each). */
export const accessorialsArb = fc.array(fc.constantFrom(...ACCESSORIAL_CODES), { maxLength: 6 });

// ---------------------------------------------------------------------------------------------
// Text

/** Words of every kind a user may type: scripts, emoji, combining marks, RTL, controls, formulas. */
export const HOSTILE_WORDS = [
  'Acme',
  'Dock 4',
  "O'Brien & Sons",
  'Ñandú',
  'Straße',
  'Ελλάδα',
  'Москва',
  'שלום',
  'مرحبا',
  '東京都',
  '한국어',
  'हिन्दी',
  'ไทย',
  '😀',
  '👨‍👩‍👧‍👦',
  '🇺🇸',
  'e\u0301',
  'Z\u0351\u0352\u0353a\u0354\u0355l\u0356g\u0357o',
  '\u202Eevil\u202C',
  '\u200B',
  '\uFEFF',
  'tab\there',
  'line\nbreak',
  'cr\r\nlf',
  '\u0000',
  '\u001B[31mred\u001B[0m',
  '\u0007',
  '=SUM(A1:A9)',
  '+1',
  '-2',
  '@cmd',
  '"quoted"',
  'a,b;c',
  '<script>',
  '%s%n',
  '../../etc/passwd',
  'ﬁ',
  'Ａ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
] as const;

export interface TextOptions {
  /** At most this many UTF-16 code units (what the schemas count). */
  max: number;
  /** At least one character other than white space (after trimming), for required fields. */
  required?: boolean;
}

/** Text of any kind within `max` code units: ASCII, any grapheme, any code point but controls, hostile words. */
export function textArb({ max, required = false }: TextOptions): fc.Arbitrary<string> {
  const minLength = required ? 1 : 0;
  return (
    fc
      .oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength: Math.min(max, 40) }) },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.max(1, Math.floor(max / 8)) }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: Math.max(1, Math.floor(max / 4)) }) },
        { weight: 2, arbitrary: fc.array(fc.constantFrom(...HOSTILE_WORDS), { minLength, maxLength: 6 }).map((words) => words.join(' ')) },
        { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
      )
      // Control characters are refused in text fields (issue 20, item 4): a valid request has none.
      .map((text) => text.replace(/[\u0000-\u001F\u007F-\u009F]/g, ' '))
      .filter((text) => text.length <= max && (!required || text.trim().length > 0))
  );
}

// ---------------------------------------------------------------------------------------------
// Numbers within the limits

/** A number in [min, max]: the bounds themselves, whole numbers, and any double between. */
function boundedArb(min: number, max: number, integer: boolean): fc.Arbitrary<number> {
  const arbitraries = [
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) },
  ];
  if (!integer) arbitraries.push({ weight: 2, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value)) });
  return fc.oneof(...arbitraries);
}

/** `null` or absent for a nullish field. */
function optional<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary });
}

/** The object without its undefined fields (absent, as a client that leaves them out). */
export function compact<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// Valid requests

export type Json = Record<string, unknown>;

const HAZARD_CLASSES = ['1.1A', '1.4S', '1.6N', '2.1', '2.2', '2.3', '3', '4.1', '4.2', '4.3', '5.1', '5.2', '6.1', '6.2', '7', '8', '9'] as const;

/** A hazardous line; its proper shipping name drawn by `text` (the importer's cells are stricter). */
export const hazmatArb = (text: (options: TextOptions) => fc.Arbitrary<string> = textArb): fc.Arbitrary<Json> =>
  fc
    .record({
      prefix: fc.constantFrom('UN', 'NA', 'un', 'Un '),
      digits: fc.integer({ min: 0, max: 9999 }),
      properShippingName: text({ max: 200, required: true }),
      hazardClass: fc.constantFrom(...HAZARD_CLASSES),
      packingGroup: optional(fc.constantFrom('I', 'II', 'III')),
    })
    .map(({ prefix, digits, ...rest }) => compact({ unNumber: `${prefix}${String(digits).padStart(4, '0')}`, ...rest }));

export interface ComponentOptions {
  /** Per-line share of the shipment limits (the lines together stay within them). */
  lines: number;
  hazmat: boolean;
  /** Text fields as the importer reads cells: trimmed and without characters a CSV cell cannot keep apart. */
  text?: (options: TextOptions) => fc.Arbitrary<string>;
}

export function componentArb({ lines, hazmat, text = textArb }: ComponentOptions): fc.Arbitrary<Json> {
  const { maxHandlingUnits, maxPoundsWeight, minPoundsWeight, minDimensionInches, maxLengthInches, maxWidthInches, maxHeightInches, maxPieceCount } = FREIGHT_LIMITS;
  // Valid is within the published limits too (publishedLimits.ts): a pallet within the liftgate's
  // 62x62x94 in (any request may name a liftgate), 51 pallets an order, 1 to 2,500 lb a pallet.
  const { liftgatePallet, maxPalletsPerOrder, maxPoundsPerPallet, minPoundsPerPallet } = PUBLISHED_LIMITS;
  const dims = fc.record({
    length: boundedArb(minDimensionInches, Math.min(maxLengthInches, liftgatePallet.length), false),
    width: boundedArb(minDimensionInches, Math.min(maxWidthInches, liftgatePallet.width), false),
    height: boundedArb(minDimensionInches, Math.min(maxHeightInches, liftgatePallet.height), false),
  });
  const freight = boundedArb(1, Math.floor(Math.min(maxHandlingUnits, maxPalletsPerOrder) / lines), true).chain((palletCount) =>
    boundedArb(Math.max(minPoundsWeight, minPoundsPerPallet * palletCount), Math.min(Math.floor(maxPoundsWeight / lines), maxPoundsPerPallet * palletCount), false).map(
      (poundsWeight) => ({ palletCount, poundsWeight }),
    ),
  );
  return fc
    .record({
      freight,
      dims,
      deprecatedDims: fc.nat({ max: 9 }).map((value) => value < 3),
      description: optional(text({ max: 256 })),
      nmfcCode: optional(text({ max: 32 })),
      packagingType: optional(text({ max: 32 })),
      pieceCount: optional(boundedArb(0, maxPieceCount, true)),
      hazmat: hazmat ? hazmatArb(text).map((value): Json | null | undefined => value) : fc.constantFrom(undefined, null),
    })
    .map(({ freight: { palletCount, poundsWeight }, dims: { length, width, height }, deprecatedDims, ...rest }) => {
      const component = { palletCount, poundsWeight, ...rest };
      return compact(deprecatedDims ? { ...component, palletDimensions: [length, width, height] } : { ...component, dimensions: { length, width, height } });
    });
}

export function addressArb(options: { text?: (options: TextOptions) => fc.Arbitrary<string>; zip?: fc.Arbitrary<ZipEntry>; exact?: boolean } = {}): fc.Arbitrary<Json> {
  const text = options.text ?? textArb;
  const exact = options.exact ?? false;
  return (options.zip ?? zipArb).chain((zip) =>
    fc
      .record({
        name: text({ max: 100, required: true }),
        address1: text({ max: 100, required: true }),
        address2: optional(text({ max: 100 })),
        city: exact ? fc.constant(zip.city) : fc.constantFrom(zip.city, zip.city.toUpperCase(), `  ${zip.city} `),
        state: exact ? fc.constant(zip.state) : fc.constantFrom(zip.state, zip.state.toLowerCase(), ` ${zip.state}`),
        zipCode: exact ? fc.constant(zip.zipCode) : postalCodeTextArb(zip.zipCode),
        countryCode: exact ? fc.constant(undefined) : fc.constantFrom(undefined, 'US'),
        contactPerson: optional(text({ max: 100 })),
        // A phone as people write it or as E.164 (what is no phone number is a violation: the schemas' tests).
        phoneNumber: optional(fc.constantFrom('312-555-0100', '+13125550100', '(212) 555-0199', '1 646 555 0142', '')),
      })
      .map(compact),
  );
}

/** "HH:MM" from minutes after midnight. */
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const pickupWindowArb = fc
  .tuple(fc.integer({ min: 0, max: 1438 }), fc.integer({ min: 1, max: 1439 }))
  .filter(([ready, close]) => close > ready)
  .map(([ready, close]) => ({ readyTime: clock(ready), closeTime: clock(close) }));

export interface ShipmentOptions {
  text?: (options: TextOptions) => fc.Arbitrary<string>;
  /** Addresses exactly as the geodata writes them (no ZIP+4, no lower-case state). */
  exactAddresses?: boolean;
  maxLines?: number;
}

/** The carrier's part of a shipment request (src/domain/carrier.ts), each field optional. */
export function carrierFieldsArb(options: ShipmentOptions, hazardous: boolean): fc.Arbitrary<Json> {
  const text = options.text ?? textArb;
  const terms = fc.oneof(
    fc.constantFrom({ terms: 'PREPAID' }, { terms: 'COLLECT' }, { terms: 'PREPAID', billTo: null }),
    addressArb({ text, exact: options.exactAddresses ?? false }).map((billTo) => ({ terms: 'THIRD_PARTY', billTo })),
  );
  return fc
    .record({
      carrier: optional(fc.record({ name: text({ max: 100, required: true }), scac: fc.stringMatching(/^[A-Za-z]{2,4}$/) })),
      proNumber: optional(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,19}$/)),
      freightChargeTerms: optional(terms),
      declaredValue: optional(fc.record({ amountInCents: boundedArb(1, 1_000_000_000, true), per: fc.constantFrom(undefined, 'SHIPMENT', 'POUND') }).map(compact)),
      cod: optional(
        fc
          .record({
            amountInCents: boundedArb(1, 1_000_000_000, true),
            feeTerms: fc.constantFrom(undefined, 'PREPAID', 'COLLECT'),
            customerCheckAcceptable: fc.constantFrom(undefined, true, false),
          })
          .map(compact),
      ),
      pickupWindow: optional(pickupWindowArb),
      fob: optional(fc.constantFrom('ORIGIN', 'DESTINATION')),
      masterBol: optional(fc.boolean()),
      emergencyContactPhone: hazardous ? text({ max: 32, required: true }) : optional(text({ max: 32, required: true })),
      trailerNumber: optional(text({ max: 32 })),
      sealNumbers: optional(fc.array(text({ max: 32, required: true }), { maxLength: 10 })),
    })
    .map(compact);
}

/** `lines` order components within the shipment's limits together; the last one hazardous when asked. */
function componentsArb(lines: number, hazardous: boolean, text: (options: TextOptions) => fc.Arbitrary<string>): fc.Arbitrary<Json[]> {
  return fc
    .tuple(fc.array(componentArb({ lines, hazmat: false, text }), { minLength: lines - 1, maxLength: lines - 1 }), componentArb({ lines, hazmat: hazardous, text }))
    .map(([first, last]) => [...first, last]);
}

/** A valid ShipmentRequest (without quoteId): 1 to maxLines lines, some hazardous, the carrier's fields. */
export function shipmentRequestArb(options: ShipmentOptions = {}): fc.Arbitrary<Json> {
  const text = options.text ?? textArb;
  const exact = options.exactAddresses ?? false;
  return fc.record({ lines: fc.integer({ min: 1, max: options.maxLines ?? 4 }), hazardous: fc.nat({ max: 9 }).map((value) => value < 3) }).chain(({ lines, hazardous }) =>
    fc
      .record({
        refNumber: optional(text({ max: 64 })),
        pickupAddress: addressArb({ text, exact }),
        deliveryAddress: addressArb({ text, exact }),
        specialInstructions: optional(text({ max: 1000 })),
        requiredPickupDate: fc.option(pickupDateArb, { nil: undefined }),
        accessorials: fc.option(accessorialsArb, { nil: undefined }),
        orderComponents: componentsArb(lines, hazardous, text),
        carrierFields: carrierFieldsArb(options, hazardous),
      })
      .map(({ carrierFields, ...request }) => compact({ ...request, ...carrierFields })),
  );
}

/**
 * The request with a contact and a phone on each stop that lacks one: what the published create
 * (POST /v1/shipper/shipment over HTTP) requires of its stops, which the engine does not.
 */
export function withPublishedParties(request: Json): Json {
  const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
  const party = (value: unknown, contactPerson: string, phoneNumber: string) => {
    const address = value as Record<string, unknown>;
    return {
      ...address,
      contactPerson: blank(address.contactPerson) ? contactPerson : address.contactPerson,
      phoneNumber: blank(address.phoneNumber) ? phoneNumber : address.phoneNumber,
    };
  };
  return { ...request, pickupAddress: party(request.pickupAddress, 'Dana Ruiz', '+13125550100'), deliveryAddress: party(request.deliveryAddress, 'Lee Chen', '+12125550188') };
}

/** The quote a shipment request would be priced on: its lane, pickup date, accessorials and freight. */
export function quoteRequestFor(shipment: Json): Json {
  const zipCode = (party: unknown) => (party as { zipCode: string }).zipCode;
  return compact({
    pickupAddress: { zipCode: zipCode(shipment.pickupAddress) },
    deliveryAddress: { zipCode: zipCode(shipment.deliveryAddress) },
    requiredPickupDate: shipment.requiredPickupDate,
    accessorials: shipment.accessorials,
    orderComponents: shipment.orderComponents,
  });
}

export const quoteRequestArb: fc.Arbitrary<Json> = fc
  .record({
    pickupAddress: zipArb.chain((zip) => fc.record({ zipCode: postalCodeTextArb(zip.zipCode), countryCode: fc.constantFrom(undefined, 'US') }).map(compact)),
    deliveryAddress: zipArb.chain((zip) => fc.record({ zipCode: postalCodeTextArb(zip.zipCode), countryCode: fc.constantFrom(undefined, 'US') }).map(compact)),
    requiredPickupDate: fc.option(pickupDateArb, { nil: undefined }),
    accessorials: fc.option(accessorialsArb, { nil: undefined }),
    lines: fc.integer({ min: 1, max: 4 }),
  })
  .chain(({ lines, ...request }) => componentsArb(lines, false, textArb).map((orderComponents) => compact({ ...request, orderComponents })));

export const transitRequestArb: fc.Arbitrary<Json> = fc
  .record({
    origin: zipArb.map((zip) => ({ zipCode: zip.zipCode })),
    destinations: fc.array(
      zipArb.chain((zip) => fc.record({ zipCode: postalCodeTextArb(zip.zipCode), countryCode: fc.constantFrom(undefined, 'US') }).map(compact)),
      { minLength: 1, maxLength: 12 },
    ),
    pickupDate: fc.option(pickupDateArb, { nil: undefined }),
    pickupDays: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
  })
  .map(compact);

// ---------------------------------------------------------------------------------------------
// Invalid requests: a valid one with mutations, each recording the path it touched

export type Path = Array<string | number>;

export const MUTATION_KINDS = [
  'wrongType',
  'null',
  'nanText',
  'negative',
  'zero',
  'huge',
  'emptyString',
  'longText',
  'controlChars',
  'unknownCode',
  'unknownKey',
  'missingKey',
  'arrayForObject',
  'deepNesting',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  path: Path;
  /** The request cannot be valid while this mutation stands (see MutationRules). */
  certain: boolean;
  /** Who refuses it: the schema, or the tariff once the schema passed (a well-formed unknown accessorial code). */
  stage: 'schema' | 'tariff';
}

export interface Mutated {
  request: unknown;
  /** The mutations applied, in order; `survived` false when a later one replaced or removed what it touched. */
  mutations: Array<Mutation & { survived: boolean }>;
  /** Some surviving mutation makes the request invalid whatever the rest. */
  certain: boolean;
}

/** What a request type's schema requires, for judging whether a mutation must make it invalid. */
export interface MutationRules {
  /** Fields (written as violations write them, indices as [n]) that must be present and not null. */
  required: RegExp[];
  /** Numeric fields where 0 is allowed. */
  zeroAllowed: RegExp[];
  /** Text fields where '' is allowed (read as absent). */
  emptyAllowed: RegExp[];
  /** Code fields where a well-formed code the service does not know is refused (by the tariff, after the schema). */
  codes: RegExp[];
}

const ADDRESS = '(pickupAddress|deliveryAddress|freightChargeTerms\\.billTo)';
const COMPONENT = 'orderComponents\\[\\d+\\]';

export const SHIPMENT_RULES: MutationRules = {
  required: [
    /^(pickupAddress|deliveryAddress|orderComponents)$/,
    new RegExp(`^${ADDRESS}\\.(name|address1|city|state|zipCode)$`),
    new RegExp(`^${COMPONENT}$`),
    // Dimensions may be omitted (the published default pallet), not given in part.
    new RegExp(`^${COMPONENT}\\.(palletCount|poundsWeight)$`),
    new RegExp(`^${COMPONENT}\\.(dimensions\\.(length|width|height)|palletDimensions\\[\\d\\])$`),
    new RegExp(`^${COMPONENT}\\.hazmat\\.(unNumber|properShippingName|hazardClass)$`),
    /^carrier\.(name|scac)$/,
    /^freightChargeTerms\.terms$/,
    /^(declaredValue|cod)\.amountInCents$/,
    /^pickupWindow\.(readyTime|closeTime)$/,
    /^(accessorials|sealNumbers)\[\d+\]$/,
  ],
  zeroAllowed: [/\.pieceCount$/],
  emptyAllowed: [/(^|\.)(description|nmfcCode|packagingType|address2|contactPerson|phoneNumber|refNumber|specialInstructions|trailerNumber)$/],
  codes: [/^accessorials\[\d+\]$/],
};

export const QUOTE_RULES: MutationRules = {
  required: [
    /^(pickupAddress|deliveryAddress|orderComponents)$/,
    /^(pickupAddress|deliveryAddress)\.zipCode$/,
    new RegExp(`^${COMPONENT}$`),
    // Dimensions may be omitted (the published default pallet), not given in part.
    new RegExp(`^${COMPONENT}\\.(palletCount|poundsWeight)$`),
    new RegExp(`^${COMPONENT}\\.(dimensions\\.(length|width|height)|palletDimensions\\[\\d\\])$`),
    /^accessorials\[\d+\]$/,
  ],
  zeroAllowed: [/\.pieceCount$/],
  emptyAllowed: [/(^|\.)(description|nmfcCode|packagingType)$/],
  codes: [/^accessorials\[\d+\]$/],
};

export const TRANSIT_RULES: MutationRules = {
  required: [/^(origin|destinations)$/, /^origin\.zipCode$/, /^destinations\[\d+\](\.zipCode)?$/],
  zeroAllowed: [],
  emptyAllowed: [],
  codes: [],
};

/** Keys no request schema knows: typos, prototype names, paths, separators, scripts, controls. */
export const unknownKeyArb = fc.oneof(
  fc.constantFrom(
    'weigth',
    'accesorials',
    'palletcount',
    'zz',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'a.b',
    'x[0]',
    '',
    ' ',
    'é',
    '💥',
    '\u0000',
    '\u001B[2J',
    'orderComponents[0].poundsWeight',
    '["q"]',
  ),
  fc.stringMatching(/^zz[A-Za-z0-9_]{0,12}$/),
  fc.string({ unit: 'binary', maxLength: 8 }).map((text) => `zz${text}`),
);

interface PlannedMutation {
  kind: MutationKind;
  /** Which node, among those the kind applies to (modulo their count). */
  pick: number;
  variant: number;
  key: string;
}
const plannedMutationArb: fc.Arbitrary<PlannedMutation> = fc.record({ kind: fc.constantFrom(...MUTATION_KINDS), pick: fc.nat(), variant: fc.nat(), key: unknownKeyArb });

/** `request` with one to three mutations. */
export function mutatedArb(valid: fc.Arbitrary<Json>, rules: MutationRules): fc.Arbitrary<Mutated> {
  return fc.tuple(valid, fc.array(plannedMutationArb, { minLength: 1, maxLength: 3 })).map(([request, plans]) => mutate(request, plans, rules));
}

/** A field path written as violations write them: `orderComponents[0].dimensions.height`. */
export function fieldOf(path: Path): string {
  let field = '';
  for (const key of path) field += typeof key === 'number' ? `[${key}]` : field === '' ? key : `.${key}`;
  return field;
}

interface Node {
  path: Path;
  value: unknown;
}

function nodesOf(value: unknown, path: Path = [], into: Node[] = []): Node[] {
  into.push({ path, value });
  if (Array.isArray(value)) value.forEach((item, index) => nodesOf(item, [...path, index], into));
  else if (isPlainObject(value)) for (const key of Object.keys(value)) nodesOf(value[key], [...path, key], into);
  return into;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isLeaf = (value: unknown) => value === null || typeof value !== 'object';

const NAN_TEXTS = ['NaN', 'Infinity', '-Infinity', '1e400', '-1e400', 'nan', '0x10', ' 12 ', '1,200', '١٢'];
const NEGATIVES = [-1, -0.5, -1e9, -Number.MAX_VALUE, -Number.MIN_VALUE];
const HUGE = [1e21, 2 ** 53 + 2, Number.MAX_VALUE, 1e308, 123456789012];
const CONTROL_TEXTS = ['\u0000', '\u001B[2J\u001B[H', '\u0007\u0008', '\r\n', '\u202E', '\uFFFF', '\uD7FF\uE000'];

function deepValue(depth: number, array: boolean): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = array ? [value] : { a: value };
  return value;
}

function wrongTypeFor(value: unknown, variant: number): unknown {
  const choices: unknown[] =
    typeof value === 'string'
      ? [variant, true, [value], { value }]
      : typeof value === 'number'
        ? [String(value), false, [value], { value }]
        : typeof value === 'boolean'
          ? ['true', 1, [value]]
          : [42, true, [1]];
  return choices[variant % choices.length];
}

function getAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node;
}

function setAt(root: { value: unknown }, path: Path, value: unknown): void {
  if (path.length === 0) {
    root.value = value;
    return;
  }
  const parent = getAt(root.value, path.slice(0, -1)) as Record<string | number, unknown>;
  Object.defineProperty(parent, path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

const matches = (rules: RegExp[], field: string) => rules.some((rule) => rule.test(field));

function mutate(original: Json, plans: PlannedMutation[], rules: MutationRules): Mutated {
  const root = { value: structuredClone(original) as unknown };
  const applied: Array<Mutation & { survived: boolean }> = [];
  for (const plan of plans) {
    const nodes = nodesOf(root.value);
    const leaves = nodes.filter((node) => isLeaf(node.value));
    const objects = nodes.filter((node) => isPlainObject(node.value));
    const members = nodes.filter((node) => node.path.length > 0 && isPlainObject(getAt(root.value, node.path.slice(0, -1))));
    const pick = <T>(list: T[]) => (list.length === 0 ? undefined : list[plan.pick % list.length]);
    let mutation: Mutation | undefined;
    // Judged by what the field held in the valid request (an earlier mutation may have changed its type).
    const replace = (node: Node | undefined, value: unknown, certain: (field: string, old: unknown) => boolean) => {
      if (!node) return;
      const field = fieldOf(node.path);
      const old = hasPath(original, node.path) ? getAt(original, node.path) : node.value;
      // An accessorial code of capitals (however long) passes the schema's pattern: the tariff refuses it.
      const byTariff = matches(rules.codes, field) && typeof value === 'string' && /^[A-Z][A-Z0-9_]*$/.test(value);
      mutation = { kind: plan.kind, path: node.path, certain: certain(field, old), stage: byTariff ? 'tariff' : 'schema' };
      setAt(root, node.path, value);
    };
    const scalar = (old: unknown) => typeof old === 'number' || typeof old === 'boolean';
    switch (plan.kind) {
      case 'wrongType': {
        const node = pick(leaves.filter((leaf) => leaf.value !== null));
        const old = node && (hasPath(original, node.path) ? getAt(original, node.path) : node.value);
        replace(node, node && wrongTypeFor(old, plan.variant), (_field, before) => before !== null && typeof before !== 'object');
        break;
      }
      case 'null':
        replace(pick(nodes.filter((node) => node.path.length > 0 && node.value !== null)), null, (field) => matches(rules.required, field));
        break;
      case 'nanText':
        replace(pick(leaves), NAN_TEXTS[plan.variant % NAN_TEXTS.length], (_field, old) => scalar(old));
        break;
      case 'negative':
        replace(pick(leaves), NEGATIVES[plan.variant % NEGATIVES.length], () => true);
        break;
      case 'zero':
        replace(pick(leaves), 0, (field, old) => typeof old === 'string' || typeof old === 'boolean' || !matches(rules.zeroAllowed, field));
        break;
      case 'huge':
        replace(pick(leaves), HUGE[plan.variant % HUGE.length], () => true);
        break;
      case 'emptyString':
        replace(pick(leaves), '', (field, old) => scalar(old) || !matches(rules.emptyAllowed, field));
        break;
      case 'longText': {
        const unit = ['x', 'é', '😀', '\u0000', 'A'][plan.variant % 5]!;
        replace(pick(leaves), unit.repeat(Math.ceil(10_240 / unit.length)), () => true);
        break;
      }
      case 'controlChars': {
        const node = pick(leaves);
        const controls = CONTROL_TEXTS[plan.variant % CONTROL_TEXTS.length]!;
        replace(node, typeof node?.value === 'string' ? `${node.value}${controls}` : controls, (_field, old) => scalar(old));
        break;
      }
      case 'unknownCode': {
        // Well-formed (capitals and _), known to no tariff: only the tariff can refuse it.
        const code = ['ZZ_UNKNOWN', 'LIFTGATE', 'A'][plan.variant % 3]!;
        replace(pick(leaves.filter((leaf) => typeof leaf.value === 'string')), code, (field) => matches(rules.codes, field));
        break;
      }
      case 'unknownKey': {
        const node = pick(objects);
        if (!node || Object.hasOwn(node.value as object, plan.key)) break;
        mutation = { kind: plan.kind, path: [...node.path, plan.key], certain: true, stage: 'schema' };
        setAt(root, [...node.path, plan.key], plan.variant % 2 === 0 ? 'zz' : { nested: [1] });
        break;
      }
      case 'missingKey': {
        const node = pick(members);
        if (!node) break;
        mutation = { kind: plan.kind, path: node.path, certain: matches(rules.required, fieldOf(node.path)), stage: 'schema' };
        delete (getAt(root.value, node.path.slice(0, -1)) as Record<string, unknown>)[node.path[node.path.length - 1] as string];
        break;
      }
      case 'arrayForObject': {
        const node = pick(objects);
        replace(node, plan.variant % 2 === 0 ? [] : [node?.value], () => true);
        break;
      }
      case 'deepNesting': {
        const depth = [40, 100, 1000][plan.variant % 3]!;
        replace(pick(nodes.filter((node) => node.path.length > 0)), deepValue(depth, plan.variant % 2 === 0), () => true);
        break;
      }
    }
    if (!mutation) continue;
    // What this mutation replaced or removed is gone, and with it the earlier mutations inside it.
    const touched = mutation.path;
    for (const earlier of applied) if (isPrefix(touched, earlier.path)) earlier.survived = false;
    applied.push({ ...mutation, survived: true });
  }
  return { request: root.value, mutations: applied, certain: applied.some((mutation) => mutation.survived && mutation.certain) };
}

function hasPath(root: unknown, path: Path): boolean {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length <= path.length && prefix.every((key, index) => key === path[index]);
}

let uniquePros = 0;
/**
 * The request with a PRO no other booking of the run has (when it gives one): a PRO names one
 * shipment of its carrier, and a fuzz run books the same request more than once.
 */
export function withUniquePro<T extends Json>(request: T): T {
  if (typeof request.proNumber !== 'string' || request.proNumber.trim() === '') return request;
  // The counter, then X: no other counter's prefix, whatever follows.
  return { ...request, proNumber: `U${++uniquePros}X${request.proNumber.trim()}`.slice(0, 20) };
}
