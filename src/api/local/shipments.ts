/** Shipments of the local engine once booked: reading them, lists with filters, updating, cancelling. */
import type { Warning } from '../../domain/warnings.js';
import { utcDateOf } from '../../domain/dates.js';
import { createdRange, type ShipmentListQuery } from '../operations.js';
import { normalisedOrderNumber, normalisedProNumber } from '../../domain/recordKeys.js';
import type { Page, Shipment } from '../../domain/schemas.js';
import type { ShipperStore } from '../../store/ports.js';
import { conflict, constraintViolation, makeProblem, notFound, type ProblemError } from '../problems.js';
import { confirmViolations } from '../../domain/confirmChecks.js';
import type { PublishedLimits } from '../../domain/publishedLimits.js';
import { ORDER_NUMBER } from '../../domain/recordKeys.js';
import type { ApiResult } from '../types.js';
import { proHolder, proTaken } from './carrierNumbers.js';
import type { BodyOf } from './input.js';
import { answerPage, guardStore, pageRequest, SHIPMENT_ID } from './records.js';
import { filteredPage } from './trackingFilter.js';
import { cancelOrder, confirmOrder } from '../../domain/orderStatus.js';

/** Checks a PRO a request gives against the carrier's block (carrierNumbers.ts). */
export type ProCheck = (update: { proNumber: string | null; carrier: Shipment['carrier'] }) => { violations: Array<{ field: string; reason: string }>; warnings: Warning[] };

/** The values of a comma-separated key filter, normalised (PRO) or trimmed (BOL), without duplicates. */
export function keyFilterValues(list: string | undefined, kind: 'pro' | 'bol'): string[] {
  if (list === undefined) return [];
  const values = list.split(',').map((value) => (kind === 'pro' ? normalisedProNumber(value) : value.trim()));
  return [...new Set(values.filter((value) => value !== ''))];
}

export class Shipments {
  constructor(
    private readonly store: ShipperStore,
    private readonly now: () => Date,
    private readonly limits: PublishedLimits,
  ) {}

  /** A shipment by its id or, as the published paths name it, its order number (SO-000123). */
  async get(reference: string): Promise<Shipment> {
    if (ORDER_NUMBER.test(reference)) {
      const shipment = await guardStore(() => this.store.shipments.findByOrderNumber(normalisedOrderNumber(reference)));
      if (!shipment) throw notFound('shipment', reference);
      return shipment;
    }
    if (!SHIPMENT_ID.test(reference)) throw notFound('shipment', reference);
    const shipment = await guardStore(() => this.store.shipments.get(reference));
    if (!shipment) throw notFound('shipment', reference);
    return shipment;
  }

  /** The id of a shipment named by its id or its order number. */
  async idOf(reference: string): Promise<string> {
    return SHIPMENT_ID.test(reference) ? reference : (await this.get(reference)).id;
  }

  /**
   * `PUT .../confirm`: INITIALIZED to CONFIRMED after the published checks (confirmChecks.ts), in
   * one unit of work; a failed check leaves it INITIALIZED and answers 400 with every violation.
   * From any other state (CONFIRMED or later, CANCELLED) it is the published 400 "order is not in
   * INITIALIZED state" (reason invalid_state), as published; the remote client counts a retried
   * confirm refused so as done when the order is CONFIRMED or later (remote.ts DONE_STATES).
   */
  async confirm(reference: string): Promise<ApiResult<Shipment>> {
    const shipmentId = await this.idOf(reference);
    return guardStore(() =>
      this.store.withTransaction(async (tx) => {
        const record = await tx.shipments.getRecord(shipmentId);
        if (!record) throw notFound('shipment', reference);
        const { shipment, ownQuote } = record;
        const transition = confirmOrder(shipment.orderStatus);
        if (!transition.ok) throw notInitialized(shipment);
        const violations = confirmViolations({ ...shipment, description: shipment.description ?? '' }, this.limits);
        if (violations.length > 0) throw constraintViolation(violations);
        const confirmed = { ...shipment, orderStatus: transition.status, updatedAt: this.now().toISOString() };
        tx.shipments.put(confirmed, ownQuote);
        return { data: confirmed, warnings: [] };
      }),
    );
  }

