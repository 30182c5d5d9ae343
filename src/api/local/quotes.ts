/**
 * Quotes of the local engine: validation, rating (pure, src/domain/rating.ts) and the store.
 */
import { checkAddressAgainstZip, type AddressZipCheck } from '../../domain/addressZip.js';
import type { Warning } from '../../domain/warnings.js';
import { isZipCode, type ZipLookup } from '../../domain/zipCode.js';
import { beyondLtlWarnings, rateQuote, restampedQuote, type RatedQuote } from '../../domain/rating.js';
import { quoteSchema, type Page, type Quote, type QuoteRequest, type Shipment, type ShipmentRequest, type Violation } from '../../domain/schemas.js';
import { quoteRequestForShipment } from '../../domain/shipment.js';
import type { Tariff } from '../../domain/tariff.js';
import { localDateInZone } from '../../domain/dates.js';
import { formatFieldPath } from '../../domain/validation.js';
import type { QuoteFilter, ShipperStore } from '../../store/ports.js';
import { constraintViolation, notFound } from '../problems.js';
import type { ApiResult } from '../types.js';
import { militaryMailReason } from '../../domain/militaryZip.js';
import { findIdempotent } from './idempotency.js';
import { OtherCompanysRecord } from './companyStore.js';
import type { Input } from './input.js';
import type { IdFactory } from './ids.js';
import { answerPage, assertReadsBack, guardStore, pageRequest, QUOTE_ID, storeFailure, type PageRequest, type StoreReads } from './records.js';

export interface QuoteDeps {
  store: ShipperStore;
  zips: ZipLookup;
  ids: IdFactory;
  now: () => Date;
  /** Prices a request that names carrierScac by that carrier's agreement. */
  /** Prices a request that names carrierScac by that carrier's agreement (rates.ts). */
  carrierRating?: { rate(request: QuoteRequest, tariff: Tariff): Promise<RatedQuote> };
}

export type QuoteStatus = NonNullable<Quote['status']>;

export class Quotes {
  constructor(private readonly deps: QuoteDeps) {}

  /** `idempotency`: the key and the hash of the request as sent (idempotency.ts requestHash). */
  async create(input: Input<QuoteRequest>, tariff: Tariff, idempotency: { key: string; requestHash: string } | undefined): Promise<ApiResult<Quote>> {
    const { value: request, warnings: requestWarnings } = input;
    const { store } = this.deps;
    // A carrier's agreement prices before the unit of work (its agreements and fuel prices are read first).
    const carrierRating = this.deps.carrierRating;
    const carrierRated = request.carrierScac && carrierRating ? await carrierRating.rate(request, tariff) : undefined;

    return guardStore(async () => {
      if (!idempotency) {
        const { quote, warnings } = this.rated(request, tariff, carrierRated);
        // Its own unit of work: quotes saved at the same time share one durable write.
        await store.quotes.put(quote);
        return { data: this.answer(quote, []), warnings: [...requestWarnings, ...warnings], replayed: false };
      }
      const { key, requestHash: hash } = idempotency;
      const outcome = await store.withTransaction<{ replayedId: string } | { quote: Quote; warnings: Warning[] }>(async (tx) => {
        const existing = await findIdempotent(tx.idempotency, 'quote', key, hash);
        if (existing) return { replayedId: existing.resourceId };
        const { quote, warnings } = this.rated(request, tariff, carrierRated);
        tx.quotes.put(quote);
        tx.idempotency.put(key, { scope: 'quote', requestHash: hash, resourceId: quote.id });
        return { quote, warnings };
      });
      if ('replayedId' in outcome) {
        const quote = await this.answered(outcome.replayedId);
        return { data: quote, warnings: [...requestWarnings, ...beyondLtlWarnings(quote.orderComponents)], replayed: true };
      }
      return { data: this.answer(outcome.quote, []), warnings: [...requestWarnings, ...outcome.warnings], replayed: false };
    });
  }

  /**
   * A quote as answered: with its status and the shipments booked on it. Another company's quote
   * is not found: the published GET quote answers 403 only for the key itself, 404 for a quote it
   * cannot have (a booking on it is 403, as published).
   */
  async get(id: string): Promise<Quote> {
    if (!QUOTE_ID.test(id)) throw notFound('quote', id);
    // answered() under guardStore, without the promises of both: a cached GET is a few awaits in all.
    try {
      const quote = await this.mustGet(id);
      return this.answerOnce(quote, await this.deps.store.shipments.findByQuote(id));
    } catch (error) {
      if (error instanceof OtherCompanysRecord) throw notFound('quote', id);
      throw storeFailure(error);
    }
  }

