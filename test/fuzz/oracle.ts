/**
 * What the fuzz properties check, written once: where a violation's field points in the input
 * (the resolver), whether an error is a well-formed ProblemDetail about the input, what a valid
 * request must read back as, and what no answer may contain (stack traces, file paths, the V8
 * JSON parser's messages).
 */
import { expect } from 'vitest';
import { problemDetailSchema, type ProblemDetail, type Quote, type Shipment, type TransitTable } from '../../src/domain/schemas.js';
import { fieldOf, isPlainObject, type Json, type Mutated, type Path, PICKUP_DAYS } from './arbitraries.js';

// ---------------------------------------------------------------------------------------------
// The resolver: a violation's field in the input

/**
 * The path of a field written as violations write it: `orderComponents[0].dimensions.height`,
 * `["a.b"]` for a key that is not a plain name; undefined when the text is no such path.
 */
export function parseField(field: string): Path | undefined {
  if (field === '(body)') return [];
  const path: Path = [];
  let rest = field;
  let first = true;
  while (rest !== '') {
    const name = (first ? /^([\w$-]+)/ : /^\.([\w$-]+)/).exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (name) {
      path.push(name[1]!);
      rest = rest.slice(name[0].length);
    } else if (index) {
      path.push(Number(index[1]));
      rest = rest.slice(index[0].length);
    } else if (quoted) {
      path.push(JSON.parse(quoted[1]!) as string);
      rest = rest.slice(quoted[0].length);
    } else return undefined;
    first = false;
  }
  return path;
}

export type Resolution = { ok: true; how: 'value' | 'missing-key' } | { ok: false; why: string };

/**
 * A violation's field resolves in the input when the value exists there, or, for a missing key,
 * when its parent object exists there. `(body)` is the input itself.
 */
export function resolveField(input: unknown, field: string): Resolution {
  const path = parseField(field);
  if (!path) return { ok: false, why: `${JSON.stringify(field)} is not a field path` };
  let node: unknown = input;
  for (const [depth, key] of path.entries()) {
    const last = depth === path.length - 1;
    const where = fieldOf(path.slice(0, depth)) || '(body)';
    if (typeof key === 'number') {
      if (!Array.isArray(node)) return { ok: false, why: `${where} is not a list` };
      if (key >= node.length) return { ok: false, why: `${where} has no item ${key}` };
      node = node[key];
      continue;
    }
    if (!isPlainObject(node)) return { ok: false, why: `${where} is not an object` };
    if (!Object.hasOwn(node, key)) return last ? { ok: true, how: 'missing-key' } : { ok: false, why: `${where} has no key ${JSON.stringify(key)}` };
    node = node[key];
  }
  return { ok: true, how: 'value' };
}

// ---------------------------------------------------------------------------------------------
// ProblemDetails

