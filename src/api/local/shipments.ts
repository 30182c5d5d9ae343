/** Shipments of the local engine once booked: reading them, lists with filters, cancelling. */
import type { z } from 'zod';
import { createdRange, type shipmentListQuerySchema } from '../operations.js';
import { cancelRequestSchema, shipmentSchema, shipmentUpdateSchema, type Page, type Shipment } from '../../domain/schemas.js';
import { parseRequest } from '../../domain/validation.js';
import type { JsonStore } from '../../store/jsonStore.js';
import { conflict, constraintViolation, notFound } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { ShipmentIndexes } from './indexes.js';
import { storedShipmentSchema } from './quotes.js';
import { guardStore, listRecords, SHIPMENT_ID } from './records.js';

export type ShipmentListQuery = z.output<typeof shipmentListQuerySchema>;

/** Checks a PRO a request gives against the carrier's block (carrierNumbers.ts). */
export type ProCheck = (update: { proNumber: string | null; carrier: Shipment['carrier'] }) => { violations: Array<{ field: string; message: string }>; warnings: string[] };

export class Shipments {
  constructor(
    private readonly store: JsonStore,
    private readonly indexes: ShipmentIndexes,
    private readonly now: () => Date,
  ) {}

  async get(shipmentId: string): Promise<Shipment> {
    if (!SHIPMENT_ID.test(shipmentId)) throw notFound('shipment', shipmentId);
    const shipment = await guardStore(() => this.store.get('shipments', shipmentId, shipmentSchema));
    if (!shipment) throw notFound('shipment', shipmentId);
    return shipment;
  }

  /** `byKeys`: the shipments the key filters found (ShipmentKeyIndex), and the check of each. */
  async list(query: ShipmentListQuery, byKeys?: { ids: string[]; keep: (shipment: Shipment) => boolean }): Promise<ApiResult<Page<Shipment>>> {
    const { since, until, to, status, refNumber } = query;
    const range = createdRange(since, until);
    const referenced = refNumber !== undefined ? await guardStore(() => this.indexes.idsWithReference(refNumber)) : undefined;
    const keyed = byKeys?.ids;
    const ids = keyed && referenced ? keyed.filter((id) => referenced.includes(id)) : (keyed ?? referenced);
    return listRecords(this.store, 'shipments', shipmentSchema, SHIPMENT_ID, query, {
      ids,
      oldest: range.from,
      keep: (shipment) =>
        (byKeys === undefined || byKeys.keep(shipment)) &&
        (status === undefined || shipment.status === status) &&
        (to === undefined || shipment.consignee.postalCode === to.slice(0, 5)) &&
        inRange(shipment.createdAt, range),
    });
  }

  /**
   * What the carrier assigns after booking (carrier, PRO, trailer, seals), under the shipments
   * lock. Only the fields the body names change; null clears one. The freight never changes here.
   */
  async update(
    shipmentId: string,
    raw: unknown,
    checkPro: ProCheck,
    todayAt: (postalCode: string) => string = () => this.now().toISOString().slice(0, 10),
  ): Promise<ApiResult<Shipment>> {
    const parsed = parseRequest(shipmentUpdateSchema, raw);
    if (!parsed.ok) throw constraintViolation(parsed.violations);
    const named = (field: string) => typeof raw === 'object' && raw !== null && Object.hasOwn(raw, field);
    await this.get(shipmentId);
    return guardStore(() =>
      this.store.withLock('shipments', async () => {
        const record = await this.store.get('shipments', shipmentId, storedShipmentSchema);
        if (!record) throw notFound('shipment', shipmentId);
        if (record.status === 'CANCELLED') throw conflict(`${record.orderNumber} is cancelled: it cannot be updated`);
        const changes = Object.fromEntries(
          (['carrier', 'proNumber', 'trailerNumber', 'sealNumbers'] as const).filter(named).map((field) => [field, parsed.value[field]]),
        ) as Partial<Pick<Shipment, 'carrier' | 'proNumber' | 'trailerNumber' | 'sealNumbers'>>;
        const updated = { ...record, ...changes, ...contactChanges(record, parsed.value, named, todayAt(record.shipper.postalCode)) };
        const pro = named('proNumber') || named('carrier') ? checkPro({ proNumber: updated.proNumber, carrier: updated.carrier }) : { violations: [], warnings: [] };
        if (pro.violations.length > 0) throw constraintViolation(pro.violations);
        await this.store.put('shipments', shipmentId, updated);
        const { quote: _kept, ...answer } = updated;
        return { data: answer, warnings: pro.warnings };
      }),
    );
  }