  async list(query: PageRequest, filter: QuoteFilter & { status?: QuoteStatus | undefined }): Promise<ApiResult<Page<Quote>>> {
    const { status, ...rest } = filter;
    // The status needs the bookings: computed for the candidates, then filtered on.
    const page = answerPage(await guardStore(() => this.deps.store.quotes.list(rest, pageRequest(query, QUOTE_ID))));
    const items = await guardStore(() => Promise.all(page.data.items.map(async (quote) => this.answer(quote, await this.deps.store.shipments.findByQuote(quote.id)))));
    if (status === undefined) return { ...page, data: { ...page.data, items } };
    // Filter on status across pages: keep reading until the page is full.
    const wanted = items.filter((quote) => quote.status === status);
    if (wanted.length === items.length || page.data.nextCursor === null) return { ...page, data: { items: wanted, nextCursor: page.data.nextCursor } };
    const more = await this.list({ ...query, cursor: page.data.nextCursor, limit: (query.limit ?? 20) - wanted.length }, filter);
    return { data: { items: [...wanted, ...more.data.items], nextCursor: more.data.nextCursor }, warnings: [...page.warnings, ...more.warnings] };
  }

  /** The stored quote with what it has become since: booked (as which order numbers), expired or open. */
  private async answered(id: string): Promise<Quote> {
    const quote = await this.mustGet(id);
    return this.answer(quote, await this.deps.store.shipments.findByQuote(id));
  }

  /**
   * The answers of get(), by the stored quote (the record cache answers the same object until the
   * record changes): the same answer while its bookings (the same records) and its status stay, so
   * that the server can keep the answer's JSON text by the object (server.ts) and a cached GET
   * makes no copy. A new answer when the clock turned the quote EXPIRED or a booking changed.
   */
  private readonly answers = new WeakMap<Quote, { bookings: ReadonlyArray<Pick<Shipment, 'id' | 'orderNumber' | 'orderStatus'>>; answer: Quote }>();

  private answerOnce(quote: Quote, bookings: ReadonlyArray<Pick<Shipment, 'id' | 'orderNumber' | 'orderStatus'>>): Quote {
    const known = this.answers.get(quote);
    if (known && known.bookings.length === bookings.length && known.bookings.every((shipment, index) => shipment === bookings[index])) {
      if (this.statusOf(quote, bookings) === known.answer.status) return known.answer;
    }
    const answer = this.answer(quote, bookings);
    this.answers.set(quote, { bookings, answer });
    return answer;
  }

  private statusOf(quote: Quote, bookings: ReadonlyArray<Pick<Shipment, 'orderStatus'>>): QuoteStatus {
    const booked = bookings.some((shipment) => shipment.orderStatus !== 'CANCELLED');
    // A quote cannot be booked once it expired or its pickup day passed at the origin.
    const now = this.deps.now();
    const zone = this.deps.zips.lookup(quote.pickupAddress.zipCode)?.timeZone ?? 'America/Chicago';
    const expired = now.getTime() >= Date.parse(quote.quoteExpirationTime) || quote.requiredPickupDate < localDateInZone(now, zone);
    return booked ? 'BOOKED' : expired ? 'EXPIRED' : 'OPEN';
  }

  private answer(quote: Quote, bookings: ReadonlyArray<Pick<Shipment, 'id' | 'orderNumber' | 'orderStatus'>>): Quote {
    // A rest copy that leaves keys out is V8's slow path, and a stored quote rarely holds either key:
    // then one spread, the two keys added last as the rest copy would put them.
    const stored = 'status' in quote || 'bookings' in quote ? withoutAnswerKeys(quote) : quote;
    return {
      ...stored,
      status: this.statusOf(quote, bookings),
      bookings: bookings.map((shipment) => ({ shipmentId: shipment.id, orderNumber: shipment.orderNumber, orderStatus: shipment.orderStatus })),
    };
  }

  /**
   * The last quote rated for each shipment request object (weakly held): an import's booking
   * books the very objects its check priced, so it rates one again only when the tariff or the
   * day at the origin changed in between (restampedQuote).
   */
  private readonly shipmentRatings = new WeakMap<ShipmentRequest, { tariff: Tariff; today: string; quote: Quote; warnings: Warning[] }>();

