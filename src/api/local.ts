/**
 * LocalApi: the ShipperApi implemented in this process by the pure domain around the JSON store,
 * and what `shipper serve` exposes over HTTP. Each operation delegates to the part that owns it:
 * quotes, bookings (with their group commit), numbering, idempotency records, transit tables,
 * documents; the tariff and the ZIP geodata come from providers handed in.
 */
import type { z } from 'zod';
import { ZipDirectory } from '../geo/zipDirectory.js';
import { JsonStore } from '../store/jsonStore.js';
import { operations, type OperationSpec } from './operations.js';
import { constraintViolation } from './problems.js';
import type { ArgsOf, OptionsOf, ShipperApi } from './types.js';
import { MAX_PAGE_SIZE } from '../domain/limits.js';
import { parseRequest } from '../domain/validation.js';
import { Bookings } from './local/booking.js';
import { Documents } from './local/documents.js';
import { IdempotencyRecords } from './local/idempotency.js';
import { IdFactory } from './local/ids.js';
import { Invoices } from './local/invoices.js';
import { keyFilterValues, normalisedProNumber, ShipmentKeyIndex } from './local/shipmentKeys.js';
import { Numbering, type NumberingOptions } from './local/numbering.js';
import { ShipmentIndexes } from './local/indexes.js';
import { Quotes, type ZipLookup } from './local/quotes.js';
import { guardStore } from './local/records.js';
import { Shipments, createdRange, inRange } from './local/shipments.js';
import { TariffProvider } from './local/tariffProvider.js';
import { transitTimes } from './local/transit.js';

export interface LocalApiOptions extends NumberingOptions {
  storeDir: string;
  /** A tariff JSON file; default: the one shipped in templates/tariff/. */
  tariffFile?: string | undefined;
  /** ZIP geodata; default: the generated table. */
  zips?: ZipLookup | undefined;
  now?: () => Date;
  /** Records kept in memory after a read (a long-running server); 0 or absent: none. */
  cacheEntries?: number | undefined;
}

type Options<K extends keyof typeof operations> = OptionsOf<(typeof operations)[K]>;

/** The query options of a call, checked with the operation's own schema (the server parses the same). */
function queryOf<O extends OperationSpec>(spec: O, options: object | undefined): z.output<NonNullable<O['query']>> {
  const { idempotencyKey: _key, ...query } = (options ?? {}) as Record<string, unknown>;
  if (!spec.query) return {} as z.output<NonNullable<O['query']>>;
  const defined = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
  const parsed = parseRequest(spec.query, defined);
  if (!parsed.ok) throw constraintViolation(parsed.violations);
  return parsed.value as z.output<NonNullable<O['query']>>;
}

export class LocalApi implements ShipperApi {
  readonly mode = 'local' as const;
  readonly store: JsonStore;
  readonly zips: ZipLookup;
  readonly tariffs: TariffProvider;
  readonly numbering: Numbering;
  private readonly now: () => Date;
  private readonly quotes: Quotes;
  private readonly bookings: Bookings;
  private readonly shipments: Shipments;
  private readonly documents = new Documents();
  private readonly invoices: Invoices;
  private readonly shipmentKeys: ShipmentKeyIndex;

  constructor(options: LocalApiOptions) {
    this.store = new JsonStore(options.storeDir, { cacheEntries: options.cacheEntries });
    this.now = options.now ?? (() => new Date());
    this.zips = options.zips ?? new ZipDirectory();
    this.tariffs = new TariffProvider(options.tariffFile);
    this.numbering = new Numbering(this.store, options);
    const ids = new IdFactory();
    const idempotency = new IdempotencyRecords(this.store);
    const indexes = new ShipmentIndexes(this.store);
    const shared = { store: this.store, zips: this.zips, ids, idempotency, indexes, now: this.now };
    this.quotes = new Quotes(shared);
    this.bookings = new Bookings({ ...shared, numbering: this.numbering, quotes: this.quotes, tariff: () => this.tariffs.load() });
    this.shipments = new Shipments(this.store, indexes, this.now);
    this.invoices = new Invoices(this.shipments, () => this.tariffs.load());
    this.shipmentKeys = new ShipmentKeyIndex(this.store);
  }

  loadTariff() {
    return this.tariffs.load();
  }

  // Quotes

  async createQuote(...[body, options]: ArgsOf<(typeof operations)['createQuote']>) {
    return this.quotes.create(body, await this.tariffs.load(), options?.idempotencyKey);
  }

  async getQuote(quoteId: string) {
    return { data: await this.quotes.get(quoteId), warnings: [] };
  }

  async listQuotes(options?: Options<'listQuotes'>) {
    const query = queryOf(operations.listQuotes, options);
    const { since, until, to, status, refNumber } = query;
    const range = createdRange(since, until);
    // Quotes booked under a reference: those of the shipments that carry it.
    const ids =
      refNumber !== undefined
        ? (await this.shipments.list({ refNumber, limit: MAX_PAGE_SIZE })).data.items.map((shipment) => shipment.quoteId)
        : undefined;
    return this.quotes.list(query, {
      ids,
      oldest: range.from,
      status,
      keep: (quote) => (to === undefined || quote.destination.postalCode === to.slice(0, 5)) && inRange(quote.createdAt, range),
    });
  }

  // Shipments

  async createShipment(...[body, options]: ArgsOf<(typeof operations)['createShipment']>) {
    return this.bookings.createShipment(body, options?.idempotencyKey);
  }

  async createShipments(body: unknown) {
    return this.bookings.createShipments(body);
  }

  async previewShipments(body: unknown) {
    return this.bookings.previewShipments(body);
  }

  async getShipment(shipmentId: string) {
    return { data: await this.shipments.get(shipmentId), warnings: [] };
  }

  async listShipments(options?: Options<'listShipments'>) {
    const query = queryOf(operations.listShipments, options);
    const pros = keyFilterValues(query.proNumber, 'pro');
    const bols = keyFilterValues(query.bolNumber, 'bol');
    if (pros.length === 0 && bols.length === 0) return this.shipments.list(query);
    const ids = await guardStore(() => this.shipmentKeys.find(pros, bols));
    return this.shipments.list(query, {
      ids,
      keep: (shipment) =>
        (pros.length === 0 || (shipment.proNumber !== null && pros.includes(normalisedProNumber(shipment.proNumber)))) &&
        (bols.length === 0 || bols.includes(shipment.bolNumber)),
    });
  }

  async cancelShipment(shipmentId: string, body?: unknown) {
    return this.shipments.cancel(shipmentId, body);
  }

  // Transit tables

  async transitTimes(body: unknown) {
    return transitTimes(body, await this.tariffs.load(), this.zips, this.now());
  }

  // Documents

  async renderBol(shipmentId: string, options?: Options<'renderBol'>) {
    const { template } = queryOf(operations.renderBol, options);
    const shipment = await this.shipments.get(shipmentId);
    return { data: await this.documents.renderBol(shipment, template), warnings: [] };
  }

  async getInvoice(shipmentId: string) {
    return { data: await this.invoices.get(shipmentId), warnings: [] };
  }

  async renderInvoice(shipmentId: string) {
    return { data: await this.invoices.renderPdf(shipmentId), warnings: [] };
  }

  async listBolTemplates() {
    return { data: { items: await this.documents.listBolTemplates() }, warnings: [] };
  }

  async close(): Promise<void> {}
}