/** A stack trace, a file path of the machine, or the V8 JSON parser's message text. */
const LEAKS: ReadonlyArray<[string, RegExp]> = [
  ['a stack trace', /\n\s+at /],
  ['a file path', /\/(?:tmp|home|work|usr)\/[^\s"']*/],
  [
    "the V8 JSON parser's message",
    /Unexpected (?:token|end of JSON input|non-whitespace character|number|string)|in JSON at position|Bad (?:control|escaped|Unicode escape) character|Expected (?:property name|',' or|':' after|double-quoted)|Unterminated (?:string|fractional)|No number after minus|Exponent part is missing/,
  ],
];

/**
 * What `text` (an answer, an output) leaks that `sent` (the request, the file) did not contain:
 * an answer may quote the client's own input, never the machine's internals.
 */
export function leaksOf(text: string, sent = ''): string[] {
  const found: string[] = [];
  for (const [what, pattern] of LEAKS) {
    const global = new RegExp(pattern.source, 'g');
    for (const match of text.matchAll(global)) if (!sent.includes(match[0])) found.push(`${what}: ${JSON.stringify(match[0])}`);
  }
  return found;
}

/** Every string inside a JSON value, joined: what leak checks read (JSON escapes decoded). */
export function stringsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(stringsOf).join('\n');
  if (isPlainObject(value))
    return Object.entries(value)
      .map(([key, item]) => `${key}\n${stringsOf(item)}`)
      .join('\n');
  return '';
}

export interface ProblemExpectation {
  /** The input the request carried (the body), in which every violation must resolve. */
  input: unknown;
  /** The mutations that made it: when some must make it invalid, a violation names one of their paths. */
  mutated?: Mutated;
  /** Statuses allowed (default 400, 409, 422). */
  statuses?: readonly number[];
  /** Fields outside the body that may be named (query parameters, headers). */
  otherFields?: readonly string[];
  /** A problem without violations is allowed (a malformed body over HTTP). */
  violationsOptional?: boolean;
  /** The request as sent, for the leak check (an answer may quote it). */
  sent?: string;
}

/** The problem is a ProblemDetail about the input: the status, violations that resolve, no leaks. */
export function expectProblemAbout(problem: unknown, expectation: ProblemExpectation): ProblemDetail {
  const parsed = problemDetailSchema.safeParse(problem);
  expect(parsed.success, `a ProblemDetail: ${JSON.stringify(problem)?.slice(0, 500)}`).toBe(true);
  const detail = parsed.data!;
  expect(expectation.statuses ?? [400, 409, 422], `status of ${JSON.stringify(problem).slice(0, 500)}`).toContain(detail.status);
  const violations = detail.violations ?? [];
  if (!expectation.violationsOptional) expect(violations.length, `violations in ${JSON.stringify(problem).slice(0, 500)}`).toBeGreaterThan(0);
  for (const violation of violations) {
    if (expectation.otherFields?.includes(violation.field)) continue;
    const resolution = resolveField(expectation.input, violation.field);
    expect(resolution, `violation ${JSON.stringify(violation)} resolves in the input`).toMatchObject({ ok: true });
    // A message that names the value it refuses names the value at its path.
    const unknownCode = /^unknown accessorial (\S+);/.exec(violation.reason);
    if (unknownCode && resolution.ok && resolution.how === 'value') {
      expect(valueAt(expectation.input, parseField(violation.field)!), `${violation.field} holds the code ${unknownCode[1]} its message names`).toBe(unknownCode[1]);
    }
    expect(violation.reason.trim().length, `violation ${JSON.stringify(violation)} has a message`).toBeGreaterThan(0);
  }
  // Mutations the schema must refuse are named (the tariff judges only what the schema passed;
  // an unknown accessorial is held to the value check above instead).
  const bySchema = expectation.mutated?.mutations.filter((mutation) => mutation.survived && mutation.certain && mutation.stage === 'schema') ?? [];
  if (bySchema.length > 0 && violations.length > 0) {
    const targets = bySchema.map((mutation) => mutation.path);
    // Without either spelling of the dimensions, the missing one is named `dimensions`.
    const spelling = (path: Path) => path.map((key) => (key === 'palletDimensions' ? 'dimensions' : key));
    const related = violations.some((violation) => {
      const path = parseField(violation.field);
      return path !== undefined && targets.some((target) => isPrefix(spelling(path), spelling(target)) || isPrefix(spelling(target), spelling(path)));
    });
    expect(related, `a violation names a mutated field (${targets.map((target) => fieldOf(target) || '(body)').join(', ')}): ${JSON.stringify(violations).slice(0, 800)}`).toBe(
      true,
    );
  }
  expect(leaksOf(stringsOf(problem), expectation.sent ?? JSON.stringify(expectation.input) ?? '')).toEqual([]);
  return detail;
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length <= path.length && prefix.every((key, index) => key === path[index]);
}

function valueAt(input: unknown, path: Path): unknown {
  let node = input;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node;
}

// ---------------------------------------------------------------------------------------------
// What a valid request reads back as (the schemas' documented normalisation: trimmed names,
// upper-case state and SCAC, 5-digit ZIPs, '' and absent optional text as null, defaults)

const optionalText = (value: unknown) => (value === undefined || value === null || value === '' ? null : value);
const trimmed = (value: unknown) => (value as string).trim();

/** The phones the arbitraries write (arbitraries.ts addressArb), as E.164: written out here, not by the code under test. */
const E164: Readonly<Record<string, string>> = {
  '312-555-0100': '+13125550100',
  '+13125550100': '+13125550100',
  '(212) 555-0199': '+12125550199',
  '1 646 555 0142': '+16465550142',
  // The phone withPublishedParties gives a delivery stop without one.
  '+12125550188': '+12125550188',
};
const expectedPhone = (value: unknown) => (typeof value === 'string' && value !== '' ? E164[value] : null);

export function expectedAddress(address: Json) {
  return {
    name: trimmed(address.name),
    address1: trimmed(address.address1),
    address2: optionalText(address.address2),
    city: trimmed(address.city),
    state: trimmed(address.state).toUpperCase(),
    zipCode: trimmed(address.zipCode).slice(0, 5),
    countryCode: 'US',
    contactPerson: optionalText(address.contactPerson),
    phoneNumber: expectedPhone(address.phoneNumber),
  };
}

export function expectedComponent(component: Json) {
  const dims = component.dimensions as Json | undefined;
  const triple = component.palletDimensions as number[] | undefined;
  const hazmat = component.hazmat as Json | null | undefined;
  return {
    palletCount: component.palletCount,
    poundsWeight: component.poundsWeight,
    dimensions: dims ?? { length: triple![0], width: triple![1], height: triple![2] },
    description: optionalText(component.description),
    nmfcCode: optionalText(component.nmfcCode),
    packagingType: optionalText(component.packagingType),
    pieceCount: component.pieceCount ?? null,
    hazmat: hazmat
      ? {
          unNumber: trimmed(hazmat.unNumber).toUpperCase().replace(/\s+/g, ''),
          properShippingName: trimmed(hazmat.properShippingName),
          hazardClass: trimmed(hazmat.hazardClass),
          packingGroup: hazmat.packingGroup ?? null,
        }
      : null,
  };
}

const accessorialsOf = (request: Json) => [...new Set((request.accessorials as string[] | undefined) ?? [])];

/** The pickup day: the one asked for, else the next business day at the origin after FUZZ_NOW. */
function expectPickupDate(actual: string, requested: unknown) {
  if (typeof requested === 'string') expect(actual).toBe(requested);
  else expect(['2026-11-24', '2026-11-25']).toContain(actual);
  expect(PICKUP_DAYS).toContain(actual);
}

export function expectedCarrierFields(request: Json) {
  const carrier = request.carrier as Json | null | undefined;
  const terms = request.freightChargeTerms as Json | null | undefined;
  const declared = request.declaredValue as Json | null | undefined;
  const cod = request.cod as Json | null | undefined;
  const window = request.pickupWindow as Json | null | undefined;
  const phone = request.emergencyContactPhone as string | null | undefined;
  const trailer = request.trailerNumber as string | null | undefined;
  return {
    carrier: carrier ? { name: trimmed(carrier.name), scac: trimmed(carrier.scac).toUpperCase() } : null,
    proNumber: request.proNumber ? trimmed(request.proNumber).toUpperCase() : null,
    freightChargeTerms: terms ? { terms: terms.terms, billTo: terms.billTo ? expectedAddress(terms.billTo as Json) : null } : { terms: 'PREPAID', billTo: null },
    declaredValue: declared ? { amountInCents: declared.amountInCents, per: declared.per ?? 'SHIPMENT' } : null,
    cod: cod ? { amountInCents: cod.amountInCents, feeTerms: cod.feeTerms ?? 'COLLECT', customerCheckAcceptable: cod.customerCheckAcceptable ?? false } : null,
    pickupWindow: window ? { readyTime: trimmed(window.readyTime), closeTime: trimmed(window.closeTime) } : null,
    fob: request.fob ?? null,
    masterBol: request.masterBol ?? false,
    emergencyContactPhone: phone ? phone.trim() : null,
    trailerNumber: trailer ? trailer.trim() || null : null,
    sealNumbers: ((request.sealNumbers as string[] | null | undefined) ?? []).map((seal) => seal.trim()),
  };
}

/**
 * Every field of the shipment request is present in the shipment as the API answers it. Created,
 * it is INITIALIZED (as published); `confirmAsked` (an import): CONFIRMED exactly when both stops
 * have their contact person and phone and the order a description, else INITIALIZED.
 */
export function expectShipmentAsRequested(shipment: Shipment, request: Json, options: { confirmAsked?: boolean } = {}): void {
  const refNumber = typeof request.refNumber === 'string' ? request.refNumber.trim() || null : null;
  const stops = [shipment.pickupAddress, shipment.deliveryAddress];
  const confirmable = stops.every((stop) => Boolean(stop.contactPerson?.trim()) && Boolean(stop.phoneNumber)) && Boolean(shipment.description?.trim());
  expect(shipment.orderStatus).toBe(options.confirmAsked && confirmable ? 'CONFIRMED' : 'INITIALIZED');
  expect(shipment.refNumber).toBe(refNumber);
  expect(shipment.pickupAddress).toEqual(expectedAddress(request.pickupAddress as Json));
  expect(shipment.deliveryAddress).toEqual(expectedAddress(request.deliveryAddress as Json));
  expect(shipment.specialInstructions).toBe(optionalText(request.specialInstructions));
  expectPickupDate(shipment.requiredPickupDate, request.requiredPickupDate);
  expect(shipment.accessorials).toEqual(accessorialsOf(request));
  const components = request.orderComponents as Json[];
  expect(shipment.orderComponents).toHaveLength(components.length);
  components.forEach((component, index) => expect(shipment.orderComponents[index]).toMatchObject(expectedComponent(component)));
  const carrierFields = expectedCarrierFields(request);
  for (const [field, value] of Object.entries(carrierFields)) expect(shipment[field as keyof Shipment], field).toEqual(value);
  expect(shipment.ssccs).toHaveLength(components.reduce((sum, component) => sum + (component.palletCount as number), 0));
  expectPriceAddsUp(shipment);
}

export function expectQuoteAsRequested(quote: Quote, request: Json): void {
  const zip = (place: unknown) => trimmed((place as Json).zipCode).slice(0, 5);
  expect(quote.pickupAddress.zipCode).toBe(zip(request.pickupAddress));
  expect(quote.deliveryAddress.zipCode).toBe(zip(request.deliveryAddress));
  expectPickupDate(quote.requiredPickupDate, request.requiredPickupDate);
  expect(quote.accessorials).toEqual(accessorialsOf(request));
  const components = request.orderComponents as Json[];
  expect(quote.orderComponents).toHaveLength(components.length);
  components.forEach((component, index) => expect(quote.orderComponents[index]).toMatchObject(expectedComponent(component)));
  expectPriceAddsUp(quote);
}

function expectPriceAddsUp(priced: Pick<Quote, 'priceBreakdown'> & ({ quotedPriceInCents: number } | { totalPriceInCents: number })): void {
  const { linehaulInCents, discountInCents, fuelSurchargeInCents, accessorialsInCents } = priced.priceBreakdown;
  const price = 'quotedPriceInCents' in priced ? priced.quotedPriceInCents : priced.totalPriceInCents;
  expect(Number.isSafeInteger(price) && price > 0).toBe(true);
  expect(linehaulInCents - discountInCents + fuelSurchargeInCents + accessorialsInCents.reduce((sum, charge) => sum + charge.amountInCents, 0)).toBe(price);
}

export function expectTransitAsRequested(table: TransitTable, request: Json): void {
  const destinations = request.destinations as Json[];
  expect(table.lanes).toHaveLength(destinations.length);
  table.lanes.forEach((lane, index) => {
    expect(lane.origin.zipCode).toBe(trimmed((request.origin as Json).zipCode).slice(0, 5));
    expect(lane.destination.zipCode).toBe(trimmed(destinations[index]!.zipCode).slice(0, 5));
    expect(lane.rows.filter((row) => row.pickupAvailable)).toHaveLength((request.pickupDays as number | undefined) ?? 1);
    if (typeof request.pickupDate === 'string') expect(lane.rows[0]!.pickupDate).toBe(request.pickupDate);
  });
}
