/**
 * LocalApi: the ShipperApi implemented in this process by the pure domain around a store (the
 * storage ports, src/store/ports.ts; by default the file store),
 * and what `shipper serve` exposes over HTTP. Each operation delegates to the part that owns it:
 * quotes, bookings (with their group commit), numbering, idempotency records, transit tables,
 * documents; the tariff and the ZIP geodata come from providers handed in.
 */
import type { z } from 'zod';
import { ZipDirectory } from '../geo/zipDirectory.js';
import { FileStore } from '../store/file/fileStore.js';
import type { ShipperStore } from '../store/ports.js';
import { createdRange, operations, type OperationSpec } from './operations.js';
import type { ApiResult, ArgsOf, BatchOutcome, OptionsOf, ShipperApi } from './types.js';
import { accessorialList } from '../domain/accessorials.js';
import type { CarrierProfiles } from '../domain/carrierProfile.js';
import type { RatedOrderComponent, Shipment } from '../domain/schemas.js';
import { agreementCheck, freightWarnings, withFreightWarnings, type CheckedFreight, type FreightCheckSettings } from './local/freightWarnings.js';
import { MAX_PAGE_SIZE } from '../domain/limits.js';
import type { Warning } from '../domain/warnings.js';
import { parseRequest } from '../domain/validation.js';
import { localDateInZone, zonedTimeToUtc } from '../domain/dates.js';
import { PUBLISHED_LIMITS } from '../domain/publishedLimits.js';
import { storeTime } from '../domain/storeHours.js';
import { Bookings } from './local/booking.js';
import { Documents } from './local/documents.js';
import { IdFactory } from './local/ids.js';
import { Invoices } from './local/invoices.js';
import { Numbering, type NumberingOptions } from './local/numbering.js';
import { assignCarrierNumbers, checkCarrierDetails, handlingUnitsOf, type CarrierSettings } from './local/carrierNumbers.js';
import { requestHash } from './local/idempotency.js';
import { parseBody, type BodyOf, type BodyOperation, type Input } from './local/input.js';
import { Quotes, unknownZips } from './local/quotes.js';
import type { ZipLookup } from '../domain/zipCode.js';
import { guardStore } from './local/records.js';
import { Shipments } from './local/shipments.js';
import { TariffProvider } from './local/tariffProvider.js';
import { AgreementProvider, CompanyAgreements } from './local/agreementProvider.js';
import type { CarrierRating } from './local/rates.js';
import { transitTimes } from './local/transit.js';
import { Tracking } from './local/tracking.js';
import { publishedTrackingOf } from '../domain/tracking.js';
import { publishedFreightCheck, publishedLimits, type FreightRequest, type PublishedLimits } from '../domain/publishedLimits.js';
import { trackingFilterOf } from './local/trackingFilter.js';
import { companyStore } from './local/companyStore.js';
import { DEFAULT_COMPANY_ID, type CompanyScope } from '../domain/companies.js';
import { Appointments } from './local/appointments.js';
import { DocumentLinks } from './local/documentLinks.js';
import { documentFileName, documentTypeOf, DOCUMENT_TYPE_LIST, publishedInvoiceOf, type DocumentType } from '../domain/documents.js';
import { conflict, constraintViolation, makeProblem, notFound } from './problems.js';

export interface LocalApiOptions extends NumberingOptions {
  /** The published limits and defaults (publishedLimits.ts), each overridable by the settings' `limits`. */
  limits?: Partial<PublishedLimits> | undefined;
  /** The file store's directory (when no `store` is given). */
  storeDir: string;
  /** Another store behind the same ports (e.g. PostgreSQL); default: the file store in storeDir. */
  store?: ShipperStore | undefined;
  /** A tariff JSON file; default: the one shipped in templates/tariff/. */
  tariffFile?: string | undefined;
  /** The carrier agreement directory (`samples`: the shipped samples); none: the tariff prices alone. */
  agreementsDir?: string | undefined;
  /** ZIP geodata; default: the generated table. */
  zips?: ZipLookup | undefined;
  now?: () => Date;
  /** Records kept in memory after a read (a long-running server); 0 or absent: none. */
  cacheEntries?: number | undefined;
  /** Told what the file store did that its user should know (its journal cut); default: stderr. */
  storeWarning?: ((item: { code: 'STORE_JOURNAL_CUT'; message: string }) => void) | undefined;
  /** What the shipper knows of each carrier, by SCAC (PRO block, cut-off, X12 ids). */
  carriers?: CarrierProfiles | undefined;
  ssccExtensionDigit?: number | undefined;
  /** X12 and eBOL settings of the carrier files (checked when a file is written). */
  x12?: Record<string, unknown> | undefined;
  ebol?: Record<string, unknown> | undefined;
  /** The engine answers over HTTP (shipper serve): messages about its settings name the server. */
  served?: boolean | undefined;
  /** The freight check's thresholds (default: DEFAULT_INSPECTION_RULES) and re-rating (default: the tariff). */
  freightCheck?: FreightCheckSettings | undefined;
}

