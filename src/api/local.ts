/**
 * LocalApi: the ShipperApi implemented in this process by the pure domain around the JSON store,
 * and what `shipper serve` exposes over HTTP. Each operation delegates to the part that owns it:
 * quotes, bookings (with their group commit), numbering, idempotency records, transit tables,
 * documents; the tariff and the ZIP geodata come from providers handed in.
 */
import type { z } from 'zod';
import { ZipDirectory } from '../geo/zipDirectory.js';
import { JsonStore } from '../store/jsonStore.js';
import { createdRange, operations, type OperationSpec } from './operations.js';
import { constraintViolation } from './problems.js';
import type { ArgsOf, OptionsOf, ShipperApi } from './types.js';
import type { CarrierProfiles } from '../domain/carrierProfile.js';
import { tenderRequestSchema, type Shipment } from '../domain/schemas.js';
import { MAX_PAGE_SIZE } from '../domain/limits.js';
import { parseRequest } from '../domain/validation.js';
import { Bookings } from './local/booking.js';
import { Documents } from './local/documents.js';
import { IdempotencyRecords } from './local/idempotency.js';
import { IdFactory } from './local/ids.js';
import { Invoices } from './local/invoices.js';
import { keyFilterValues, normalisedOrderNumber, normalisedProNumber, ShipmentKeyIndex } from './local/shipmentKeys.js';
import { Numbering, type NumberingOptions } from './local/numbering.js';
import { ShipmentIndexes } from './local/indexes.js';
import { assignCarrierNumbers, checkCarrierDetails, handlingUnitsOf, type CarrierSettings } from './local/carrierNumbers.js';
import { Quotes, storedShipmentSchema, type ZipLookup } from './local/quotes.js';
import { guardStore } from './local/records.js';
import { Shipments, inRange } from './local/shipments.js';
import { TariffProvider } from './local/tariffProvider.js';
import { AgreementProvider } from './local/agreementProvider.js';
import { CarrierRating } from './local/rates.js';
import { FuelPrices } from '../store/fuelPrices.js';
import { transitTimes } from './local/transit.js';

export interface LocalApiOptions extends NumberingOptions {
  storeDir: string;
  /** A tariff JSON file; default: the one shipped in templates/tariff/. */
  tariffFile?: string | undefined;
  /** The carrier agreement directory (`samples`: the shipped samples); none: the tariff prices alone. */
  agreementsDir?: string | undefined;
  /** ZIP geodata; default: the generated table. */
  zips?: ZipLookup | undefined;
  now?: () => Date;
  /** Records kept in memory after a read (a long-running server); 0 or absent: none. */
  cacheEntries?: number | undefined;
  /** What the shipper knows of each carrier, by SCAC (PRO block, cut-off, X12 ids). */
  carriers?: CarrierProfiles | undefined;
  ssccExtensionDigit?: number | undefined;
  /** X12 and eBOL settings of the carrier files (checked when a file is written). */
  x12?: Record<string, unknown> | undefined;
  ebol?: Record<string, unknown> | undefined;
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
  readonly agreements: AgreementProvider;
  readonly fuelPrices: FuelPrices;
  private readonly carrierRating: CarrierRating;
  readonly numbering: Numbering;
  private readonly now: () => Date;
  private readonly quotes: Quotes;
  private readonly bookings: Bookings;
  private readonly shipments: Shipments;
  private readonly carrierSettings: CarrierSettings;
  private readonly documents: Documents;
  private readonly invoices: Invoices;
  private readonly shipmentKeys: ShipmentKeyIndex;

  constructor(options: LocalApiOptions) {
    this.store = new JsonStore(options.storeDir, { cacheEntries: options.cacheEntries });
    this.now = options.now ?? (() => new Date());
    this.zips = options.zips ?? new ZipDirectory();
    this.tariffs = new TariffProvider(options.tariffFile);
    this.agreements = new AgreementProvider(options.agreementsDir);
    this.fuelPrices = new FuelPrices(this.store);
    this.numbering = new Numbering(this.store, options);
    const ids = new IdFactory();
    const idempotency = new IdempotencyRecords(this.store);
    const indexes = new ShipmentIndexes(this.store);
    const shared = { store: this.store, zips: this.zips, ids, idempotency, indexes, now: this.now };
    this.carrierRating = new CarrierRating({ ...shared, agreements: this.agreements, fuelPrices: this.fuelPrices });
    this.quotes = new Quotes({ ...shared, carrierRating: this.carrierRating });
    const carriers = { carriers: options.carriers ?? {}, ssccExtensionDigit: options.ssccExtensionDigit ?? 0 };
    this.bookings = new Bookings({ ...shared, carriers, numbering: this.numbering, quotes: this.quotes, tariff: () => this.tariffs.load() });
    this.shipments = new Shipments(this.store, indexes, this.now);
    this.carrierSettings = carriers;
    this.documents = new Documents({ carriers: carriers.carriers, x12: options.x12 ?? {}, ebol: options.ebol ?? {} });
    this.invoices = new Invoices(
      this.shipments,
      () => this.tariffs.load(),
      () => this.agreements.load(),
    );
    this.shipmentKeys = new ShipmentKeyIndex(this.store);
  }

