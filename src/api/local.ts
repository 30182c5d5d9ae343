/**
 * LocalApi: the ShipperApi implemented in this process by the pure domain (validation, rating,
 * booking) around the JSON store. Also what `shipper serve` exposes over HTTP.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { bolNumberFor, orderNumberFor } from '../domain/bolNumber.js';
import { MAX_BATCH_ITEMS } from '../domain/limits.js';
import { rateQuote, type ZipPlace } from '../domain/rating.js';
import {
  quoteRequestSchema,
  quoteSchema,
  shipmentRequestSchema,
  shipmentSchema,
  transitRequestSchema,
  type Page,
  type ProblemDetail,
  type Quote,
  type QuoteRequest,
  type Shipment,
  type ShipmentRequest,
  type TransitTable,
  type Violation,
} from '../domain/schemas.js';
import { canonicalJson } from '../domain/canonicalJson.js';
import { buildShipment, checkShipmentAgainstQuote, quoteRequestForShipment, shipmentFieldOfQuoteField } from '../domain/shipment.js';
import { tariffSchema, type Tariff } from '../domain/tariff.js';
import { localDateInZone, nextBusinessDay } from '../domain/transit.js';
import { pickupDays, transitForLane } from '../domain/transitTable.js';
import { formatFieldPath, parseRequest } from '../domain/validation.js';
import { ZipDirectory } from '../geo/zipDirectory.js';
import { defaultTariffFile, templatesDir } from '../paths.js';
import { JsonStore, StoreError } from '../store/jsonStore.js';
import { highestOrderSerialInUse } from './ordersInUse.js';
import { describeFileError } from '../fs/durableWrite.js';
import { jsonSyntaxProblem } from '../printable.js';
import { conflict, constraintViolation, idempotencyKeyReused, makeProblem, notFound, ProblemError, storeFailure } from './problems.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type ApiResult,
  type BatchOutcome,
  type BolTemplateInfo,
  type ListQuery,
  type ShipmentBatchItem,
  type ShipperApi,
  type WriteOptions,
} from './types.js';

export interface LocalApiOptions {
  storeDir: string;
  /** A tariff JSON file; default: the one shipped in templates/tariff/. */
  tariffFile?: string | undefined;
  /** GS1 company prefix of BOL numbers (7-10 digits). 0614141 is GS1's documentation prefix. */
  bolCompanyPrefix?: string | undefined;
  now?: () => Date;
}

export const DEFAULT_BOL_COMPANY_PREFIX = '0614141';

const QUOTE_ID = /^qt_[0-9A-HJKMNP-TV-Z]{26}$/;
const SHIPMENT_ID = /^sh_[0-9A-HJKMNP-TV-Z]{26}$/;

const idempotencyRecordSchema = z.object({
  scope: z.enum(['quote', 'shipment']),
  requestHash: z.string(),
  resourceId: z.string(),
  /** For shipments, the numbers reserved before the record was written, so a crash is resumable. */
  serial: z.number().int().optional(),
});

type Rating = ReturnType<typeof rateQuote>;

/** A shipment's file: the Shipment, plus the quote it was priced on when its booking quoted first. */
const storedShipmentSchema = shipmentSchema.extend({ quote: quoteSchema.optional() });

/** A valid shipment request of a batch, before the lock. */
interface BookingCandidate {
  index: number;
  key: string | undefined;
  requestHash: string;
  request: ShipmentRequest;
  warnings: string[];
  /** The quote-first rating, for requests without quoteId. */
  rated: Rating | undefined;
}

/** A shipment being booked under the lock: numbers and id known once reserved (or resumed). */
interface Booking {
  candidate: BookingCandidate;
  id: string | undefined;
  serial: number | undefined;
  quote: Quote | undefined;
  /** The quote was rated for this booking and must be stored with it. */
  newQuote: boolean;
}

