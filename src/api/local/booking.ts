/**
 * Booking shipments in the local engine: validation and quote-first rating before the unit of
 * work, then in one unit of work (the store's withTransaction) the checks against what is booked,
 * the numbers, the idempotency records and the shipments: they commit together or not at all.
 * Single bookings that arrive while a batch is being booked wait and go together as the next
 * batch, so a server with many clients commits once per batch.
 */
import { DOCUMENTATION_PREFIX_WARNING } from '../../domain/bolNumber.js';
import { warning, type Warning } from '../../domain/warnings.js';
import { MAX_BATCH_ITEMS } from '../../domain/limits.js';
import { normalisedReference } from '../../domain/recordKeys.js';
import type { Quote, Shipment, ShipmentRequest } from '../../domain/schemas.js';
import { buildShipment, withNumbers } from '../../domain/shipment.js';
import { confirmedOnCreation, confirmViolations, notConfirmedWarning } from '../../domain/confirmChecks.js';
import type { Tariff } from '../../domain/tariff.js';
import type { PublishedLimits } from '../../domain/publishedLimits.js';
import type { ShipperStore, StoreTransaction } from '../../store/ports.js';
import { constraintViolation, idempotencyKeyReused, ProblemError } from '../problems.js';
import type { ApiResult, BatchOutcome, ShipmentBatchItem } from '../types.js';
import { assertReadable, BookingChecks, proKey, withoutOptions } from './bookingChecks.js';
import { assignCarrierNumbers, checkCarrierDetails, type CarrierSettings } from './carrierNumbers.js';
import { shipmentRequestHash, shipmentRequestHashes } from './idempotency.js';
import { type IdFactory, quoteIdOfBooking } from './ids.js';
import type { BodyOf } from './input.js';
import type { Numbering } from './numbering.js';
import type { Quotes } from './quotes.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { guardStore, type StoreReads } from './records.js';

export interface BookingDeps {
  store: ShipperStore;
  zips: ZipLookup;
  ids: IdFactory;
  numbering: Numbering;
  quotes: Quotes;
  carriers: CarrierSettings;
  tariff: () => Promise<Tariff>;
  now: () => Date;
  limits: PublishedLimits;
}

type Rating = ReturnType<Quotes['rateForShipment']>;

/** A valid shipment request of a batch, before the lock. */
interface BookingCandidate {
  index: number;
  key: string | undefined;
  /** The request's hashes (idempotency.ts): its lines in any order, and (worked out when a record is found) as sent, which older records hold. */
  requestHash: string;
  /** Every hash a record of this request may hold (idempotency.ts shipmentRequestHashes): worked out only against a record. */
  recordedHashes: () => readonly string[];
  request: ShipmentRequest;
  warnings: Warning[];
  /** The quote-first rating, for requests without quoteId. */
  rated: Rating | undefined;
  /** Confirm it in this unit of work when it passes the published confirm checks (the batch extension's `confirm`). */
  confirm: boolean;
}

/** A shipment being booked under the lock: numbers and id known once reserved (or resumed). */
interface Booking {
  candidate: BookingCandidate;
  id: string | undefined;
  serial: number | undefined;
  quote: Quote | undefined;
  /** The quote was rated for this booking and must be stored with it. */
  newQuote: boolean;
  /** Its record with placeholder numbers, checked before numbers are spent on it (provisionalShipment). */
  provisional: Shipment | undefined;
}

export class Bookings {
  /** Single bookings waiting for the batch in progress to finish (see book). */
  private readonly waiting: Array<{ item: ShipmentBatchItem; settle: (outcome: Promise<BatchOutcome<Shipment>>) => void }> = [];
  private inProgress = false;

  private readonly checks: BookingChecks;

  constructor(private readonly deps: BookingDeps) {
    this.checks = new BookingChecks(deps);
  }

  async createShipment(raw: unknown, idempotencyKey: string | undefined): Promise<ApiResult<Shipment>> {
    const outcome = await this.bookGrouped({ request: raw, idempotencyKey });
    if (!outcome.ok) throw new ProblemError(outcome.problem);
    return { data: outcome.data, warnings: [...outcome.warnings, ...this.numberingWarnings([outcome])], replayed: outcome.replayed };
  }