  loadTariff() {
    return this.tariffs.load();
  }

  // Quotes

  async createQuote(...[body, options]: ArgsOf<(typeof operations)['createQuote']>) {
    return this.quotes.create(body, await this.tariffs.load(), options?.idempotencyKey);
  }

  async shopRates(...[body]: ArgsOf<(typeof operations)['shopRates']>) {
    return this.carrierRating.shop(body, await this.tariffs.load());
  }

  async getQuote(quoteId: string) {
    return { data: await this.quotes.get(quoteId), warnings: [] };
  }

  async listQuotes(options?: Options<'listQuotes'>) {
    const query = queryOf(operations.listQuotes, options);
    const { since, until, to, status, refNumber } = query;
    const range = createdRange(since, until);
    // Quotes booked under a reference: those of the shipments that carry it.
    const ids = refNumber !== undefined ? (await this.shipments.list({ refNumber, limit: MAX_PAGE_SIZE })).data.items.map((shipment) => shipment.quoteId) : undefined;
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
    const orderNumber = query.orderNumber === undefined ? undefined : normalisedOrderNumber(query.orderNumber);
    if (pros.length === 0 && bols.length === 0 && orderNumber === undefined) return this.shipments.list(query);
    // Candidates from the key index (an order number by the serial its BOL number carries), each checked as it is now.
    const ids = await guardStore(() => (orderNumber !== undefined ? this.shipmentKeys.idsWithOrderSerial(Number(orderNumber.slice(3))) : this.shipmentKeys.find(pros, bols)));
    return this.shipments.list(query, {
      ids,
      keep: (shipment) =>
        (orderNumber === undefined || shipment.orderNumber === orderNumber) &&
        (pros.length === 0 || (shipment.proNumber !== null && pros.includes(normalisedProNumber(shipment.proNumber)))) &&
        (bols.length === 0 || bols.includes(shipment.bolNumber)),
    });
  }

  async cancelShipment(shipmentId: string, body?: unknown) {
    return this.shipments.cancel(shipmentId, body);
  }

  async updateShipment(shipmentId: string, body: unknown) {
    const cutoff = (await this.tariffs.load()).pickupCutoff;
    return this.shipments.update(shipmentId, body, ({ proNumber, carrier }) => {
      return checkCarrierDetails({ proNumber, carrier, pickupWindow: null }, this.carrierSettings, cutoff);
    });
  }

  async renderLabels(shipmentId: string, options?: Options<'renderLabels'>) {
    const { format = 'pdf' } = queryOf(operations.renderLabels, options);
    const shipment = await this.withSsccs(await this.shipments.get(shipmentId));
    return { data: await this.documents.renderLabels(shipment, format, this.numbering.bolCompanyPrefix), warnings: [] };
  }

  async createTender(shipmentId: string, body: unknown) {
    const parsed = parseRequest(tenderRequestSchema, body);
    if (!parsed.ok) throw constraintViolation(parsed.violations);
    const shipment = await this.shipments.get(shipmentId);
    // Interchange control numbers never repeat: one counter, taken under the store's lock.
    const control = () => guardStore(() => this.store.withLock('shipments', () => this.numbering.reserveOtherLocked('x12-control', 1)));
    const { document, warnings } = await this.documents.tender(shipment, parsed.value.format, control, this.now());
    return { data: document, warnings };
  }

  /**
   * A shipment booked before labels existed has no SSCCs: they are given out on its first labels,
   * under the lock, and kept, so every reprint shows the same ones.
   */
  private async withSsccs(shipment: Shipment): Promise<Shipment> {
    if (shipment.ssccs.length === handlingUnitsOf(shipment) || shipment.status === 'CANCELLED') return shipment;
    return guardStore(() =>
      this.store.withLock('shipments', async () => {
        const record = await this.store.get('shipments', shipment.id, storedShipmentSchema);
        if (!record || record.ssccs.length === handlingUnitsOf(record)) return record ?? shipment;
        // SSCCs only: a shipment booked without a PRO keeps none until the carrier's is recorded.
        const [assigned] = await assignCarrierNumbers([{ orderComponents: record.orderComponents, carrier: null, proNumber: null }], this.numbering, this.carrierSettings);
        const updated = { ...record, ssccs: assigned!.ssccs };
        await this.store.put('shipments', shipment.id, updated);
        const { quote: _kept, ...answer } = updated;
        return answer;
      }),
    );
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
