/**
 * LocalApi: the ShipperApi implemented in this process by the pure domain (validation, rating,
 * booking) around the JSON store. Also what `shipper serve` exposes over HTTP.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { bolNumberFor, orderNumberFor } from '../domain/bolNumber.js';
import { rateQuote, type ZipPlace } from '../domain/rating.js';
import {
  quoteRequestSchema,
  quoteSchema,
  shipmentRequestSchema,
  shipmentSchema,
  transitRequestSchema,
  type Page,
  type Quote,
  type QuoteRequest,
  type Shipment,
  type TransitTable,
  type Violation,
} from '../domain/schemas.js';
import { buildShipment, checkShipmentAgainstQuote } from '../domain/shipment.js';
import { tariffSchema, type Tariff } from '../domain/tariff.js';
import { localDateInZone, nextBusinessDay } from '../domain/transit.js';
import { pickupDays, transitForLane } from '../domain/transitTable.js';
import { formatFieldPath, parseRequest } from '../domain/validation.js';
import { ZipDirectory } from '../geo/zipDirectory.js';
import { defaultTariffFile, templatesDir } from '../paths.js';
import { JsonStore, StoreError } from '../store/jsonStore.js';
import { conflict, constraintViolation, idempotencyKeyReused, makeProblem, notFound, storeFailure } from './problems.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type ApiResult,
  type BolTemplateInfo,
  type ListQuery,
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

export class LocalApi implements ShipperApi {
  readonly mode = 'local' as const;
  readonly store: JsonStore;
  private readonly zips = new ZipDirectory();
  private tariff: Tariff | undefined;
  private readonly nextUlid = monotonicFactory();
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
      if (!options.idempotencyKey) return { data: await this.rateAndStore(parsed.value, tariff), warnings: parsed.warnings };
      const key = options.idempotencyKey;
      return this.store.withLock('idempotency', async () => {
        const existing = await this.findIdempotent('quote', key, raw);
        if (existing) return { data: await this.mustGetQuote(existing.resourceId), warnings: parsed.warnings };
        const quote = await this.rateAndStore(parsed.value, tariff);
        await this.store.put('idempotency', idempotencyId('quote', key), {
          scope: 'quote',
          requestHash: requestHash(raw),
          resourceId: quote.id,
        });
        return { data: quote, warnings: parsed.warnings };
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
    const quote = await this.store.get('quotes', id, quoteSchema);
    if (!quote) throw notFound('quote', id);
    return quote;
  }

  // ---------------------------------------------------------------------------------------------
  // Shipments

  async createShipment(raw: unknown, options: WriteOptions = {}): Promise<ApiResult<Shipment>> {
    const tariff = await this.loadTariff();
    const parsed = parseRequest(shipmentRequestSchema, raw);
    const zipViolations = this.unknownZips(raw, [['shipper'], ['consignee']]);
    if (!parsed.ok) throw constraintViolation(mergeViolations(parsed.violations, zipViolations));
    if (zipViolations.length > 0) throw constraintViolation(zipViolations);
    const request = parsed.value;

    return guardStore(async () => {
      const quote = request.quoteId ? await this.quoteForBooking(request.quoteId, request) : undefined;
      return this.store.withLock('shipments', async () => {
        const key = options.idempotencyKey;
        const existing = key ? await this.findIdempotent('shipment', key, raw) : undefined;
        if (existing) {
          const shipment = await this.store.get('shipments', existing.resourceId, shipmentSchema);
          if (shipment) return { data: shipment, warnings: parsed.warnings };
        }
        // Quote first when the request names none: the same rating, on the shipper -> consignee lane.
        const bookedQuote =
          quote ??
          (await this.rateAndStore(
            {
              origin: { postalCode: request.shipper.postalCode, countryCode: 'US' },
              destination: { postalCode: request.consignee.postalCode, countryCode: 'US' },
              pickupDate: request.pickupDate,
              accessorials: request.accessorials,
              orderComponents: request.orderComponents,
            },
            tariff,
          ));
        // A crash between reserving the numbers and writing the shipment left the reservation in
        // the idempotency record: finish that booking with the same numbers instead of new ones.
        const serial = existing?.serial ?? (await this.store.reserveSerialsLocked('orders'));
        const id = existing?.resourceId ?? `sh_${this.nextUlid(this.now().getTime())}`;
        if (key && !existing) {
          await this.store.put('idempotency', idempotencyId('shipment', key), {
            scope: 'shipment',
            requestHash: requestHash(raw),
            resourceId: id,
            serial,
          });
        }
        const shipment = buildShipment({
          id,
          orderNumber: orderNumberFor(serial),
          bolNumber: bolNumberFor(this.bolCompanyPrefix, serial),
          request,
          quote: bookedQuote,
          now: this.now(),
        });
        await this.store.put('shipments', id, shipment);
        return { data: shipment, warnings: parsed.warnings };
      });
    });
  }

  private async quoteForBooking(quoteId: string, request: z.output<typeof shipmentRequestSchema>): Promise<Quote> {
    const quote = QUOTE_ID.test(quoteId) ? await this.store.get('quotes', quoteId, quoteSchema) : undefined;
    if (!quote) throw notFound('quote', quoteId);
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
    const renderer = await this.loadBolRenderer();
    return { data: await renderer.render(shipment, options.template ?? 'standard'), warnings: [] };
  }

  async listBolTemplates(): Promise<ApiResult<BolTemplateInfo[]>> {
    const renderer = await this.loadBolRenderer();
    return { data: await renderer.templates(), warnings: [] };
  }

  private loadBolRenderer() {
    // pdf-lib and fonts are heavy: imported only by the commands that print.
    this.bolRenderer ??= import('../bol/index.js').then(({ createBolRenderer }) =>
      createBolRenderer({ templatesDir: templatesDir() }),
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
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw makeProblem(500, 'bad-tariff', 'Bad Tariff', `cannot read the tariff ${file}: ${(error as Error).message}`);
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

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

async function guardStore<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StoreError) throw storeFailure(error.message);
    throw error;
  }
}