  /** Once per call that gave out numbers: they are under GS1's documentation prefix. */
  private numberingWarnings(outcomes: ReadonlyArray<BatchOutcome<Shipment>>): Warning[] {
    const issued = outcomes.some((outcome) => outcome.ok && !outcome.replayed);
    return issued && this.deps.numbering.usesDocumentationPrefix ? [warning('DOCUMENTATION_PREFIX', DOCUMENTATION_PREFIX_WARNING)] : [];
  }

  /** The batch extension: the envelope was parsed at LocalApi's door (400), each item is checked by the rules of a single booking. */
  async createShipments(batch: BodyOf<'createShipments'>): Promise<ApiResult<{ items: Array<BatchOutcome<Shipment>> }>> {
    const items = await this.book(batch.items);
    return { data: { items }, warnings: this.numberingWarnings(items) };
  }

  async previewShipments(batch: BodyOf<'previewShipments'>): Promise<ApiResult<{ items: Array<BatchOutcome<Quote>> }>> {
    return { data: { items: await this.preview(batch.items) }, warnings: [] };
  }

  /**
   * Group commit for single bookings: the first books at once; those that arrive meanwhile wait
   * and then go together as one batch, in arrival order. Each batch takes the store's lock once and
   * shares its fsyncs. A failure of the whole batch (store) fails the bookings of that batch.
   */
  private bookGrouped(item: ShipmentBatchItem): Promise<BatchOutcome<Shipment>> {
    return new Promise((resolve) => {
      this.waiting.push({ item, settle: resolve });
      if (!this.inProgress) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inProgress = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH_ITEMS);
        const outcomes = this.book(batch.map(({ item }) => item));
        batch.forEach(({ settle }, index) => settle(outcomes.then((all) => all[index]!)));
        await outcomes.catch(() => undefined);
      }
    } finally {
      this.inProgress = false;
    }
  }

  /** Books many shipments, item by item with the rules of a single booking, in one lock. */
  private async book(items: ReadonlyArray<ShipmentBatchItem>): Promise<Array<BatchOutcome<Shipment>>> {
    const tariff = await this.deps.tariff();
    const outcomes: Array<BatchOutcome<Shipment> | undefined> = new Array(items.length);
    const candidates: BookingCandidate[] = [];
    items.forEach((item, index) => {
      const checked = this.checks.check(item.request);
      if (!checked.ok) {
        outcomes[index] = { ok: false, problem: checked.problem };
        return;
      }
      const key = item.idempotencyKey || undefined;
      const request = withoutOptions(item.request);
      candidates.push({
        index,
        key,
        requestHash: key ? shipmentRequestHash(request) : '',
        recordedHashes: () => shipmentRequestHashes(request),
        request: checked.request,
        warnings: checked.warnings,
        // Quote-first rating is pure CPU: done before the lock so that the lock covers I/O only.
        rated: checked.request.quoteId ? undefined : this.deps.quotes.rateForShipment(checked.request, tariff),
        confirm: item.confirm === true,
      });
    });
    if (candidates.length > 0) {
      await guardStore(() => this.deps.store.withTransaction((tx) => this.bookInTransaction(tx, candidates, outcomes, new BatchState(tariff.pickupCutoff))));
    }
    return outcomes as Array<BatchOutcome<Shipment>>;
  }

  private async bookInTransaction(tx: StoreTransaction, candidates: BookingCandidate[], outcomes: Array<BatchOutcome<Shipment> | undefined>, batch: BatchState): Promise<void> {
    const { numbering, ids } = this.deps;
    const records = await Promise.all(candidates.map((candidate) => (candidate.key ? tx.idempotency.get('shipment', candidate.key) : undefined)));

    const firstWithKey = new Map<string, BookingCandidate>();
    const repeats: Array<{ candidate: BookingCandidate; first: BookingCandidate }> = [];
    const replays: Array<{ candidate: BookingCandidate; shipmentId: string; serial: number | undefined }> = [];
    const bookings: Booking[] = [];

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
        const record = records[position];
        if (record && record.requestHash !== candidate.requestHash && !candidate.recordedHashes().includes(record.requestHash)) {
          fail(idempotencyKeyReused(candidate.key));
          continue;
        }
        if (record) {
          replays.push({ candidate, shipmentId: record.resourceId, serial: record.serial });
          continue;
        }
      }
      bookings.push({ candidate, id: undefined, serial: undefined, quote: undefined, newQuote: false, provisional: undefined });
    }

    // A recorded key whose shipment is missing was interrupted after its numbers were reserved:
    // it is finished below with the same id and number instead of being booked anew.
    const replayed = await Promise.all(replays.map(({ shipmentId }) => tx.shipments.get(shipmentId)));
    replays.forEach(({ candidate, shipmentId, serial }, position) => {
      const shipment = replayed[position];
      if (shipment) outcomes[candidate.index] = { ok: true, data: shipment, warnings: candidate.warnings, replayed: true };
      else bookings.push({ candidate, id: shipmentId, serial, quote: undefined, newQuote: false, provisional: undefined });
    });
    bookings.sort((a, b) => a.candidate.index - b.candidate.index);

    const ready: Booking[] = [];
    for (const booking of bookings) {
      const { candidate } = booking;
      try {
        // A booking resumed after a crash was checked against other bookings when its numbers were reserved.
        const checked = await this.checkBooking(tx, candidate, batch, { resumed: booking.serial !== undefined });
        booking.quote = checked.quote;
        booking.newQuote = checked.newQuote;
        candidate.request = checked.request;
        // No number is spent on a record that could not be read back.
        booking.provisional = this.placeholderShipment(booking.candidate.request, booking.quote!, booking.id);
        assertReadable(booking.provisional, booking.newQuote ? booking.quote : undefined, candidate.request);
        ready.push(booking);
        batch.take(candidate.request, candidate.index);
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        outcomes[candidate.index] = { ok: false, problem: error.problem };
      }
    }

    // 1. The counter: every new number at once. The ids carry the instant the shipments are created at.
    const now = this.deps.now();
    const fresh = ready.filter((booking) => booking.serial === undefined);
    let nextSerial = fresh.length > 0 ? await numbering.reserveOrders(tx.counters, fresh.length) : 0;
    for (const booking of fresh) {
      booking.serial = nextSerial++;
      booking.id = ids.shipment(now);
    }

    // The carrier's numbers: an SSCC per pallet, a PRO from the carrier's block.
    const carrierNumbers = await assignCarrierNumbers(
      tx,
      ready.map((booking) => booking.candidate.request),
      numbering,
      this.deps.carriers,
    );

    // The idempotency records of keyed bookings, and the shipments with the quote each priced for itself.
    for (const booking of fresh) {
      if (!booking.candidate.key) continue;
      tx.idempotency.put(booking.candidate.key, { scope: 'shipment', requestHash: booking.candidate.requestHash, resourceId: booking.id!, serial: booking.serial! });
    }

    for (const booking of ready) {
      if (booking.newQuote) booking.quote = { ...booking.quote!, id: quoteIdOfBooking(booking.id!) };
    }
    // The records checked before, with their numbers; confirmed here when asked and the checks pass.
    const shipments = ready.map((booking, position) => {
      const created = withNumbers(booking.provisional!, {
        id: booking.id!,
        orderNumber: numbering.orderNumber(booking.serial!),
        bolNumber: numbering.bolNumber(booking.serial!),
        ...carrierNumbers[position]!,
        quoteId: booking.quote!.id,
        now,
      });
      if (!booking.candidate.confirm) return created;
      const { order, violations } = confirmedOnCreation(created, this.deps.limits);
      if (violations.length > 0) booking.candidate.warnings.push(notConfirmedWarning(violations, created.orderNumber));
      return order;
    });
    shipments.forEach((shipment, position) => tx.shipments.put(shipment, ready[position]!.newQuote ? ready[position]!.quote : undefined, { created: true }));
    ready.forEach((booking, position) => {
      outcomes[booking.candidate.index] = { ok: true, data: shipments[position]!, warnings: booking.candidate.warnings, replayed: false };
    });
    for (const { candidate, first } of repeats) {
      const outcome = outcomes[first.index]!;
      outcomes[candidate.index] = outcome.ok ? { ...outcome, warnings: candidate.warnings, replayed: true } : outcome;
    }
  }

  /**
   * The shipment a booking would write, with placeholder numbers: checked before any number is
   * spent (a booking's provisional record), or by the confirm checks of a preview.
   */
  private placeholderShipment(request: ShipmentRequest, quote: Quote, id: string | undefined): Shipment {
    return buildShipment({ id: id ?? 'sh_00000000000000000000000000', orderNumber: 'SO-000000', bolNumber: '00000000000000000', ssccs: [], request, quote, now: this.deps.now() });
  }

  /**
   * Validates and prices shipment requests as a booking would, without booking or storing
   * anything: each outcome is the quote the shipment would be booked on (never stored).
   */
  private async preview(items: ReadonlyArray<ShipmentBatchItem & { confirm?: boolean | undefined }>): Promise<Array<BatchOutcome<Quote>>> {
    const tariff = await this.deps.tariff();
    const { store } = this.deps;
    const outcomes: Array<BatchOutcome<Quote>> = [];
    const batch = new BatchState(tariff.pickupCutoff);
    for (const [index, { request: raw, idempotencyKey, confirm }] of items.entries()) {
      const checked = this.checks.check(raw);
      if (!checked.ok) {
        outcomes.push({ ok: false, problem: checked.problem });
        continue;
      }
      const { request, warnings } = checked;
      // The key's record is looked up with the request as sent: its hashes are of that (idempotency.ts).
      const reservedUnder = (key: string) => this.checks.reservedUnder(store, key, raw);
      try {
        const outcome = await guardStore(async (): Promise<BatchOutcome<Quote>> => {
          // Booked already under this key (an import run again): it would come back, not be booked.
          const reserved = idempotencyKey ? await reservedUnder(idempotencyKey) : undefined;
          if (reserved?.quote) return { ok: true, data: reserved.quote, warnings, replayed: true };
          const rated = request.quoteId ? undefined : this.deps.quotes.rateForShipment(request, tariff);
          if (reserved) {
            // Its number is reserved and its file not written yet: another process is booking it right
            // now (the same file imported twice at once), or was stopped and the booking finishes it
            // under that number. Either way it comes back; its own reference is not a duplicate.
            return { ok: true, data: (await this.quoteOf(store, request, rated)).quote, warnings, replayed: true };
          }
          const booked = await this.checkBooking(store, { request, warnings, rated }, batch, {
            // Taken since the key was looked up: by this very booking if another process reserved
            // the key meanwhile (it reserves before it records the reference and the quote's booking).
            reservedMeanwhile: idempotencyKey ? async () => (await reservedUnder(idempotencyKey)) !== undefined : undefined,
          });
          if (!booked.replayed) batch.take(booked.request, index);
          // What the booking's confirm would find, on the record it would write (numbers aside).
          if (confirm && !booked.replayed) {
            const violations = confirmViolations(this.placeholderShipment(booked.request, booked.quote, undefined), this.deps.limits);
            if (violations.length > 0) return { ok: true, data: booked.quote, warnings: [...warnings, notConfirmedWarning(violations)], replayed: false };
          }
          return { ok: true, data: booked.quote, warnings, replayed: booked.replayed };
        });
        outcomes.push(outcome);
      } catch (error) {
        if (!(error instanceof ProblemError) || error.status >= 500) throw error;
        outcomes.push({ ok: false, problem: error.problem });
      }
    }
    return outcomes;
  }

  /** The quote a request books on: its quoteId's (checked against the request), or `rated`, the one rated for it. */
  private async quoteOf(reads: StoreReads, request: ShipmentRequest, rated: Rating | undefined): Promise<{ quote: Quote; newQuote: boolean }> {
    if (request.quoteId) return { quote: await this.checks.quoteForBooking(reads, request.quoteId, request), newQuote: false };
    if (rated!.ok) return { quote: rated!.value, newQuote: true };
    // The quote's fields are the shipment's: its violations name what the request wrote.
    throw constraintViolation(rated!.violations);
  }

  /**
   * The rules a booking is held to, in this order, by the booking (under the lock, `reads` its unit
   * of work) and the preview (without it, `reads` the store): the quote it books on and that quote
   * not booked already, its reference, the quoted carrier, its PRO not taken, the carrier's details.
   * Each refusal is a ProblemError; the warnings are added to the item's. `resumed`: a booking
   * finished after a crash was checked against other bookings when its numbers were reserved.
   * `reservedMeanwhile`: whether a conflict with another booking is this very booking, reserved
   * under its key by another process since the key was looked up (then it comes back `replayed`).
   */
  private async checkBooking(
    reads: StoreReads,
    item: { request: ShipmentRequest; warnings: Warning[]; rated: Rating | undefined },
    batch: BatchState,
    options: { resumed?: boolean; reservedMeanwhile?: (() => Promise<boolean>) | undefined },
  ): Promise<{ request: ShipmentRequest; quote: Quote; newQuote: boolean; replayed: boolean }> {
    const { resumed = false, reservedMeanwhile } = options;
    const { quote, newQuote } = await this.quoteOf(reads, item.request, item.rated);
    /** A check against other bookings; true when the conflict it found is this booking itself. */
    const againstOthers = async (check: () => Promise<void>): Promise<boolean> => {
      if (resumed) return false;
      try {
        await check();
        return false;
      } catch (error) {
        if (reservedMeanwhile && error instanceof ProblemError && error.status === 409 && (await reservedMeanwhile())) return true;
        throw error;
      }
    };
    const replayed = { request: item.request, quote, newQuote, replayed: true };
    if (await againstOthers(() => this.checks.checkQuoteFree(reads, item.request, batch.quotes))) return replayed;
    if (await againstOthers(() => this.checks.checkReference(reads, item.request, item.warnings, batch.references))) return replayed;
    const request = withQuotedCarrier(item.request, quote);
    if (await againstOthers(() => this.checks.checkProFree(reads, request, batch.pros))) return replayed;
    const carrier = checkCarrierDetails(request, this.deps.carriers, batch.pickupCutoff);
    if (carrier.violations.length > 0) throw constraintViolation(carrier.violations);
    if (!resumed) item.warnings.push(...carrier.warnings);
    return { request, quote, newQuote, replayed: false };
  }
}

