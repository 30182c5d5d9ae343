/**
 * One company's view of the store (issue 41 item 2): what the engine of a company-scoped LocalApi
 * (LocalApi.forCompany) reads and writes through, so that every operation, also one added later,
 * sees only the company's records without a parameter on each call.
 *
 * - Lists and searches ask the store for the company's records only (ShipmentFilter.companyId,
 *   QuoteFilter.companyId: a WHERE in PostgreSQL, a filter in the file store): pages stay full.
 * - A record named by its id or order number that belongs to another company is refused with 403
 *   (OtherCompanysRecord), as the published document answers the shipper operations on an order
 *   and a booking on another company's quote; key lookups that serve a check
 *   (BOL, PRO, reference, the bookings of a quote, a carrier message) just do not find it.
 * - Idempotency keys and the import ledger's content keys live in one namespace per company: the
 *   store key is `<companyId> <key>` (a space, which no Idempotency-Key can hold), the default
 *   company's keys stay as they were.
 * - Events are a shipment's: reading them reads the shipment first.
 * - Writes stamp the company and the key that made them (createdBy, updatedBy) on the very record
 *   the engine answers with, so the answer and the stored record agree.
 * - Fuel prices (a public index), credentials and the CLI user's own records are shared.
 */
import { companyOf, DEFAULT_COMPANY_ID, type CompanyScope } from '../../domain/companies.js';
import type { Quote, Shipment } from '../../domain/schemas.js';
import type {
  IdempotencyReads,
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyWrites,
  ImportLedger,
  QuoteFilter,
  QuoteReads,
  QuoteWrites,
  ShipmentEventReads,
  ShipmentEventRecord,
  ShipmentEventWrites,
  ShipmentFilter,
  ShipmentReads,
  ShipmentRecord,
  ShipmentWrites,
  ShipperStore,
  StoreTransaction,
  PageRequest,
} from '../../store/ports.js';
import { PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';

/**
 * 403, as the published document answers a shipper operation on a record that "does not belong to
 * your company". An operation whose published answer is 404 instead (GET quote, the appointment
 * operations) catches it (`instanceof`) and answers as for a record that does not exist.
 */
export class OtherCompanysRecord extends ProblemError {
  constructor(what: string, id: string) {
    super({
      type: `${PROBLEM_TYPE_BASE}forbidden`,
      title: 'Forbidden',
      status: 403,
      detail: `${what} ${id} belongs to another company: this API key cannot read or change it`,
      reason: 'forbidden',
    });
  }
}

const otherCompanys = (what: string, id: string) => new OtherCompanysRecord(what, id);

/** The store key of a company's idempotency key (the default company's keys are unchanged). */
export function companyKey(scope: CompanyScope, key: string): string {
  return scope.companyId === DEFAULT_COMPANY_ID ? key : `${scope.companyId} ${key}`;
}

const owned = (scope: CompanyScope) => (record: { companyId?: string | undefined }) => companyOf(record) === scope.companyId;

function shipmentReads(reads: ShipmentReads, scope: CompanyScope): ShipmentReads {
  const mine = owned(scope);
  const refused = <T extends Shipment | undefined>(shipment: T, reference: string): T => {
    if (shipment && !mine(shipment)) throw otherCompanys('shipment', reference);
    return shipment;
  };
  return {
    get: async (id) => refused(await reads.get(id), id),
    getRecord: async (id): Promise<ShipmentRecord | undefined> => {
      const record = await reads.getRecord(id);
      refused(record?.shipment, id);
      return record;
    },
    findByOrderNumber: async (orderNumber) => refused(await reads.findByOrderNumber(orderNumber), orderNumber),
    findByBolNumber: async (bolNumber) => {
      const shipment = await reads.findByBolNumber(bolNumber);
      return shipment && mine(shipment) ? shipment : undefined;
    },
    findByProNumber: async (proNumber, scac) => (await reads.findByProNumber(proNumber, scac)).filter(mine),
    findByReference: async (refNumber, options) => (await reads.findByReference(refNumber, { ...options, companyId: scope.companyId })).filter(mine),
    findByQuote: async (quoteId) => (await reads.findByQuote(quoteId)).filter(mine),
    list: (filter: ShipmentFilter, page: PageRequest) => reads.list({ ...filter, companyId: scope.companyId }, page),
  };
}

function quoteReads(reads: QuoteReads, scope: CompanyScope): QuoteReads {
  const mine = owned(scope);
  return {
    get: async (id) => {
      const quote = await reads.get(id);
      if (quote && !mine(quote)) throw otherCompanys('quote', id);
      return quote;
    },
    list: (filter: QuoteFilter, page: PageRequest) => reads.list({ ...filter, companyId: scope.companyId }, page),
  };
}

function idempotencyReads(reads: IdempotencyReads, scope: CompanyScope): IdempotencyReads {
  return { get: (kind: IdempotencyScope, key: string) => reads.get(kind, companyKey(scope, key)) };
}

function eventReads(reads: ShipmentEventReads, shipments: ShipmentReads): ShipmentEventReads {
  return {
    listByShipment: async (shipmentId) => {
      await shipments.get(shipmentId);
      return reads.listByShipment(shipmentId);
    },
    findByMessageDigest: async (digest) => {
      const records = await reads.findByMessageDigest(digest);
      const own = await Promise.all(
        records.map((record) => shipments.get(record.shipmentId).then(Boolean, (error: unknown) => (error instanceof OtherCompanysRecord ? false : Promise.reject(error)))),
      );
      return records.filter((_, index) => own[index]);
    },
  };
}

/** The company and the writing key on a record about to be written; a record of another company is refused (defence: reads refuse it first). */
function stampShipment(shipment: Shipment, scope: CompanyScope, created: boolean): void {
  if (!created && companyOf(shipment) !== scope.companyId) throw otherCompanys('shipment', shipment.orderNumber);
  // In place: the engine answers with the object it writes.
  shipment.companyId = scope.companyId;
  if (created) {
    if (scope.keyId) shipment.createdBy = scope.keyId;
  } else if (scope.keyId) shipment.updatedBy = scope.keyId;
  else delete shipment.updatedBy;
}

/** A new quote (quotes never change once saved; a booking's own quote is new with its shipment). */
function stampQuote(quote: Quote, scope: CompanyScope): Quote {
  quote.companyId = scope.companyId;
  if (scope.keyId) quote.createdBy = scope.keyId;
  return quote;
}

function transaction(tx: StoreTransaction, scope: CompanyScope): StoreTransaction {
  const shipments = shipmentReads(tx.shipments, scope);
  const shipmentWrites: ShipmentWrites = {
    ...shipments,
    put: (shipment, ownQuote, options) => {
      const created = options?.created === true;
      stampShipment(shipment, scope, created);
      tx.shipments.put(shipment, ownQuote && created ? stampQuote(ownQuote, scope) : ownQuote, options);
    },
  };
  const quotes: QuoteWrites = { ...quoteReads(tx.quotes, scope), put: (quote) => tx.quotes.put(stampQuote(quote, scope)) };
  const idempotency: IdempotencyWrites = {
    ...idempotencyReads(tx.idempotency, scope),
    put: (key: string, record: IdempotencyRecord) => tx.idempotency.put(companyKey(scope, key), record),
  };
  const events: ShipmentEventWrites = { ...eventReads(tx.events, shipments), append: (records: readonly ShipmentEventRecord[]) => tx.events.append(records) };
  return {
    shipments: shipmentWrites,
    quotes,
    counters: tx.counters,
    idempotency,
    imports: ledger(tx.imports, scope),
    events,
    fuelPrices: tx.fuelPrices,
  };
}

function ledger(imports: ImportLedger, scope: CompanyScope): ImportLedger {
  return { bookedUnder: (contentKey) => imports.bookedUnder(companyKey(scope, contentKey)) };
}

/** The store as one company sees it; `scope.keyId` is stamped on what it writes. */
export function companyStore(store: ShipperStore, scope: CompanyScope): ShipperStore {
  const shipments = shipmentReads(store.shipments, scope);
  return {
    get location() {
      return store.location;
    },
    get readOnly() {
      return store.readOnly;
    },
    shipments,
    quotes: { ...quoteReads(store.quotes, scope), put: (quote) => store.quotes.put(stampQuote(quote, scope)) },
    idempotency: idempotencyReads(store.idempotency, scope),
    imports: ledger(store.imports, scope),
    events: eventReads(store.events, shipments),
    fuelPrices: store.fuelPrices,
    locations: store.locations,
    auditedBills: store.auditedBills,
    printRuns: store.printRuns,
    credentials: store.credentials,
    // Keyed by a shipment id the engine has found through the scoped shipments first.
    appointmentDocuments: store.appointmentDocuments,
    withTransaction: (fn) => store.withTransaction((tx) => fn(transaction(tx, scope))),
    prepare: () => store.prepare(),
    readiness: () => store.readiness(),
    // The store is shared by every company's view: its owner closes it.
    close: async () => {},
  };
}
