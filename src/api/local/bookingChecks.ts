/**
 * The rules a booking is held to before any number is spent, shared by booking (under the lock)
 * and the preview (import's check pass, without it): the request against its schema and its ZIPs,
 * against the quote it books, a quote booked once, a reference an active shipment has, a key
 * already reserved. Each throws a ProblemError (a 409 for a conflict) or returns what it found.
 */
import { normalisedProNumber, normalisedReference } from '../../domain/recordKeys.js';
import { z } from 'zod';
import {
  quoteSchema,
  ratedOrderComponentSchema,
  shipmentRequestSchema,
  shipmentSchema,
  type ProblemDetail,
  type Quote,
  type Shipment,
  type ShipmentRequest,
  type Violation,
} from '../../domain/schemas.js';
import { warning, type Warning } from '../../domain/warnings.js';
import { beyondLtlWarnings } from '../../domain/rating.js';
import { checkShipmentAgainstQuote } from '../../domain/shipment.js';
import { publishedFreightCheck, type PublishedLimits } from '../../domain/publishedLimits.js';
import { localDateInZone } from '../../domain/dates.js';
import { conflict, constraintViolation, internalError, makeProblem, notFound, type ProblemError } from '../problems.js';
import { proHolder, proTaken } from './carrierNumbers.js';
import { findIdempotent, shipmentRequestHashes } from './idempotency.js';
import { judge } from './input.js';
import { addressesAgainstZips, type Quotes, unknownZips } from './quotes.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { assertReadsBack, QUOTE_ID, type StoreReads } from './records.js';
import { keptByJson } from './jsonCopy.js';

export interface BookingCheckDeps {
  zips: ZipLookup;
  quotes: Quotes;
  now: () => Date;
  /** The published limits and defaults, with the settings' overrides (publishedLimits.ts). */
  limits: PublishedLimits;
}

/** How many shipments holding a reference a conflict or warning names (the newest). */
const NAMED_HOLDERS = 3;

export type Checked = { ok: true; request: ShipmentRequest; warnings: Warning[] } | { ok: false; problem: ProblemDetail };

export class BookingChecks {
  /**
   * The judgement of each request object judged (weakly held): an import's check pass previews
   * its requests and its booking pass books the very same objects, judged once. The judgement
   * depends on the request and the ZIP table only, neither of which changes in between.
   */
  private readonly judged = new WeakMap<object, Checked>();

  constructor(private readonly deps: BookingCheckDeps) {}

  /** A quote is booked once: a second active shipment on it only when the request says rebookQuote. */
  async checkQuoteFree(reads: StoreReads, request: ShipmentRequest, batchQuotes: Map<string, number>): Promise<void> {
    const { quoteId, rebookQuote } = request;
    if (!quoteId || rebookQuote) return;
    // The quote of a booking that quoted first counts too: its shipment is that quote's first booking.
    const active = (await reads.shipments.findByQuote(quoteId)).filter((shipment) => shipment.orderStatus !== 'CANCELLED');
    const earlier = batchQuotes.get(quoteId);
    if (active.length === 0 && earlier === undefined) return;
    const as = active.length > 0 ? `as ${active.map((shipment) => shipment.orderNumber).join(', ')}` : `by item ${earlier! + 1} of this batch`;
    throw conflict(`quote ${quoteId} is already booked ${as}; cancel that shipment first, or book it again on purpose with rebookQuote: true (shipper ship --book-again)`, [
      { field: 'quoteId', reason: `already booked ${as}` },
    ]);
  }

  /** A reference an active shipment already has: refused when asked (imports), else a warning in the answer. */
  async checkReference(reads: StoreReads, request: ShipmentRequest, warnings: Warning[], batchReferences: Map<string, number>): Promise<void> {
    const { refNumber, duplicateRefNumber } = request;
    if (!refNumber) return;
    // Three are named, a fourth says there are more.
    const found = await reads.shipments.findByReference(refNumber, { orderStatus: 'ACTIVE', limit: NAMED_HOLDERS + 1 });
    const named = found
      .slice(0, NAMED_HOLDERS)
      .map((shipment) => shipment.orderNumber)
      .sort();
    const earlier = batchReferences.get(normalisedReference(refNumber));
    if (named.length === 0 && earlier === undefined) return;
    const holders = [...named, ...(earlier !== undefined ? [`item ${earlier + 1} of this batch`] : [])].join(', ') + (found.length > NAMED_HOLDERS ? ' and others' : '');
    if (duplicateRefNumber === 'REFUSE') {
      throw conflict(`refNumber ${refNumber} is already booked as ${holders}`, [{ field: 'refNumber', reason: `${refNumber} is already booked as ${holders}` }]);
    }
    warnings.push(warning('REFERENCE_TAKEN', `refNumber ${refNumber} is already booked as ${holders}; this is another shipment with the same reference`, { field: 'refNumber' }));
  }