type Options<K extends keyof typeof operations> = OptionsOf<(typeof operations)[K]>;

/** How many company views (forCompany) are kept: more keys than this make some again when they call. */
const MAX_COMPANY_VIEWS = 1000;

/** How many quotes' freight-check warnings getQuote keeps. */
const QUOTE_WARNINGS_KEPT = 1000;

/** Where a body names places whose ZIPs the geodata must know. (A booking's parties are checked per item: bookingChecks.ts.) */
const ZIP_FIELDS: Partial<Record<BodyOperation, (raw: unknown) => Array<Array<string | number>>>> = {
  createQuote: () => [['pickupAddress'], ['deliveryAddress']],
  createLaneQuote: () => [['pickupAddress'], ['deliveryAddress']],
  shopRates: () => [['pickupAddress'], ['deliveryAddress']],
  transitTimes: (raw) => {
    const destinations = (raw as { destinations?: unknown } | null)?.destinations;
    return [['origin'], ...(Array.isArray(destinations) ? destinations.map((_, index) => ['destinations', index]) : [])];
  },
};

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
  readonly store: ShipperStore;
  readonly zips: ZipLookup;
  readonly tariffs: TariffProvider;
  readonly agreements: AgreementProvider;
  private readonly companyAgreements: CompanyAgreements;
  /** Carrier-agreement pricing, loaded on first use: a plain quote never loads it. */
  private readonly carrierRating: () => Promise<CarrierRating>;
  readonly numbering: Numbering;
  private readonly now: () => Date;
  private readonly quotes: Quotes;
  private readonly bookings: Bookings;
  private readonly shipments: Shipments;
  private readonly carrierSettings: CarrierSettings;
  private readonly documents: Documents;
  private readonly invoices: Invoices;
  private readonly freightCheck: FreightCheckSettings;
  private readonly tracking: Tracking;
  private readonly limits: PublishedLimits;
  private readonly links: DocumentLinks;
  private readonly appointments: Appointments;

  /**
   * `shared`: the parts a company's view (forCompany) shares with the engine it was made from, so
   * the tariff, the agreements, the ids and the numbering are loaded and kept once.
   */
  constructor(
    private readonly options: LocalApiOptions,
    shared?: Pick<LocalApi, 'zips' | 'tariffs' | 'agreements' | 'numbering'> & { ids: IdFactory; scope: CompanyScope },
  ) {
    this.limits = publishedLimits(options.limits);
    this.store = options.store ?? new FileStore(options.storeDir, { cacheEntries: options.cacheEntries, onWarning: options.storeWarning });
    this.now = options.now ?? (() => new Date());
    this.zips = shared?.zips ?? options.zips ?? new ZipDirectory();
    this.tariffs = shared?.tariffs ?? new TariffProvider(options.tariffFile);
    this.agreements = shared?.agreements ?? new AgreementProvider(options.agreementsDir);
    // The store's owner (the local CLI) books as the default company, and prices with its agreements.
    this.companyAgreements = new CompanyAgreements(this.agreements, shared?.scope.companyId ?? DEFAULT_COMPANY_ID);
    this.numbering = shared?.numbering ?? new Numbering(options);
    this.scope = shared?.scope;
    const ids = shared?.ids ?? new IdFactory();
    this.ids = ids;
    const parts = { store: this.store, zips: this.zips, ids, now: this.now };
    let carrierRating: Promise<CarrierRating> | undefined;
    // Each view rates with its own store (the quotes of rate shopping are the company's) and its company's agreements.
    this.carrierRating = () => (carrierRating ??= import('./local/rates.js').then(({ CarrierRating }) => new CarrierRating({ ...parts, agreements: this.companyAgreements })));
    this.quotes = new Quotes({ ...parts, carrierRating: { rate: async (request, tariff) => (await this.carrierRating()).rate(request, tariff) } });
    const carriers = { carriers: options.carriers ?? {}, ssccExtensionDigit: options.ssccExtensionDigit ?? 0 };
    this.bookings = new Bookings({ ...parts, carriers, numbering: this.numbering, quotes: this.quotes, tariff: () => this.tariffs.load(), limits: this.limits });
    this.shipments = new Shipments(this.store, this.now, this.limits);
    this.carrierSettings = carriers;
    this.documents = new Documents({ carriers: carriers.carriers, x12: options.x12 ?? {}, ebol: options.ebol ?? {}, served: options.served ?? false }, this.zips);
    this.invoices = new Invoices(
      this.shipments,
      () => this.tariffs.load(),
      () => this.companyAgreements.load(),
      this.zips,
    );
    this.tracking = new Tracking({ store: this.store, zips: this.zips, carriers: carriers.carriers, ids, now: this.now });
    this.freightCheck = options.freightCheck ?? {};
    this.links = new DocumentLinks(this.store.credentials, this.now);
    this.appointments = new Appointments(this.store, this.shipments, ids, this.now);
  }

  /** The company this engine answers for (forCompany); undefined: the store's owner, who sees every company's records (the local CLI). */
  readonly scope: CompanyScope | undefined;
  private readonly ids: IdFactory;
  /** The company views made so far, by company and key (a server has a handful of keys). */
  private readonly views = new Map<string, LocalApi>();

  /**
   * The engine as one company sees it (issue 41 item 2): the same tariff, agreements, numbering
   * and store, read and written through the company's view of the store (companyStore.ts), so
   * every operation sees that company's records only and stamps the key on what it writes.
   */
  forCompany(scope: CompanyScope): LocalApi {
    if (this.scope) throw new Error("forCompany is asked of the store owner's engine, not of a company view");
    const key = `${scope.companyId} ${scope.keyId ?? ''}`;
    let view = this.views.get(key);
    if (!view) {
      if (this.views.size >= MAX_COMPANY_VIEWS) this.views.delete(this.views.keys().next().value!);
      view = new LocalApi(
        { ...this.options, store: companyStore(this.store, scope) },
        { zips: this.zips, tariffs: this.tariffs, agreements: this.agreements, numbering: this.numbering, ids: this.ids, scope },
      );
      this.views.set(key, view);
    }
    return view;
  }

  /** The freight check's warnings of quotes read lately (getQuote), by id. */
  private readonly quoteWarnings = new Map<string, Warning[]>();
  /** The freight check's warnings of shipments read (getShipment), by the object the store answered. */
  private readonly shipmentWarnings = new WeakMap<Shipment, Warning[]>();

  /**
   * The one parse of an operation's body, by the table's schema (local/input.ts); the places a
   * body names are judged against the geodata beside it, so every violation comes back at once.
   */
  private bodyOf<K extends BodyOperation>(name: K, raw: unknown): Input<BodyOf<K>> {
    const places = ZIP_FIELDS[name]?.(raw);
    return parseBody(name, raw, places ? unknownZips(this.zips, raw, places) : []);
  }

  /** A quote's freight held to the published limits, as its order will be (publishedLimits.ts): a 400 naming every line beyond them. */
  private withPublishedLimits<T extends FreightRequest>(input: Input<T>): Input<T> {
    const { violations, warnings } = publishedFreightCheck(input.value, this.limits);
    if (violations.length > 0) throw constraintViolation(violations);
    return { value: input.value, warnings: [...input.warnings, ...warnings] };
  }

  /** The freight check's warnings on a quote or a shipment, after the call's own. */
  private async checked<T extends CheckedFreight>(result: ApiResult<T>): Promise<ApiResult<T>> {
    const settings = await this.freightCheckOf(result.data);
    return { ...result, warnings: [...result.warnings, ...freightWarnings(result.data, await this.tariffs.load(), settings)] };
  }

  /** A record a carrier agreement priced is checked by that agreement's rules and rates (freightWarnings.ts). */
  private async freightCheckOf(record: CheckedFreight): Promise<FreightCheckSettings> {
    if (record.pricedBy?.kind !== 'AGREEMENT' || !this.companyAgreements.configured) return this.freightCheck;
    return agreementCheck(record, await this.companyAgreements.load(), this.freightCheck);
  }

  /** `items`: the batch as sent; the freight check reads what each request says of its lines (a quote has no description). */
  private async checkedOutcomes<T extends CheckedFreight>(
    result: ApiResult<{ items: Array<BatchOutcome<T>> }>,
    items?: ReadonlyArray<{ request: unknown }>,
  ): Promise<ApiResult<{ items: Array<BatchOutcome<T>> }>> {
    const tariff = await this.tariffs.load();
    return {
      ...result,
      data: {
        items: await Promise.all(
          result.data.items.map(async (outcome, index) => {
            // The request of a batch item is judged per item (bookingChecks.ts): its lines are read as sent.
            const lines = (items?.[index]?.request as { orderComponents?: unknown } | null | undefined)?.orderComponents;
            const settings = outcome.ok ? await this.freightCheckOf(outcome.data) : this.freightCheck;
            return withFreightWarnings(outcome, tariff, settings, Array.isArray(lines) ? (lines as Array<Partial<RatedOrderComponent>>) : undefined);
          }),
        ),
      },
    };
  }

  loadTariff() {
    return this.tariffs.load();
  }

  // Quotes

  async createQuote(...[body, options]: ArgsOf<(typeof operations)['createQuote']>) {
    return this.quote('createQuote', body, options);
  }

  /** The lane quote (an extension): the same quote, its stops a ZIP code alone if need be. */
  async createLaneQuote(...[body, options]: ArgsOf<(typeof operations)['createLaneQuote']>) {
    return this.quote('createLaneQuote', body, options);
  }

  private async quote(name: 'createQuote' | 'createLaneQuote', body: unknown, options: { idempotencyKey?: string | undefined } | undefined) {
    const tariff = await this.tariffs.load();
    const input = this.withPublishedLimits(this.bodyOf(name, body));
    // The key's record holds the hash of the request as sent (idempotency.ts).
    const idempotency = options?.idempotencyKey ? { key: options.idempotencyKey, requestHash: requestHash(body) } : undefined;
    return this.checked(await this.quotes.create(input, tariff, idempotency));
  }

  async shopRates(...[body]: ArgsOf<(typeof operations)['shopRates']>) {
    const tariff = await this.tariffs.load();
    const rating = await this.carrierRating();
    const result = await rating.shop(this.withPublishedLimits(this.bodyOf('shopRates', body)), tariff);
    // Each carrier's quote checked by its own agreement's inspection rules and rates.
    const items = await Promise.all(result.data.items.map(async (quote) => ({ ...quote, warnings: freightWarnings(quote, tariff, await this.freightCheckOf(quote)) })));
    return { ...result, data: { ...result.data, items } };
  }

  async getQuote(quoteId: string) {
    const data = await this.quotes.get(quoteId);
    // A stored quote never changes, nor do this engine's tariff and rules: the check of a quote the
    // tariff priced is worked out once (an agreement's re-rating reads fuel prices, which do change).
    const cacheable = data.pricedBy?.kind !== 'AGREEMENT';
    let warnings = cacheable ? this.quoteWarnings.get(data.id) : undefined;
    if (!warnings) {
      warnings = (await this.checked({ data, warnings: [] })).warnings;
      if (cacheable) {
        if (this.quoteWarnings.size >= QUOTE_WARNINGS_KEPT) this.quoteWarnings.delete(this.quoteWarnings.keys().next().value!);
        this.quoteWarnings.set(data.id, warnings);
      }
    }
    return { data, warnings: [...warnings] };
  }

  async listQuotes(options?: Options<'listQuotes'>) {
    const query = queryOf(operations.listQuotes, options);
    const { since, until, to, status, refNumber } = query;
    // Quotes booked under a reference: those of the shipments that carry it.
    const ids =
      refNumber !== undefined ? (await guardStore(() => this.store.shipments.findByReference(refNumber, { limit: MAX_PAGE_SIZE }))).map((shipment) => shipment.quoteId) : undefined;
    return this.quotes.list(query, { ids, created: createdRange(since, until), deliveryZipCode: to?.slice(0, 5), status });
  }

  // Shipments

  /**
   * The request goes as sent into the group commit, where it is checked as an item of a batch is
   * (bookingChecks.ts: the schema and the ZIPs and addresses, every violation at once), and its
   * key's record holds the hash of it as sent.
   */
  async createShipment(...[body, options]: ArgsOf<(typeof operations)['createShipment']>) {
    return this.checked(await this.bookings.createShipment(body, options?.idempotencyKey));
  }

  async createShipments(...[body]: ArgsOf<(typeof operations)['createShipments']>) {
    return this.checkedOutcomes(await this.bookings.createShipments(this.bodyOf('createShipments', body).value));
  }

  /** The quote each item would be booked on, checked with what the request says of its lines (a quote has no description). */
  async previewShipments(...[body]: ArgsOf<(typeof operations)['previewShipments']>) {
    const batch = this.bodyOf('previewShipments', body).value;
    const previewed = await this.bookings.previewShipments(batch);
    return batch.freightCheck === false ? previewed : this.checkedOutcomes(previewed, batch.items);
  }

  async getShipment(shipmentId: string) {
    const data = await this.shipments.get(shipmentId);
    // A server's file store answers a stored shipment as the same object until it changes: its
    // check (by this engine's tariff and rules, as getQuote's) is worked out once per object.
    const cacheable = data.pricedBy?.kind !== 'AGREEMENT';
    const known = cacheable ? this.shipmentWarnings.get(data) : undefined;
    if (known) return { data, warnings: [...known] };
    const result = await this.checked({ data, warnings: [] });
    if (!cacheable) return result;
    this.shipmentWarnings.set(data, result.warnings);
    return { data, warnings: [...result.warnings] };
  }

  async listShipments(options?: Options<'listShipments'>) {
    const query = queryOf(operations.listShipments, options);
    return this.shipments.list(query, query.tracking === undefined ? undefined : trackingFilterOf(query.tracking, this.zips, this.now()));
  }

  // Tracking

  async listShipmentEvents(shipmentId: string) {
    return this.tracking.list(await this.shipments.idOf(shipmentId));
  }

  /** The published Tracking of an order (trackingOf's answer, in the published shape). */
  async getTracking(orderNumber: string, options?: Options<'getTracking'>) {
    queryOf(operations.getTracking, options);
    const id = await this.shipments.idOf(orderNumber);
    const [{ data }, shipment] = await Promise.all([this.tracking.list(id), this.shipments.get(id)]);
    const zone = this.zips.lookup(shipment.pickupAddress.zipCode)?.timeZone;
    const opens = storeTime(shipment.pickupAddress.openTime ?? '') ?? PUBLISHED_LIMITS.defaultOpenTime;
    const estimatedPickupDate = zone ? zonedTimeToUtc(data.requiredPickupDate, opens, zone).toISOString() : undefined;
    return { data: publishedTrackingOf(data, estimatedPickupDate), warnings: [] };
  }

  async confirmShipment(...[orderNumber]: ArgsOf<(typeof operations)['confirmShipment']>) {
    return this.checked(await this.shipments.confirm(orderNumber));
  }

  async addShipmentEvents(...[shipmentId, body, options]: ArgsOf<(typeof operations)['addShipmentEvents']>) {
    const request = this.bodyOf('addShipmentEvents', body).value;
    // The key is kept with the hash of the request as sent (idempotency.ts).
    const idempotency = options?.idempotencyKey !== undefined ? { key: options.idempotencyKey, requestHash: requestHash(body) } : undefined;
    return this.tracking.record(await this.shipments.idOf(shipmentId), request, idempotency);
  }

  async addShipmentEventsBatch(...[body]: ArgsOf<(typeof operations)['addShipmentEventsBatch']>) {
    return this.tracking.recordMany(this.bodyOf('addShipmentEventsBatch', body).value);
  }

  async cancelShipment(...[shipmentId, body]: ArgsOf<(typeof operations)['cancelShipment']>) {
    return this.shipments.cancel(shipmentId, this.bodyOf('cancelShipment', body).value);
  }

  async updateShipment(...[shipmentId, body]: ArgsOf<(typeof operations)['updateShipment']>) {
    const cutoff = (await this.tariffs.load()).pickupCutoff;
    const update = this.bodyOf('updateShipment', body).value;
    // null clears a field, leaving it out keeps it: which fields the body names is read from it as sent.
    const named = new Set(Object.keys(body));
    return this.shipments.update(
      shipmentId,
      update,
      named,
      ({ proNumber, carrier }) => checkCarrierDetails({ proNumber, carrier, pickupWindow: null }, this.carrierSettings, cutoff),
      (zipCode) => localDateInZone(this.now(), this.zips.lookup(zipCode)?.timeZone ?? 'America/Chicago'),
    );
  }

  async renderLabels(shipmentId: string, options?: Options<'renderLabels'>) {
    const { format = 'pdf' } = queryOf(operations.renderLabels, options);
    const shipment = await this.withSsccs(await this.shipments.get(shipmentId));
    return { data: await this.documents.renderLabels(shipment, format, this.numbering.bolCompanyPrefix), warnings: [] };
  }

  async createTender(...[shipmentId, body]: ArgsOf<(typeof operations)['createTender']>) {
    const { format } = this.bodyOf('createTender', body).value;
    const shipment = await this.shipments.get(shipmentId);
    // A carrier is tendered a confirmed order only: an INITIALIZED one may still change or never be confirmed.
    if (shipment.orderStatus === 'INITIALIZED') {
      throw conflict(
        `${shipment.orderNumber} is INITIALIZED: a carrier is tendered a confirmed order only; confirm it first (shipper shipment confirm ${shipment.orderNumber}, or PUT .../shipment/${shipment.orderNumber}/confirm); no tender was made`,
      );
    }
    // Interchange control numbers never repeat: one counter of the store, taken in a unit of work.
    const control = () => guardStore(() => this.store.withTransaction(async (tx) => (await tx.counters.reserve('x12-control', 1))!));
    const { document, warnings } = await this.documents.tender(shipment, format, control, this.now());
    return { data: document, warnings };
  }

  /**
   * A shipment booked before labels existed has no SSCCs: they are given out on its first labels,
   * under the lock, and kept, so every reprint shows the same ones.
   */
  private async withSsccs(shipment: Shipment): Promise<Shipment> {
    if (shipment.ssccs.length === handlingUnitsOf(shipment) || shipment.orderStatus === 'CANCELLED') return shipment;
    return guardStore(() =>
      this.store.withTransaction(async (tx) => {
        const record = await tx.shipments.getRecord(shipment.id);
        if (!record || record.shipment.ssccs.length === handlingUnitsOf(record.shipment)) return record?.shipment ?? shipment;
        // SSCCs only: a shipment booked without a PRO keeps none until the carrier's is recorded.
        const [assigned] = await assignCarrierNumbers(
          tx,
          [{ orderComponents: record.shipment.orderComponents, carrier: null, proNumber: null }],
          this.numbering,
          this.carrierSettings,
        );
        const updated = { ...record.shipment, ssccs: assigned!.ssccs };
        tx.shipments.put(updated, record.ownQuote);
        return updated;
      }),
    );
  }

  /** The tariff's accessorials and those of the carrier agreements loaded (none without --tariffs). */
  async listAccessorials() {
    const tariff = await this.tariffs.load();
    const agreements = await this.companyAgreements.load();
    return {
      data: accessorialList(
        tariff,
        agreements.map(({ agreement }) => agreement),
      ),
      warnings: [],
    };
  }

  // Transit tables

  async transitTimes(...[body]: ArgsOf<(typeof operations)['transitTimes']>) {
    const tariff = await this.tariffs.load();
    return transitTimes(this.bodyOf('transitTimes', body), tariff, this.zips, this.now());
  }

  // Documents

  async renderBol(shipmentId: string, options?: Options<'renderBol'>) {
    const { template } = queryOf(operations.renderBol, options);
    const shipment = await this.shipments.get(shipmentId);
    return { data: await this.documents.renderBol(shipment, template), warnings: [] };
  }

  /** shipper's own invoice, of any state but CANCELLED (the CLI's `invoice`). */
  async getInvoiceDetail(shipmentId: string) {
    return { data: await this.invoices.get(shipmentId), warnings: [] };
  }

  /** The published invoice: a DELIVERED order's only (400 before, as published), dated by its pickup and delivery events. */
  async getInvoice(orderNumber: string) {
    const shipment = await this.shipments.get(orderNumber);
    if (shipment.orderStatus !== 'DELIVERED' && shipment.orderStatus !== 'CANCELLED') {
      throw makeProblem(400, 'invalid-state', 'Bad Request', `${shipment.orderNumber} is ${shipment.orderStatus}: the invoice is final once the order is DELIVERED`, {
        reason: 'invalid_state',
      });
    }
    const invoice = await this.invoices.get(shipment.id);
    const tracking = publishedTrackingOf((await this.tracking.list(shipment.id)).data);
    const deliveryDate = tracking.actualDeliveryDate ?? shipment.updatedAt ?? shipment.createdAt;
    return { data: publishedInvoiceOf(invoice, shipment, { shipDate: tracking.actualPickupDate, deliveryDate }), warnings: [] };
  }

  async renderInvoice(orderNumber: string) {
    return { data: await this.invoices.renderPdf(orderNumber), warnings: [] };
  }

  /**
   * The published document operation: a signed link to the PDF, which `serve` answers itself
   * (downloadDocument). The link is a path: `serve` makes it absolute. What does not exist is 404
   * (assertDocumentExists).
   */
  async getDocument(orderNumber: string, documentTypeName: string) {
    const type = this.documentType(documentTypeName);
    const shipment = await this.shipments.get(orderNumber);
    this.assertDocumentExists(shipment, type);
    const { path, expiresAt } = await this.links.sign(shipment.id, type);
    return { data: { filename: documentFileName(type, shipment.orderNumber), fileType: 'application/pdf', downloadLink: path, url: path, expiresAt }, warnings: [] };
  }

  /** What a signed link points at: the signature first (403), then the document as getDocument would judge it now. */
  async downloadDocument(shipmentId: string, documentTypeName: string, options?: Options<'downloadDocument'>) {
    const { expires = '', signature = '' } = queryOf(operations.downloadDocument, options);
    await this.links.verify(shipmentId, documentTypeName, expires, signature);
    const type = this.documentType(documentTypeName);
    const shipment = await this.shipments.get(shipmentId);
    this.assertDocumentExists(shipment, type);
    if (type === 'BILL_OF_LADING') return { data: await this.documents.renderBol(shipment), warnings: [] };
    if (type === 'SHIPPING_LABEL') return this.renderLabels(shipment.id, { format: 'pdf' });
    return { data: await this.invoices.renderPdf(shipment.id), warnings: [] };
  }

  private documentType(name: string): DocumentType {
    const type = documentTypeOf(name);
    if (!type) throw constraintViolation([{ field: 'documentType', reason: `documentType is one of ${DOCUMENT_TYPE_LIST}` }]);
    return type;
  }

  /**
   * A cancelled order's BOL is its VOID copy, as `shipper bol` prints it; it has no labels and no
   * invoice. The invoice document is shipper's PDF, from booking on (only the published JSON
   * invoice waits for the delivery). No proof of delivery is kept.
   */
  private assertDocumentExists(shipment: Shipment, type: DocumentType): void {
    if (type === 'POD') throw notFound('proof of delivery of', shipment.orderNumber);
    if (shipment.orderStatus === 'CANCELLED' && type !== 'BILL_OF_LADING') throw notFound(`${type} of`, `${shipment.orderNumber} (cancelled)`);
  }

  // Appointments

  async getAppointment(orderNumber: string, stop: string) {
    return this.appointments.get(orderNumber, stop);
  }

  async upsertAppointment(...[orderNumber, stop, body]: ArgsOf<(typeof operations)['upsertAppointment']>) {
    return this.appointments.upsert(orderNumber, stop, this.bodyOf('upsertAppointment', body).value);
  }

  async uploadAppointmentDocument(...[orderNumber, stop, documentType, file]: ArgsOf<(typeof operations)['uploadAppointmentDocument']>) {
    return this.appointments.upload(orderNumber, stop, documentType, this.bodyOf('uploadAppointmentDocument', file).value);
  }

  async deleteAppointmentDocument(orderNumber: string, stop: string, documentType: string) {
    return this.appointments.remove(orderNumber, stop, documentType);
  }

  async getAppointmentPdf(orderNumber: string, stop: string): Promise<ApiResult<Uint8Array>> {
    return this.appointments.pdf(orderNumber, stop);
  }

  async listBolTemplates() {
    return { data: { items: await this.documents.listBolTemplates() }, warnings: [] };
  }

  async close(): Promise<void> {}
}