  /**
   * BOOKED -> CANCELLED, under the shipments lock (a booking and a cancellation never interleave).
   * Cancelling again answers the cancelled shipment as it is.
   */
  async cancel(shipmentId: string, raw: unknown): Promise<ApiResult<Shipment>> {
    const parsed = parseRequest(cancelRequestSchema, raw);
    if (!parsed.ok) throw constraintViolation(parsed.violations);
    await this.get(shipmentId);
    return guardStore(() =>
      this.store.withLock('shipments', async () => {
        const record = await this.store.get('shipments', shipmentId, storedShipmentSchema);
        if (!record) throw notFound('shipment', shipmentId);
        const { quote: _quote, ...current } = record;
        if (record.status === 'CANCELLED') return { data: current, warnings: [] };
        const cancelled = { ...record, status: 'CANCELLED' as const, cancelledAt: this.now().toISOString(), cancellationReason: parsed.value.reason ?? null };
        await this.store.put('shipments', shipmentId, cancelled);
        const { quote: _kept, ...answer } = cancelled;
        return { data: answer, warnings: [] };
      }),
    );
  }
}

type ShipmentUpdate = z.output<typeof shipmentUpdateSchema>;

/**
 * Phones and line descriptions (what an eBOL needs and a booking may lack), until the pickup day
 * at the origin: after it the carrier has the papers it picked up with. The freight itself, and a
 * hazardous shipment's need of an emergency phone, stay as booked.
 */
function contactChanges(record: Shipment, update: ShipmentUpdate, named: (field: string) => boolean, today: string): Partial<Shipment> {
  const fields = (['shipperPhone', 'consigneePhone', 'emergencyContactPhone', 'lineDescriptions'] as const).filter(named);
  if (fields.length === 0) return {};
  if (record.pickupDate < today) {
    throw conflict(`${record.orderNumber} was to be picked up on ${record.pickupDate}: its phones and line descriptions can change until the pickup day`, [
      { field: fields[0]!, message: `the pickup day ${record.pickupDate} has passed (today is ${today} at the origin)` },
    ]);
  }
  const changes: Partial<Shipment> = {};
  if (named('shipperPhone')) changes.shipper = { ...record.shipper, phone: update.shipperPhone ?? null };
  if (named('consigneePhone')) changes.consignee = { ...record.consignee, phone: update.consigneePhone ?? null };
  if (named('emergencyContactPhone')) {
    const hazardous = record.orderComponents.findIndex((component) => component.hazmat);
    if (hazardous !== -1 && !update.emergencyContactPhone) {
      throw constraintViolation([
        { field: 'emergencyContactPhone', message: `orderComponents[${hazardous}] is hazardous material: the emergency response telephone number cannot be cleared` },
      ]);
    }
    changes.emergencyContactPhone = update.emergencyContactPhone ?? null;
  }
  if (update.lineDescriptions) {
    const lines = record.orderComponents.length;
    const outside = update.lineDescriptions.flatMap(({ line }, index) =>
      line > lines ? [{ field: `lineDescriptions[${index}].line`, message: `${record.orderNumber} has ${lines} line${lines === 1 ? '' : 's'}: there is no line ${line}` }] : [],
    );
    if (outside.length > 0) throw constraintViolation(outside);
    const descriptions = new Map(update.lineDescriptions.map(({ line, description }) => [line - 1, description]));
    changes.orderComponents = record.orderComponents.map((component, index) => (descriptions.has(index) ? { ...component, description: descriptions.get(index)! } : component));
  }
  return changes;
}

export function inRange(instant: string, range: { from?: number; to?: number }): boolean {
  const time = Date.parse(instant);
  return (range.from === undefined || time >= range.from) && (range.to === undefined || time <= range.to);
}