  /**
   * Newest first; key filters (order, BOL, PRO, reference) are answered from the store's indexes.
   * `tracked` (the tracking filter, trackingFilter.ts) is judged here, page after page of the store's.
   */
  async list(query: ShipmentListQuery, tracked?: (shipment: Shipment) => boolean): Promise<ApiResult<Page<Shipment>>> {
    const { since, until, to, orderStatus, refNumber } = query;
    const page = pageRequest(query, SHIPMENT_ID);
    const filter = {
      orderStatus,
      created: createdRange(since, until),
      deliveryZipCode: to?.slice(0, 5),
      refNumber,
      orderNumber: query.orderNumber === undefined ? undefined : normalisedOrderNumber(query.orderNumber),
      bolNumbers: keyFilterValues(query.bolNumber, 'bol'),
      proNumbers: keyFilterValues(query.proNumber, 'pro'),
    };
    if (!tracked) return answerPage(await guardStore(() => this.store.shipments.list(filter, page)));
    return answerPage(await guardStore(() => filteredPage((request) => this.store.shipments.list(filter, request), page, tracked)));
  }

  /**
   * What the carrier assigns after booking (carrier, PRO, trailer, seals), in one unit of work.
   * Only the fields the body names (`named`) change; null clears one. The freight never changes here.
   */
  async update(
    shipmentId: string,
    update: ShipmentUpdate,
    named: ReadonlySet<string>,
    checkPro: ProCheck,
    todayAt: (zipCode: string) => string = () => utcDateOf(this.now()),
  ): Promise<ApiResult<Shipment>> {
    const isNamed = (field: string) => named.has(field);
    shipmentId = await this.idOf(shipmentId);
    return guardStore(() =>
      this.store.withTransaction(async (tx) => {
        const record = await tx.shipments.getRecord(shipmentId);
        if (!record) throw notFound('shipment', shipmentId);
        const { shipment, ownQuote } = record;
        if (shipment.orderStatus === 'CANCELLED') throw conflict(`${shipment.orderNumber} is cancelled: it cannot be updated`);
        const changes = Object.fromEntries((['carrier', 'proNumber', 'trailerNumber', 'sealNumbers'] as const).filter(isNamed).map((field) => [field, update[field]])) as Partial<
          Pick<Shipment, 'carrier' | 'proNumber' | 'trailerNumber' | 'sealNumbers'>
        >;
        const updated = { ...shipment, ...changes, ...contactChanges(shipment, update, isNamed, todayAt(shipment.pickupAddress.zipCode)), updatedAt: this.now().toISOString() };
        const proChanged = isNamed('proNumber') || isNamed('carrier');
        const pro = proChanged ? checkPro({ proNumber: updated.proNumber, carrier: updated.carrier }) : { violations: [], warnings: [] };
        if (pro.violations.length > 0) throw constraintViolation(pro.violations);
        if (proChanged && updated.proNumber) {
          // A PRO names one shipment of its carrier.
          const holder = await proHolder(tx.shipments, updated.proNumber, updated.carrier?.scac, shipmentId);
          if (holder) throw proTaken(updated.proNumber, holder, updated.carrier?.scac);
        }
        tx.shipments.put(updated, ownQuote);
        return { data: updated, warnings: pro.warnings };
      }),
    );
  }

  /**
   * To CANCELLED while cancellable (before pickup: orderStatus.ts), in one unit of work (a booking
   * and a cancellation never interleave). Cancelling again answers the cancelled shipment as it is;
   * freight already picked up or delivered is refused (409).
   */
  async cancel(reference: string, request: BodyOf<'cancelShipment'>): Promise<ApiResult<Shipment>> {
    const shipmentId = await this.idOf(reference);
    return guardStore(() =>
      this.store.withTransaction(async (tx) => {
        const record = await tx.shipments.getRecord(shipmentId);
        if (!record) throw notFound('shipment', shipmentId);
        const { shipment, ownQuote } = record;
        if (shipment.orderStatus === 'CANCELLED') return { data: shipment, warnings: [] };
        const transition = cancelOrder(shipment.orderStatus);
        if (!transition.ok)
          throw makeProblem(400, 'invalid-state', 'Bad Request', `shipment ${shipment.orderNumber} cannot be cancelled: ${transition.reason}`, { reason: 'invalid_state' });
        const at = this.now().toISOString();
        const cancelled = {
          ...shipment,
          orderStatus: 'CANCELLED' as const,
          updatedAt: at,
          cancelledAt: at,
          cancellationReason: request.reason ?? null,
        };
        tx.shipments.put(cancelled, ownQuote);
        return { data: cancelled, warnings: [] };
      }),
    );
  }
}