  /**
   * A booking reserved under this key with this request (a 422 for another request), if any, with
   * the quote of its shipment once that is written.
   */
  async reservedUnder(reads: StoreReads, key: string, raw: unknown): Promise<{ quote: Quote | undefined } | undefined> {
    const record = await findIdempotent(reads.idempotency, 'shipment', key, () => shipmentRequestHashes(withoutOptions(raw)));
    if (!record) return undefined;
    const shipment = await reads.shipments.getRecord(record.resourceId);
    if (!shipment) return { quote: undefined };
    return { quote: shipment.ownQuote ?? (await this.deps.quotes.mustGet(shipment.shipment.quoteId, reads)) };
  }

  /** A PRO given by hand that another shipment of the carrier (or an earlier item of the batch) has is refused, naming it. */
  async checkProFree(reads: StoreReads, request: ShipmentRequest, batchPros: Map<string, number>): Promise<void> {
    if (!request.proNumber) return;
    const scac = request.carrier?.scac ?? null;
    const holder = await proHolder(reads.shipments, request.proNumber, scac);
    if (holder) throw proTaken(request.proNumber, holder, scac);
    const earlier = batchPros.get(proKey(request));
    if (earlier !== undefined) {
      throw conflict(`PRO ${request.proNumber} is already on item ${earlier + 1} of this batch`, [{ field: 'proNumber', reason: `already on item ${earlier + 1} of this batch` }]);
    }
  }

  /**
   * Schema validation plus known ZIPs: every violation of the request at once. Judged here, per
   * item, on the request as sent: an item of a batch that fails is that item's outcome, not a
   * failure of the batch (its schema leaves the requests unparsed).
   */
  check(raw: unknown): Checked {
    const known = typeof raw === 'object' && raw !== null ? this.judged.get(raw) : undefined;
    // The warnings are the caller's to add to.
    if (known) return known.ok ? { ...known, warnings: [...known.warnings] } : known;
    const checked = this.judge(raw);
    if (typeof raw === 'object' && raw !== null) this.judged.set(raw, checked.ok ? { ...checked, warnings: [...checked.warnings] } : checked);
    return checked;
  }

  private judge(raw: unknown): Checked {
    const zipViolations = unknownZips(this.deps.zips, raw, [['pickupAddress'], ['deliveryAddress']]);
    const addresses = addressesAgainstZips(this.deps.zips, raw);
    zipViolations.push(...addresses.violations);
    const parsed = judge(shipmentRequestSchema, raw, zipViolations);
    if (!parsed.ok) return { ok: false, problem: constraintViolation(parsed.violations).problem };
    const freight = publishedFreightCheck(parsed.value, this.deps.limits);
    if (freight.violations.length > 0) return { ok: false, problem: constraintViolation(freight.violations).problem };
    return {
      ok: true,
      request: parsed.value,
      warnings: [...parsed.warnings, ...freight.warnings, ...beyondLtlWarnings(parsed.value.orderComponents), ...addresses.warnings],
    };
  }