  /** The quote a shipment request without quoteId is booked on (not stored here). */
  rateForShipment(request: ShipmentRequest, tariff: Tariff): RatedQuote {
    const now = this.deps.now();
    const origin = this.deps.zips.lookup(request.pickupAddress.zipCode);
    const today = origin && localDateInZone(now, origin.timeZone);
    const earlier = this.shipmentRatings.get(request);
    if (earlier && earlier.tariff === tariff && earlier.today === today) {
      return { ok: true, value: restampedQuote(earlier.quote, this.deps.ids.quote(now), tariff, now, origin!.timeZone), warnings: [...earlier.warnings] };
    }
    const rated = this.rate(quoteRequestForShipment(request), tariff, now, today);
    if (rated.ok && today !== undefined) this.shipmentRatings.set(request, { tariff, today, quote: rated.value, warnings: [...rated.warnings] });
    return rated;
  }

  private rate(request: QuoteRequest, tariff: Tariff, now = this.deps.now(), today?: string): RatedQuote {
    return rateQuote({
      id: this.deps.ids.quote(now),
      request,
      origin: this.deps.zips.lookup(request.pickupAddress.zipCode)!,
      destination: this.deps.zips.lookup(request.deliveryAddress.zipCode)!,
      tariff,
      now,
      today,
    });
  }

  /** The quote and its warnings; `carrierRated`: the price of the carrier named by carrierScac, worked out before. */
  private rated(request: QuoteRequest, tariff: Tariff, carrierRated?: RatedQuote): { quote: Quote; warnings: Warning[] } {
    const rated = carrierRated ?? this.rate(request, tariff);
    if (!rated.ok) throw constraintViolation(rated.violations);
    assertQuoteReadable(rated.value);
    return { quote: rated.value, warnings: rated.warnings };
  }

  /** The quote as stored (without status), a booking's own quote included: what a booking compares its freight with. */
  async mustGet(id: string, reads: Pick<StoreReads, 'quotes'> = this.deps.store): Promise<Quote> {
    const quote = await reads.quotes.get(id);
    if (!quote) throw notFound('quote', id);
    return quote;
  }
}

/** Well-formed ZIPs that the geodata does not know, or that take no freight (military mail), as violations on their paths. */
export function unknownZips(zips: ZipLookup, raw: unknown, paths: Array<Array<string | number>>): Violation[] {
  const violations: Violation[] = [];
  for (const path of paths) {
    const place = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | null | undefined)?.[key], raw) as { zipCode?: unknown } | undefined;
    const zipCode = typeof place?.zipCode === 'string' ? place.zipCode.trim() : undefined;
    if (!zipCode || !isZipCode(zipCode)) continue;
    const known = zips.lookup(zipCode);
    const message = known ? militaryMailReason(known.zipCode, known.state) : `unknown ZIP ${zipCode.slice(0, 5)}`;
    if (message) violations.push({ field: formatFieldPath([...path, 'zipCode']), reason: message });
  }
  return violations;
}

/**
 * The store's own schema must read a quote back (JSON has no NaN or Infinity: they become null),
 * so a quote is checked as it will be read before it is written, as a booking's record is.
 */
export function assertQuoteReadable(quote: Quote): void {
  assertReadsBack(quoteSchema, quote, 'the quote was refused: its record would not read back (a number out of range?); nothing was saved');
}

/** City and state of the shipper's, consignee's and bill-to addresses against their ZIPs (domain/addressZip.ts). */
export function addressesAgainstZips(zips: ZipLookup, raw: unknown): AddressZipCheck {
  const check: AddressZipCheck = { violations: [], warnings: [] };
  const request = raw as Record<string, unknown> | null;
  const terms = request?.freightChargeTerms as Record<string, unknown> | null | undefined;
  const parties = [
    ['pickupAddress', request?.pickupAddress],
    ['deliveryAddress', request?.deliveryAddress],
    // The third party the carrier bills: printed on the BOL and the invoice, checked as the others are.
    ['freightChargeTerms.billTo', typeof terms === 'object' ? terms?.billTo : undefined],
  ] as const;
  for (const [party, value] of parties) {
    const address = (typeof value === 'object' && !Array.isArray(value) ? value : undefined) as Record<string, unknown> | null | undefined;
    const zipCode = typeof address?.zipCode === 'string' ? address.zipCode.trim() : '';
    const place = isZipCode(zipCode) ? zips.lookup(zipCode) : undefined;
    if (!address || !place) continue;
    const { violations, warnings } = checkAddressAgainstZip(address, place, party);
    check.violations.push(...violations);
    check.warnings.push(...warnings);
  }
  return check;
}

function withoutAnswerKeys(quote: Quote): Omit<Quote, 'status' | 'bookings'> {
  const { status: _stored, bookings: _storedBookings, ...stored } = quote;
  return stored;
}