type ShipmentUpdate = BodyOf<'updateShipment'>;

/** The published 400 of a confirm of an order that is not INITIALIZED (reason invalid_state). */
export function notInitialized(shipment: Pick<Shipment, 'orderNumber' | 'orderStatus'>): ProblemError {
  return makeProblem(
    400,
    'invalid-state',
    'Bad Request',
    `order is not in INITIALIZED state: ${shipment.orderNumber} is ${shipment.orderStatus}, only an INITIALIZED order can be confirmed`,
    {
      reason: 'invalid_state',
    },
  );
}

/**
 * Phones, contacts, the order's description and line descriptions (what an eBOL or the published
 * confirm needs and a booking may lack), until the pickup day
 * at the origin: after it the carrier has the papers it picked up with. The freight itself, and a
 * hazardous shipment's need of an emergency phone, stay as booked.
 */
function contactChanges(record: Shipment, update: ShipmentUpdate, named: (field: string) => boolean, today: string): Partial<Shipment> {
  const fields = (['shipperPhone', 'consigneePhone', 'shipperContact', 'consigneeContact', 'description', 'emergencyContactPhone', 'lineDescriptions'] as const).filter(named);
  if (fields.length === 0) return {};
  if (record.requiredPickupDate < today) {
    throw conflict(`${record.orderNumber} was to be picked up on ${record.requiredPickupDate}: its phones and line descriptions can change until the pickup day`, [
      { field: fields[0]!, reason: `the pickup day ${record.requiredPickupDate} has passed (today is ${today} at the origin)` },
    ]);
  }
  const changes: Partial<Shipment> = {};
  if (named('shipperPhone')) changes.pickupAddress = { ...record.pickupAddress, phoneNumber: update.shipperPhone ?? null };
  if (named('consigneePhone')) changes.deliveryAddress = { ...record.deliveryAddress, phoneNumber: update.consigneePhone ?? null };
  if (named('shipperContact')) changes.pickupAddress = { ...(changes.pickupAddress ?? record.pickupAddress), contactPerson: update.shipperContact ?? null };
  if (named('consigneeContact')) changes.deliveryAddress = { ...(changes.deliveryAddress ?? record.deliveryAddress), contactPerson: update.consigneeContact ?? null };
  if (update.description !== undefined) changes.description = update.description;
  if (named('emergencyContactPhone')) {
    const hazardous = record.orderComponents.findIndex((component) => component.hazmat);
    if (hazardous !== -1 && !update.emergencyContactPhone) {
      throw constraintViolation([
        { field: 'emergencyContactPhone', reason: `orderComponents[${hazardous}] is hazardous material: the emergency response telephone number cannot be cleared` },
      ]);
    }
    changes.emergencyContactPhone = update.emergencyContactPhone ?? null;
  }
  if (update.lineDescriptions) {
    const lines = record.orderComponents.length;
    const outside = update.lineDescriptions.flatMap(({ line }, index) =>
      line > lines ? [{ field: `lineDescriptions[${index}].line`, reason: `${record.orderNumber} has ${lines} line${lines === 1 ? '' : 's'}: there is no line ${line}` }] : [],
    );
    if (outside.length > 0) throw constraintViolation(outside);
    const descriptions = new Map(update.lineDescriptions.map(({ line, description }) => [line - 1, description]));
    changes.orderComponents = record.orderComponents.map((component, index) => (descriptions.has(index) ? { ...component, description: descriptions.get(index)! } : component));
  }
  return changes;
}