  async quoteForBooking(reads: StoreReads, quoteId: string, request: ShipmentRequest): Promise<Quote> {
    if (!QUOTE_ID.test(quoteId)) throw notFound('quote', quoteId);
    const quote = await this.deps.quotes.mustGet(quoteId, reads);
    const check = checkShipmentAgainstQuote(request.orderComponents, quote, this.deps.now());
    const laneViolations: Violation[] = [];
    if (request.pickupAddress.zipCode !== quote.pickupAddress.zipCode) {
      laneViolations.push({ field: 'pickupAddress.zipCode', reason: `the quote is from ${quote.pickupAddress.zipCode}` });
    }
    if (request.deliveryAddress.zipCode !== quote.deliveryAddress.zipCode) {
      laneViolations.push({ field: 'deliveryAddress.zipCode', reason: `the quote is to ${quote.deliveryAddress.zipCode}` });
    }
    // A quote expires at the end of its pickup day at the latest (no shipment is picked up in the
    // past): when that day has passed, that is the reason given, before the expiry it caused.
    const zone = this.deps.zips.lookup(quote.pickupAddress.zipCode)?.timeZone ?? 'America/Chicago';
    // A date-time (the published wire writes one) is its day at the pickup.
    const sentDay = request.requiredPickupDate && request.requiredPickupDate.length > 10 ? localDateInZone(new Date(request.requiredPickupDate), zone) : request.requiredPickupDate;
    if (sentDay !== undefined && sentDay !== quote.requiredPickupDate) {
      laneViolations.push({ field: 'requiredPickupDate', reason: `the quote is for pickup on ${quote.requiredPickupDate}` });
    }
    const today = localDateInZone(this.deps.now(), zone);
    if (quote.requiredPickupDate < today) {
      throw quoteRefused(
        'quote_expired',
        `quote ${quote.id} is for pickup on ${quote.requiredPickupDate}, which has passed (today is ${today} at the origin); book the same freight on a new quote for the next pickup day: shipper ship --quote ${quote.id} --requote`,
        [{ field: 'quoteId', reason: `its pickup day ${quote.requiredPickupDate} has passed` }],
      );
    }
    if (!check.ok && check.reason === 'expired') {
      throw quoteRefused('quote_expired', `${check.detail}, or book the same freight on a new quote: shipper ship --quote ${quote.id} --requote`, [
        { field: 'quoteId', reason: `quote ${quote.id} expired at ${quote.quoteExpirationTime}` },
      ]);
    }
    const violations = [...(check.ok ? [] : check.violations), ...laneViolations];
    if (violations.length > 0) throw quoteRefused('quote_mismatch', `the shipment does not match quote ${quote.id}`, violations);
    return quote;
  }
}

/**
 * An expired quote or freight that differs from it: 400, as the published create answers "quote
 * mismatch, or expired quote" (shipper answered 409 before). The published document names no
 * reason code for either, so the codes are shipper's own, for programs to tell them apart.
 */
function quoteRefused(reason: 'quote_expired' | 'quote_mismatch', detail: string, violations: Array<{ field: string; reason: string }>): ProblemError {
  return makeProblem(400, reason === 'quote_expired' ? 'quote-expired' : 'quote-mismatch', 'Bad Request', detail, { reason, violations });
}

/**
 * What a booking is, for recognising a retry: the request without the options that only say how
 * to treat a conflict (rebookQuote, duplicateRefNumber), so that an import re-run with
 * --allow-duplicate-ref still recognises what the first run booked.
 */
export function withoutOptions(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const { rebookQuote: _rebook, duplicateRefNumber: _duplicates, ...request } = raw as Record<string, unknown>;
  return request;
}

/** The key of a PRO given in a batch: one shipment per carrier. */
export const proKey = (request: Pick<ShipmentRequest, 'proNumber' | 'carrier'>): string => `${request.carrier?.scac ?? ''} ${normalisedProNumber(request.proNumber ?? '')}`;

/**
 * A booking's records read back through the store's schemas (records.ts assertReadsBack): no
 * number is spent on a record that could not be read back. `request`, the judged request the
 * records were built from (buildShipment, rateQuote), makes the check cheaper without making it
 * weaker:
 *
 * - when JSON leaves a record as it is (keptByJson: no NaN, Infinity, -0 or undefined member
 *   anywhere), its JSON copy would equal it, so the record itself is checked, without the copy;
 * - its addresses and the fields of its lines that are the request's own values (the very values
 *   the request schema gave: checked by identity here) are not checked again. The store's schemas
 *   are the request schemas made lenient (schemas.ts: storedAddressSchema, ratedOrderComponentSchema),
 *   never stricter, so what the request schema gives they read; a property test holds the two
 *   checks to the same verdict on records booked from generated requests.
 *
 * Everything else (the numbers rating worked out, the quote's, the placeholders, the carrier's
 * fields) goes through the store's schemas as before; a record that does not qualify is checked
 * in full, copy included, as it always was. About 40 to 18 us a booking (docs/design/import-cpu.md).
 */