/**
 * Idempotency keys `shipper-batch:<batch>#<n>` (those of `shipper import`) are recorded in one
 * ledger per batch instead of one record per key: a CSV chunk of 500 shipments costs one
 * reservation write instead of 500. The behaviour seen by clients is the same for every key.
 */
const LEDGER_KEY = /^(shipper-batch:[^#]{1,200})#([A-Za-z0-9_-]{1,32})$/;
export function ledgerKeyOf(key: string): { batch: string; entry: string } | undefined {
  const match = LEDGER_KEY.exec(key);
  return match ? { batch: match[1]!, entry: match[2]! } : undefined;
}

const MAX_LEDGER_ENTRIES = 5000;

const shipmentLedgerSchema = z.object({
  scope: z.literal('shipment-ledger'),
  batch: z.string(),
  entries: z.record(z.string(), z.object({ requestHash: z.string(), resourceId: z.string(), serial: z.number().int() })),
});
type ShipmentLedger = z.infer<typeof shipmentLedgerSchema>;

export class LocalApi implements ShipperApi {
  readonly mode = 'local' as const;
  readonly store: JsonStore;
  private readonly zips = new ZipDirectory();
  private tariff: Tariff | undefined;
  private readonly nextUlid = monotonicFactory(pooledRandom());
  private readonly now: () => Date;
  private readonly bolCompanyPrefix: string;
  private bolRenderer: Promise<{ render(shipment: Shipment, template: string): Promise<Uint8Array>; templates(): Promise<BolTemplateInfo[]> }> | undefined;

  constructor(private readonly options: LocalApiOptions) {
    this.store = new JsonStore(options.storeDir);
    this.now = options.now ?? (() => new Date());
    this.bolCompanyPrefix = options.bolCompanyPrefix ?? DEFAULT_BOL_COMPANY_PREFIX;
  }

  // ---------------------------------------------------------------------------------------------
  // Quotes

  async createQuote(raw: unknown, options: WriteOptions = {}): Promise<ApiResult<Quote>> {
    const tariff = await this.loadTariff();
    const parsed = parseRequest(quoteRequestSchema, raw);
    const zipViolations = this.unknownZips(raw, [['origin'], ['destination']]);
    if (!parsed.ok) throw constraintViolation(mergeViolations(parsed.violations, zipViolations));
    if (zipViolations.length > 0) throw constraintViolation(zipViolations);

    return guardStore(async () => {
      if (!options.idempotencyKey) return { data: await this.rateAndStore(parsed.value, tariff), warnings: parsed.warnings, replayed: false };
      const key = options.idempotencyKey;
      return this.store.withLock('idempotency', async () => {
        const existing = await this.findIdempotent('quote', key, raw);
        if (existing) return { data: await this.mustGetQuote(existing.resourceId), warnings: parsed.warnings, replayed: true };
        const quote = await this.rateAndStore(parsed.value, tariff);
        await this.store.put('idempotency', idempotencyId('quote', key), {
          scope: 'quote',
          requestHash: requestHash(raw),
          resourceId: quote.id,
        });
        return { data: quote, warnings: parsed.warnings, replayed: false };
      });
    });
  }

  async getQuote(id: string): Promise<ApiResult<Quote>> {
    if (!QUOTE_ID.test(id)) throw notFound('quote', id);
    return { data: await guardStore(() => this.mustGetQuote(id)), warnings: [] };
  }

  async listQuotes(query: ListQuery = {}): Promise<ApiResult<Page<Quote>>> {
    return this.listRecords('quotes', quoteSchema, QUOTE_ID, query);
  }

  private async rateAndStore(request: QuoteRequest, tariff: Tariff): Promise<Quote> {
    const now = this.now();
    const rated = rateQuote({
      id: `qt_${this.nextUlid(now.getTime())}`,
      request,
      origin: this.zips.lookup(request.origin.postalCode)!,
      destination: this.zips.lookup(request.destination.postalCode)!,
      tariff,
      now,
    });
    if (!rated.ok) throw constraintViolation(rated.violations);
    await this.store.put('quotes', rated.value.id, rated.value);
    return rated.value;
  }

  private async mustGetQuote(id: string): Promise<Quote> {
    const quote = (await this.store.get('quotes', id, quoteSchema)) ?? (await this.quoteOfBooking(id));
    if (!quote) throw notFound('quote', id);
    return quote;
  }

  /**
   * The quote a shipment was booked on when the booking quoted first: kept inside the shipment's
   * file (one write per shipment instead of two, and never one without the other) under the
   * shipment's own ULID, `qt_X` for `sh_X`.
   */
  private async quoteOfBooking(quoteId: string): Promise<Quote | undefined> {
    const record = await this.store.get('shipments', `sh_${quoteId.slice(3)}`, storedShipmentSchema);
    return record?.quote?.id === quoteId ? record.quote : undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Shipments

  async createShipment(raw: unknown, options: WriteOptions = {}): Promise<ApiResult<Shipment>> {
    const outcome = await this.bookGrouped({ request: raw, idempotencyKey: options.idempotencyKey });
    if (!outcome.ok) throw new ProblemError(outcome.problem);
    return { data: outcome.data, warnings: outcome.warnings, replayed: outcome.replayed };
  }

  /** Single bookings waiting for the batch in progress to finish (see bookGrouped). */
  private readonly waitingBookings: Array<{ item: ShipmentBatchItem; settle: (outcome: Promise<BatchOutcome<Shipment>>) => void }> = [];
  private bookingsInProgress = false;

  /**
   * Group commit for single bookings (a server with many clients): the first books at once; those
   * that arrive meanwhile wait and then go together as one batch, in arrival order. Each batch
   * takes the store's lock once and shares its fsyncs, where one lock per booking made 32
   * concurrent clients queue on the lock's retry back-off. The rules are createShipments', item by
   * item; a failure of the whole batch (store) fails the bookings of that batch.
   */
  private bookGrouped(item: ShipmentBatchItem): Promise<BatchOutcome<Shipment>> {
    return new Promise((resolve) => {
      this.waitingBookings.push({ item, settle: resolve });
      if (!this.bookingsInProgress) void this.flushBookings();
    });
  }

  private async flushBookings(): Promise<void> {
    this.bookingsInProgress = true;
    try {
      while (this.waitingBookings.length > 0) {
        const batch = this.waitingBookings.splice(0, MAX_BATCH_ITEMS);
        const outcomes = this.createShipments(batch.map(({ item }) => item));
        batch.forEach(({ settle }, index) => settle(outcomes.then((all) => all[index]!)));
        await outcomes.catch(() => undefined);
      }
    } finally {
      this.bookingsInProgress = false;
    }
  }

  /**
   * Books many shipments with the rules of createShipment (one code path: createShipment is a
   * batch of one). Validation and quote-first rating run before the lock; under the lock a batch
   * costs one counter write and two rounds of parallel fsync'd writes.
   *
   * Crash safety, in write order: (1) the counter reserves every new number at once, (2) the
   * reservations of keyed shipments (key, body hash, id, serial: one idempotency record per key,
   * or one ledger per `shipper-batch:` batch), (3) the shipments, each file holding the quote it
   * was priced on when it quoted first. A SIGKILL after (1) only leaves unused numbers (never
   * reused); after (2) a retry with the same key finishes the booking with the reserved id and
   * number; after (3) it returns the shipment. Every file appears whole or not at all.
   */
  async createShipments(items: ShipmentBatchItem[]): Promise<Array<BatchOutcome<Shipment>>> {
    const tariff = await this.loadTariff();
    const outcomes: Array<BatchOutcome<Shipment> | undefined> = new Array(items.length);
    const candidates: BookingCandidate[] = [];
    items.forEach((item, index) => {
      const checked = this.checkShipmentRequest(item.request);
      if (!checked.ok) {
        outcomes[index] = { ok: false, problem: checked.problem };
        return;
      }
      const key = item.idempotencyKey || undefined;
      candidates.push({
        index,
        key,
        requestHash: key ? requestHash(item.request) : '',
        request: checked.request,
        warnings: checked.warnings,
        // Quote-first rating is pure CPU: done before the lock so that the lock covers I/O only.
        rated: checked.request.quoteId ? undefined : this.rateForShipment(checked.request, tariff),
      });
    });
    if (candidates.length > 0) {
      await guardStore(() => this.store.withLock('shipments', () => this.bookLocked(candidates, outcomes)));
    }
    return outcomes as Array<BatchOutcome<Shipment>>;
  }

  private async bookLocked(candidates: BookingCandidate[], outcomes: Array<BatchOutcome<Shipment> | undefined>): Promise<void> {
    // Earlier bookings under the same keys: one ledger per batch, else one record per key.
    const ledgers = new Map<string, ShipmentLedger>();
    for (const candidate of candidates) {
      const batch = candidate.key ? ledgerKeyOf(candidate.key)?.batch : undefined;
      if (batch === undefined || ledgers.has(batch)) continue;
      const stored = await this.store.get('idempotency', idempotencyId('shipment-ledger', batch), shipmentLedgerSchema);
      ledgers.set(batch, stored ?? { scope: 'shipment-ledger', batch, entries: {} });
    }
    const perKey = await Promise.all(
      candidates.map((candidate) =>
        candidate.key && !ledgerKeyOf(candidate.key)
          ? this.store.get('idempotency', idempotencyId('shipment', candidate.key), idempotencyRecordSchema)
          : undefined,
      ),
    );
    const recordOf = (candidate: BookingCandidate, position: number): { resourceId: string; serial?: number | undefined; requestHash: string } | undefined => {
      const ledgerKey = candidate.key ? ledgerKeyOf(candidate.key) : undefined;
      return ledgerKey ? ledgers.get(ledgerKey.batch)!.entries[ledgerKey.entry] : perKey[position];
    };

    const firstWithKey = new Map<string, BookingCandidate>();
    const repeats: Array<{ candidate: BookingCandidate; first: BookingCandidate }> = [];
    const replays: Array<{ candidate: BookingCandidate; shipmentId: string; serial: number | undefined }> = [];
    const bookings: Booking[] = [];
    const ledgerSizes = new Map<string, number>();

    for (const [position, candidate] of candidates.entries()) {
      const fail = (problem: ProblemError) => {
        outcomes[candidate.index] = { ok: false, problem: problem.problem };
      };
      if (candidate.key) {
        const first = firstWithKey.get(candidate.key);
        if (first) {
          if (first.requestHash !== candidate.requestHash) fail(idempotencyKeyReused(candidate.key));
          else repeats.push({ candidate, first });
          continue;
        }
        firstWithKey.set(candidate.key, candidate);
        const record = recordOf(candidate, position);
        if (record && record.requestHash !== candidate.requestHash) {
          fail(idempotencyKeyReused(candidate.key));
          continue;
        }
        if (record) {
          replays.push({ candidate, shipmentId: record.resourceId, serial: record.serial });
          continue;
        }
        // A ledger is rewritten whole on every booking it records: keep it the size of a CSV chunk.
        const batch = ledgerKeyOf(candidate.key)?.batch;
        if (batch !== undefined) {
          const size = (ledgerSizes.get(batch) ?? Object.keys(ledgers.get(batch)!.entries).length) + 1;
          ledgerSizes.set(batch, size);
          if (size > MAX_LEDGER_ENTRIES) {
            fail(makeProblem(400, 'batch-too-large', 'Batch Too Large', `an idempotency batch (${batch}) records at most ${MAX_LEDGER_ENTRIES} keys`));
            continue;
          }
        }
      }
      bookings.push({ candidate, id: undefined, serial: undefined, quote: undefined, newQuote: false });
    }

    // A recorded key whose shipment is missing was interrupted after its numbers were reserved:
    // it is finished below with the same id and number instead of being booked anew.
    const replayed = await Promise.all(replays.map(({ shipmentId }) => this.store.get('shipments', shipmentId, shipmentSchema)));
    replays.forEach(({ candidate, shipmentId, serial }, position) => {
      const shipment = replayed[position];
      if (shipment) outcomes[candidate.index] = { ok: true, data: shipment, warnings: candidate.warnings, replayed: true };
      else bookings.push({ candidate, id: shipmentId, serial, quote: undefined, newQuote: false });
    });
    bookings.sort((a, b) => a.candidate.index - b.candidate.index);

    const ready: Booking[] = [];
    for (const booking of bookings) {
      const { candidate } = booking;
      try {
        if (candidate.request.quoteId) {
          booking.quote = await this.quoteForBooking(candidate.request.quoteId, candidate.request);
        } else if (candidate.rated!.ok) {
          booking.quote = candidate.rated!.value;
          booking.newQuote = true;
        } else {
          throw constraintViolation(candidate.rated!.violations.map((violation) => ({ ...violation, field: shipmentFieldOfQuoteField(violation.field) })));
        }
        ready.push(booking);
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        outcomes[candidate.index] = { ok: false, problem: error.problem };
      }
    }

    // 1. The counter: every new number at once.
    const fresh = ready.filter((booking) => booking.serial === undefined);
    let nextSerial = fresh.length > 0 ? await this.store.reserveSerialsLocked('orders', fresh.length, (missing) => highestOrderSerialInUse(this.store, missing)) : 0;
    for (const booking of fresh) {
      booking.serial = nextSerial++;
      booking.id = `sh_${this.nextUlid(this.now().getTime())}`;
    }

    // 2. The reservations (idempotency records, ledgers), 3. the shipments, each with the quote it was priced on when it quoted first.
    const reservations: Array<{ id: string; record: unknown }> = [];
    const touchedLedgers = new Set<ShipmentLedger>();
    for (const booking of fresh) {
      const { key, requestHash } = booking.candidate;
      if (!key) continue;
      const ledgerKey = ledgerKeyOf(key);
      if (ledgerKey) {
        const ledger = ledgers.get(ledgerKey.batch)!;
        ledger.entries[ledgerKey.entry] = { requestHash, resourceId: booking.id!, serial: booking.serial! };
        touchedLedgers.add(ledger);
      } else {
        reservations.push({
          id: idempotencyId('shipment', key),
          record: { scope: 'shipment', requestHash, resourceId: booking.id!, serial: booking.serial! },
        });
      }
    }
    for (const ledger of touchedLedgers) reservations.push({ id: idempotencyId('shipment-ledger', ledger.batch), record: ledger });
    await this.store.putMany('idempotency', reservations);

    const now = this.now();
    for (const booking of ready) {
      if (booking.newQuote) booking.quote = { ...booking.quote!, id: `qt_${booking.id!.slice(3)}` };
    }
    const shipments = ready.map((booking) =>
      buildShipment({
        id: booking.id!,
        orderNumber: orderNumberFor(booking.serial!),
        bolNumber: bolNumberFor(this.bolCompanyPrefix, booking.serial!),
        request: booking.candidate.request,
        quote: booking.quote!,
        now,
      }),
    );
    await this.store.putMany(
      'shipments',
      shipments.map((shipment, position) => ({ id: shipment.id, record: ready[position]!.newQuote ? { ...shipment, quote: ready[position]!.quote } : shipment })),
    );
    ready.forEach((booking, position) => {
      outcomes[booking.candidate.index] = { ok: true, data: shipments[position]!, warnings: booking.candidate.warnings, replayed: false };
    });
    for (const { candidate, first } of repeats) {
      const outcome = outcomes[first.index]!;
      outcomes[candidate.index] = outcome.ok ? { ...outcome, warnings: candidate.warnings, replayed: true } : outcome;
    }
  }

  /**
   * Validates and prices shipment requests as createShipments would, without booking or storing
   * anything: each outcome is the quote the shipment would be booked on (never stored).
   */
  async previewShipments(requests: unknown[]): Promise<Array<BatchOutcome<Quote>>> {
    const tariff = await this.loadTariff();
    const outcomes: Array<BatchOutcome<Quote>> = [];
    for (const raw of requests) {
      const checked = this.checkShipmentRequest(raw);
      if (!checked.ok) {
        outcomes.push({ ok: false, problem: checked.problem });
        continue;
      }
      const { request, warnings } = checked;
      try {
        if (request.quoteId) {
          const quote = await guardStore(() => this.quoteForBooking(request.quoteId!, request));
          outcomes.push({ ok: true, data: quote, warnings, replayed: false });
          continue;
        }
        const rated = this.rateForShipment(request, tariff);
        if (!rated.ok) throw constraintViolation(rated.violations.map((violation) => ({ ...violation, field: shipmentFieldOfQuoteField(violation.field) })));
        outcomes.push({ ok: true, data: rated.value, warnings, replayed: false });
      } catch (error) {
        if (!(error instanceof ProblemError) || error.status >= 500) throw error;
        outcomes.push({ ok: false, problem: error.problem });
      }
    }
    return outcomes;
  }

  /** Schema validation plus known ZIPs: every violation of the request at once. */
  private checkShipmentRequest(raw: unknown): { ok: true; request: ShipmentRequest; warnings: string[] } | { ok: false; problem: ProblemDetail } {
    const parsed = parseRequest(shipmentRequestSchema, raw);
    const zipViolations = this.unknownZips(raw, [['shipper'], ['consignee']]);
    if (!parsed.ok) return { ok: false, problem: constraintViolation(mergeViolations(parsed.violations, zipViolations)).problem };
    if (zipViolations.length > 0) return { ok: false, problem: constraintViolation(zipViolations).problem };
    return { ok: true, request: parsed.value, warnings: parsed.warnings };
  }

  /** The quote a request without quoteId is booked on (not stored here). */
  private rateForShipment(request: ShipmentRequest, tariff: Tariff) {
    const now = this.now();
    return rateQuote({
      id: `qt_${this.nextUlid(now.getTime())}`,
      request: quoteRequestForShipment(request),
      origin: this.zips.lookup(request.shipper.postalCode)!,
      destination: this.zips.lookup(request.consignee.postalCode)!,
      tariff,
      now,
    });
  }

  private async quoteForBooking(quoteId: string, request: z.output<typeof shipmentRequestSchema>): Promise<Quote> {
    if (!QUOTE_ID.test(quoteId)) throw notFound('quote', quoteId);
    const quote = await this.mustGetQuote(quoteId);
    const check = checkShipmentAgainstQuote(request.orderComponents, quote, this.now());
    const laneViolations: Violation[] = [];
    if (request.shipper.postalCode !== quote.origin.postalCode) {
      laneViolations.push({ field: 'shipper.postalCode', message: `the quote is from ${quote.origin.postalCode}` });
    }
    if (request.consignee.postalCode !== quote.destination.postalCode) {
      laneViolations.push({ field: 'consignee.postalCode', message: `the quote is to ${quote.destination.postalCode}` });
    }
    if (request.pickupDate !== undefined && request.pickupDate !== quote.pickupDate) {
      laneViolations.push({ field: 'pickupDate', message: `the quote is for pickup on ${quote.pickupDate}` });
    }
    if (!check.ok && check.reason === 'expired') throw conflict(check.detail);
    const violations = [...(check.ok ? [] : check.violations), ...laneViolations];
    if (violations.length > 0) throw conflict(`the shipment does not match quote ${quote.id}`, violations);
    return quote;
  }

  async getShipment(id: string): Promise<ApiResult<Shipment>> {
    if (!SHIPMENT_ID.test(id)) throw notFound('shipment', id);
    const shipment = await guardStore(() => this.store.get('shipments', id, shipmentSchema));
    if (!shipment) throw notFound('shipment', id);
    return { data: shipment, warnings: [] };
  }

  async listShipments(query: ListQuery = {}): Promise<ApiResult<Page<Shipment>>> {
    return this.listRecords('shipments', shipmentSchema, SHIPMENT_ID, query);
  }

  // ---------------------------------------------------------------------------------------------
  // Transit tables

  async transitTimes(raw: unknown): Promise<ApiResult<TransitTable>> {
    const tariff = await this.loadTariff();
    const parsed = parseRequest(transitRequestSchema, raw);
    const destinations = (raw as { destinations?: unknown } | null)?.destinations;
    const destinationPaths = Array.isArray(destinations) ? destinations.map((_, index) => ['destinations', index]) : [];
    const zipViolations = this.unknownZips(raw, [['origin'], ...destinationPaths]);
    if (!parsed.ok) throw constraintViolation(mergeViolations(parsed.violations, zipViolations));
    if (zipViolations.length > 0) throw constraintViolation(zipViolations);
    const request = parsed.value;
    const origin = this.zips.lookup(request.origin.postalCode)!;
    const today = localDateInZone(this.now(), origin.timeZone);
    // Unlike a quote, a closed first day is no error here: the table shows why there is no pickup.
    const start = request.pickupDate ?? nextBusinessDay(today, tariff.holidays);
    if (start < today) {
      throw constraintViolation([{ field: 'pickupDate', message: `${start} is in the past (today is ${today} at the origin)` }]);
    }
    const days = pickupDays(start, request.pickupDays, tariff.holidays);
    const lanes = request.destinations.map((destination) => transitForLane(origin, this.zips.lookup(destination.postalCode)!, days, tariff));
    return { data: { lanes }, warnings: parsed.warnings };
  }

  // ---------------------------------------------------------------------------------------------
  // Bills of lading

  async renderBol(id: string, options: { template?: string | undefined } = {}): Promise<ApiResult<Uint8Array>> {
    const { data: shipment } = await this.getShipment(id);
    const template = options.template ?? 'standard';
    // An unknown template is the caller's mistake (400, the same in both modes), not a failure.
    const { data: templates } = await this.listBolTemplates();
    if (!templates.some((known) => known.name === template)) {
      const names = templates.map((known) => known.name).join(', ');
      throw constraintViolation([{ field: 'template', message: `unknown BOL template "${template}"; known templates: ${names}` }]);
    }
    const renderer = await this.loadBolRenderer();
    return { data: await renderer.render(shipment, template), warnings: [] };
  }

  async listBolTemplates(): Promise<ApiResult<BolTemplateInfo[]>> {
    // Listing reads the template files only: no need to load pdf-lib.
    const { listBolTemplates } = await import('../bol/template.js');
    return { data: await listBolTemplates(join(templatesDir(), 'bol')), warnings: [] };
  }

  private loadBolRenderer() {
    // pdf-lib and fonts are heavy: imported only by the commands that print.
    this.bolRenderer ??= import('../bol/index.js').then(({ createBolRenderer }) =>
      createBolRenderer({ templatesDir: join(templatesDir(), 'bol') }),
    );
    return this.bolRenderer;
  }

  async close(): Promise<void> {}

  // ---------------------------------------------------------------------------------------------

  private async listRecords<S extends z.ZodType>(
    collection: string,
    schema: S,
    idPattern: RegExp,
    { limit = DEFAULT_PAGE_SIZE, cursor }: ListQuery,
  ): Promise<ApiResult<Page<z.output<S>>>> {
    const size = Math.min(Math.max(1, Math.trunc(limit)), MAX_PAGE_SIZE);
    if (cursor !== undefined && !idPattern.test(cursor)) throw constraintViolation([{ field: 'cursor', message: 'is not a cursor of this list' }]);
    return guardStore(async () => {
      const { ids, more } = await this.store.listIds(collection, { limit: size, before: cursor });
      const warnings: string[] = [];
      const items: z.output<S>[] = [];
      for (const id of ids) {
        try {
          const record = await this.store.get(collection, id, schema);
          if (record) items.push(record);
        } catch (error) {
          // One damaged file must not hide the others: skip it and say which.
          if (error instanceof StoreError) warnings.push(error.message);
          else throw error;
        }
      }
      return { data: { items, nextCursor: more ? (ids.at(-1) ?? null) : null }, warnings };
    });
  }

  private unknownZips(raw: unknown, paths: Array<Array<string | number>>): Violation[] {
    const violations: Violation[] = [];
    for (const path of paths) {
      const place = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | null | undefined)?.[key], raw) as
        | { postalCode?: unknown }
        | undefined;
      const postalCode = typeof place?.postalCode === 'string' ? place.postalCode.trim() : undefined;
      if (postalCode && /^\d{5}(-\d{4})?$/.test(postalCode) && !this.zips.lookup(postalCode)) {
        violations.push({ field: formatFieldPath([...path, 'postalCode']), message: `unknown ZIP ${postalCode.slice(0, 5)}` });
      }
    }
    return violations;
  }

  private async findIdempotent(scope: 'quote' | 'shipment', key: string, raw: unknown) {
    const record = await this.store.get('idempotency', idempotencyId(scope, key), idempotencyRecordSchema);
    if (record && record.requestHash !== requestHash(raw)) throw idempotencyKeyReused(key);
    return record;
  }

  async loadTariff(): Promise<Tariff> {
    if (this.tariff) return this.tariff;
    const file = this.options.tariffFile ?? defaultTariffFile();
    let json: unknown;
    let text = '';
    try {
      text = await readFile(file, 'utf8');
      json = JSON.parse(text);
    } catch (error) {
      // Never the file's own text (jsonSyntaxProblem): it would reach the terminal as it is.
      const reason = error instanceof SyntaxError ? jsonSyntaxProblem(error, text) : describeFileError(error);
      throw makeProblem(500, 'bad-tariff', 'Bad Tariff', `cannot read the tariff ${file}: ${reason}`);
    }
    const parsed = tariffSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues.slice(0, 3).map((issue) => `${formatFieldPath(issue.path)}: ${issue.message}`);
      throw makeProblem(500, 'bad-tariff', 'Bad Tariff', `the tariff ${file} is invalid: ${first.join('; ')}`);
    }
    this.tariff = parsed.data;
    return this.tariff;
  }

  /** Exposed for commands that need geodata (transit tables, the wizard). */
  lookupZip(postalCode: string): ZipPlace | undefined {
    return this.zips.lookup(postalCode);
  }
}

function mergeViolations(first: Violation[], second: Violation[]): Violation[] {
  const fields = new Set(first.map((violation) => violation.field));
  return [...first, ...second.filter((violation) => !fields.has(violation.field))];
}

function idempotencyId(scope: string, key: string): string {
  return createHash('sha256').update(`${scope}\u0000${key}`).digest('hex');
}

/** A hash of the request that ignores key order, so a re-sent body matches itself. */
export function requestHash(raw: unknown): string {
  return createHash('sha256').update(canonicalJson(raw)).digest('hex');
}

async function guardStore<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StoreError) throw storeFailure(error.message);
    throw error;
  }
}

/**
 * ulid's default PRNG asks the OS for one random byte per character (16 calls per id); the same
 * cryptographic bytes drawn 4 KiB at a time cost a batch import far less.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}