/** What the checks of one batch know of its earlier items: the quotes, references and PROs they take, by item number. */
class BatchState {
  readonly quotes = new Map<string, number>();
  readonly references = new Map<string, number>();
  readonly pros = new Map<string, number>();

  constructor(readonly pickupCutoff: string) {}

  /** Item `index` passed, booking `request` (on the quoted carrier): what it takes is taken for the items after it. */
  take(request: ShipmentRequest, index: number): void {
    if (request.quoteId) this.quotes.set(request.quoteId, index);
    if (request.proNumber) this.pros.set(proKey(request), index);
    if (request.refNumber) this.references.set(normalisedReference(request.refNumber), index);
  }
}

/**
 * A quote priced by a carrier's agreement books on that carrier: the request's carrier when it
 * names the same SCAC (its own spelling of the name kept), the quote's when it names none; another
 * carrier is refused, since the price is that carrier's.
 */
function withQuotedCarrier(request: ShipmentRequest, quote: Quote): ShipmentRequest {
  const quoted = quote.carrier;
  if (!quoted) return request;
  if (!request.carrier) return { ...request, carrier: { name: quoted.name, scac: quoted.scac } };
  if (request.carrier.scac === quoted.scac) return request;
  throw constraintViolation([
    {
      field: 'carrier.scac',
      reason: `quote ${quote.id} is priced by the agreement of ${quoted.scac} (${quoted.name}), not ${request.carrier.scac}: book it on ${quoted.scac}, or quote ${request.carrier.scac}`,
    },
  ]);
}
