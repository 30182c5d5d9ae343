/**
 * Quotes of the local engine: validation, rating (pure, src/domain/rating.ts) and the store.
 */
import type { ZipPlace } from '../../domain/rating.js';
import { rateQuote } from '../../domain/rating.js';
import { quoteRequestSchema, quoteSchema, shipmentSchema, type Page, type Quote, type QuoteRequest, type ShipmentRequest, type Violation } from '../../domain/schemas.js';
import { quoteRequestForShipment } from '../../domain/shipment.js';
import type { Tariff } from '../../domain/tariff.js';
import { formatFieldPath, parseRequest } from '../../domain/validation.js';
import type { JsonStore } from '../../store/jsonStore.js';
import { constraintViolation, notFound } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { IdempotencyRecords } from './idempotency.js';
import { requestHash } from './idempotency.js';
import { type IdFactory, shipmentIdOfBookingQuote } from './ids.js';
import { guardStore, listRecords, QUOTE_ID, type PageRequest } from './records.js';

/** A shipment's file: the Shipment, plus the quote it was priced on when its booking quoted first. */
export const storedShipmentSchema = shipmentSchema.extend({ quote: quoteSchema.optional() });

export interface ZipLookup {
  lookup(postalCode: string): ZipPlace | undefined;
}

export interface QuoteDeps {
  store: JsonStore;
  zips: ZipLookup;
  ids: IdFactory;
  idempotency: IdempotencyRecords;
  now: () => Date;
}

export class Quotes {
  constructor(private readonly deps: QuoteDeps) {}

  async create(raw: unknown, tariff: Tariff, idempotencyKey: string | undefined): Promise<ApiResult<Quote>> {
    const parsed = parseRequest(quoteRequestSchema, raw);
    const zipViolations = unknownZips(this.deps.zips, raw, [['origin'], ['destination']]);
    if (!parsed.ok) throw constraintViolation(mergeViolations(parsed.violations, zipViolations));
    if (zipViolations.length > 0) throw constraintViolation(zipViolations);
    const { store, idempotency } = this.deps;

    return guardStore(async () => {
      if (!idempotencyKey) return { data: await this.rateAndStore(parsed.value, tariff), warnings: parsed.warnings, replayed: false };
      const hash = requestHash(raw);
      return store.withLock('idempotency', async () => {
        const existing = await idempotency.find('quote', idempotencyKey, hash);
        if (existing) return { data: await this.mustGet(existing.resourceId), warnings: parsed.warnings, replayed: true };
        const quote = await this.rateAndStore(parsed.value, tariff);
        await idempotency.put(idempotencyKey, { scope: 'quote', requestHash: hash, resourceId: quote.id });
        return { data: quote, warnings: parsed.warnings, replayed: false };
      });
    });
  }

  async get(id: string): Promise<Quote> {
    if (!QUOTE_ID.test(id)) throw notFound('quote', id);
    return guardStore(() => this.mustGet(id));
  }

  list(query: PageRequest): Promise<ApiResult<Page<Quote>>> {
    return listRecords(this.deps.store, 'quotes', quoteSchema, QUOTE_ID, query);
  }

  /** The quote a shipment request without quoteId is booked on (not stored here). */
  rateForShipment(request: ShipmentRequest, tariff: Tariff) {
    return this.rate(quoteRequestForShipment(request), tariff);
  }

  private rate(request: QuoteRequest, tariff: Tariff) {
    const now = this.deps.now();
    return rateQuote({
      id: this.deps.ids.quote(now),
      request,
      origin: this.deps.zips.lookup(request.origin.postalCode)!,
      destination: this.deps.zips.lookup(request.destination.postalCode)!,
      tariff,
      now,
    });
  }

  private async rateAndStore(request: QuoteRequest, tariff: Tariff): Promise<Quote> {
    const rated = this.rate(request, tariff);
    if (!rated.ok) throw constraintViolation(rated.violations);
    await this.deps.store.put('quotes', rated.value.id, rated.value);
    return rated.value;
  }

  async mustGet(id: string): Promise<Quote> {
    const quote = (await this.deps.store.get('quotes', id, quoteSchema)) ?? (await this.quoteOfBooking(id));
    if (!quote) throw notFound('quote', id);
    return quote;
  }

  /**
   * The quote a shipment was booked on when the booking quoted first: kept inside the shipment's
   * file (one write per shipment instead of two, and never one without the other) under the
   * shipment's own ULID, `qt_X` for `sh_X`.
   */
  private async quoteOfBooking(quoteId: string): Promise<Quote | undefined> {
    const record = await this.deps.store.get('shipments', shipmentIdOfBookingQuote(quoteId), storedShipmentSchema);
    return record?.quote?.id === quoteId ? record.quote : undefined;
  }
}

/** Well-formed ZIPs that the geodata does not know, as violations on their paths. */
export function unknownZips(zips: ZipLookup, raw: unknown, paths: Array<Array<string | number>>): Violation[] {
  const violations: Violation[] = [];
  for (const path of paths) {
    const place = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | null | undefined)?.[key], raw) as { postalCode?: unknown } | undefined;
    const postalCode = typeof place?.postalCode === 'string' ? place.postalCode.trim() : undefined;
    if (postalCode && /^\d{5}(-\d{4})?$/.test(postalCode) && !zips.lookup(postalCode)) {
      violations.push({ field: formatFieldPath([...path, 'postalCode']), message: `unknown ZIP ${postalCode.slice(0, 5)}` });
    }
  }
  return violations;
}

/** The schema's violations first, then those of other checks on fields the schema found no fault with. */
export function mergeViolations(first: Violation[], second: Violation[]): Violation[] {
  const fields = new Set(first.map((violation) => violation.field));
  return [...first, ...second.filter((violation) => !fields.has(violation.field))];
}