export function assertReadable(shipment: Shipment, ownQuote: Quote | undefined, request?: ShipmentRequest): void {
  const refusal = 'the booking was refused: its record would not read back (a number out of range?); nothing was booked';
  const ownParts =
    request !== undefined &&
    shipment.pickupAddress === request.pickupAddress &&
    shipment.deliveryAddress === request.deliveryAddress &&
    requestsOwnLines(shipment.orderComponents, request);
  if (ownParts && keptByJsonBesideRequest(shipment, SHIPMENT_PARTIES)) {
    if (!bookedRecordSchemas().shipment.safeParse(shipment).success) throw internalError(refusal);
  } else assertReadsBack(shipmentSchema, shipment, refusal);
  if (!ownQuote) return;
  if (request !== undefined && requestsOwnLines(ownQuote.orderComponents, request) && keptByJsonBesideRequest(ownQuote, NO_PARTIES)) {
    if (!bookedRecordSchemas().quote.safeParse(ownQuote).success) throw internalError(refusal);
  } else assertReadsBack(quoteSchema, ownQuote, refusal);
}

const SHIPMENT_PARTIES: ReadonlySet<string> = new Set(['pickupAddress', 'deliveryAddress']);
const NO_PARTIES: ReadonlySet<string> = new Set();

/**
 * keptByJson (jsonCopy.ts) of a record's members but the request's own values: the `parties` and
 * the REQUEST_LINE_FIELDS of its lines (the request schema's values, which JSON keeps or the store
 * reads as JSON leaves them: the same property test holds it).
 */
function keptByJsonBesideRequest(record: object, parties: ReadonlySet<string>): boolean {
  if (!plainObject(record)) return false;
  for (const key in record) {
    const value = (record as Record<string, unknown>)[key];
    if (parties.has(key)) continue;
    if (key !== 'orderComponents' || !Array.isArray(value)) {
      if (key === '__proto__' || !keptByJson(value, 1)) return false;
      continue;
    }
    for (const line of value as unknown[]) {
      if (!plainObject(line)) return false;
      for (const field in line) {
        if (field === '__proto__' || (!LINE_FIELDS.has(field) && !keptByJson((line as Record<string, unknown>)[field], 3))) return false;
      }
    }
  }
  return true;
}

/** An object JSON writes member by member: a plain one without toJSON. */
const plainObject = (value: unknown): value is object =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** The fields of a line that rateComponent and buildShipment copy from the request's line (`stackable` may be the quote's: checked). */
const REQUEST_LINE_MASK = {
  palletCount: true,
  poundsWeight: true,
  dimensions: true,
  description: true,
  nmfcCode: true,
  packagingType: true,
  pieceCount: true,
  hazmat: true,
} as const;
export const REQUEST_LINE_FIELDS = Object.keys(REQUEST_LINE_MASK) as ReadonlyArray<keyof typeof REQUEST_LINE_MASK>;
const LINE_FIELDS: ReadonlySet<string> = new Set(REQUEST_LINE_FIELDS);

/** Whether each line's REQUEST_LINE_FIELDS are the request's line's own values. */
function requestsOwnLines(lines: unknown, request: ShipmentRequest): boolean {
  const sent = request.orderComponents;
  if (!Array.isArray(lines) || lines.length !== sent.length) return false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as Record<string, unknown> | null;
    const own = sent[index]!;
    if (typeof line !== 'object' || line === null) return false;
    for (const field of REQUEST_LINE_FIELDS) if (line[field] !== own[field]) return false;
  }
  return true;
}

let bookedSchemas: { shipment: z.ZodType; quote: z.ZodType } | undefined;
/** The store's shipment and quote schemas without the request's own values (see assertReadable), which they leave unread; built on first use. */
function bookedRecordSchemas(): { shipment: z.ZodType; quote: z.ZodType } {
  if (bookedSchemas) return bookedSchemas;
  const lines = z.array(ratedOrderComponentSchema.omit(REQUEST_LINE_MASK));
  bookedSchemas = {
    shipment: shipmentSchema.omit({ pickupAddress: true, deliveryAddress: true }).extend({ orderComponents: lines }),
    quote: quoteSchema.extend({ orderComponents: lines }),
  };
  return bookedSchemas;
}
