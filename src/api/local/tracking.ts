/**
 * Tracking in the local engine: the events of a shipment (GET .../events) and recording new ones
 * (POST .../events). Recording is one unit of work: the shipment's events are read, the new ones
 * that are not already there (same digest: a partner sent the message again) are appended, and the
 * shipment's tracking status is derived again from all of them, so an older event arriving late
 * never demotes it.
 *
 * An Idempotency-Key is kept with the events it recorded (its digest and the request's hash):
 * the same key and body answer those events again (replayed), the same key with another body is a
 * 422, as for bookings. Keys belong to the shipment in the path.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson.js';
import type { CarrierProfiles } from '../../domain/carrierProfile.js';
import type { Shipment } from '../../domain/schemas.js';
import {
  eventIdentity,
  MAX_EVENT_LEAD_MS,
  milestoneOfCode,
  shipmentEventSchema,
  summarizeTracking,
  trackingOf,
  type EventMilestone,
  type ShipmentEvent,
  type ShipmentTracking,
} from '../../domain/tracking.js';
import type { ShipmentEventInput, ShipmentEventsBatchResult, ShipmentEventsResult } from '../../domain/trackingRequests.js';
import type { Violation } from '../../domain/schemas.js';
import type { ShipmentEventRecord } from '../../store/ports.js';
import { conflict, constraintViolation, idempotencyKeyReused, notFound, ProblemError } from '../problems.js';
import type { ApiResult } from '../types.js';
import type { IdFactory } from './ids.js';
import type { BodyOf } from './input.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { guardStore, SHIPMENT_ID } from './records.js';
import type { TrackingStore, TrackingTransaction } from './trackingStore.js';
import { orderStatusAfterTracking } from '../../domain/orderStatus.js';
import type { TRACKING_STATUSES } from '../../domain/statuses.js';

export interface TrackingDeps {
  store: TrackingStore;
  zips: ZipLookup;
  carriers: CarrierProfiles;
  ids: IdFactory;
  now: () => Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What a stored event record keeps beside the event: the key and request it was recorded under. */
interface RecordedUnder {
  idempotencyKeyDigest?: string;
  requestHash?: string;
}

function eventOfRecord(record: ShipmentEventRecord): ShipmentEvent & RecordedUnder {
  return { ...shipmentEventSchema.parse(record.event), ...(record.event as RecordedUnder) };
}

/** The zone for local times at the shipment's consignee (the promise is a day there). */
export function destinationZone(shipment: Pick<Shipment, 'deliveryAddress'>, zips: ZipLookup): string {
  return zips.lookup(shipment.deliveryAddress.zipCode)?.timeZone ?? 'America/Chicago';
}

export class Tracking {
  constructor(private readonly deps: TrackingDeps) {}

  private async shipment(shipmentId: string): Promise<Shipment> {
    if (!SHIPMENT_ID.test(shipmentId)) throw notFound('shipment', shipmentId);
    const shipment = await guardStore(() => this.deps.store.shipments.get(shipmentId));
    if (!shipment) throw notFound('shipment', shipmentId);
    return shipment;
  }

  private document(shipment: Shipment, events: readonly ShipmentEvent[]): ShipmentTracking {
    return trackingOf(shipment, events, destinationZone(shipment, this.deps.zips), this.deps.now());
  }

  async list(shipmentId: string): Promise<ApiResult<ShipmentTracking>> {
    const shipment = await this.shipment(shipmentId);
    const records = await guardStore(() => this.deps.store.events.listByShipment(shipmentId));
    return { data: this.document(shipment, records.map(eventOfRecord).map(withoutRecording)), warnings: [] };
  }

  /** The events of one request as recorded: checked against the shipment and the clock (a ProblemError otherwise). */
  private async prepare(shipmentId: string, inputs: readonly ShipmentEventInput[]): Promise<Array<Omit<ShipmentEvent, 'id'>>> {
    const before = await this.shipment(shipmentId);
    if (before.orderStatus === 'CANCELLED') throw conflict(`${before.orderNumber} is cancelled: it takes no tracking events`);
    const now = this.deps.now();
    const violations: Violation[] = [];
    const events = inputs.map((input, index) => this.eventOf(before, input, index, now, violations));
    if (violations.length > 0) throw constraintViolation(violations);
    return events;
  }

  /**
   * Inside a unit of work: the new events of one shipment appended (those already there dropped),
   * and its tracking fields derived again from all its events.
   */
  private async apply(tx: TrackingTransaction, shipmentId: string, events: ReadonlyArray<Omit<ShipmentEvent, 'id'>>, key?: { digest: string; requestHash: string; text: string }) {
    const current = await tx.shipments.getRecord(shipmentId);
    if (!current) throw notFound('shipment', shipmentId);
    const existing = (await tx.events.listByShipment(shipmentId)).map(eventOfRecord);
    if (key) {
      const earlier = existing.filter((event) => event.idempotencyKeyDigest === key.digest);
      if (earlier.some((event) => event.requestHash !== key.requestHash)) throw idempotencyKeyReused(key.text);
      if (earlier.length > 0) {
        const all = existing.map(withoutRecording);
        return { added: earlier.map(withoutRecording), duplicates: 0, shipment: current.shipment, all, replayed: true };
      }
    }
    const seen = new Set(existing.map((event) => event.digest));
    const added: ShipmentEvent[] = [];
    let duplicates = 0;
    for (const event of events) {
      if (seen.has(event.digest)) {
        duplicates += 1;
        continue;
      }
      seen.add(event.digest);
      added.push({ ...event, id: `ev_${this.deps.ids.shipment(new Date(event.receivedAt)).slice(3)}` });
    }
    tx.events.append(
      added.map((event) => ({
        id: event.id,
        shipmentId,
        occurredAt: event.occurredAt,
        recordedAt: event.receivedAt,
        messageDigest: event.digest,
        event: { ...event, ...(key ? { idempotencyKeyDigest: key.digest, requestHash: key.requestHash } : {}) },
      })),
    );
    const all = [...existing.map(withoutRecording), ...added];
    const summary = summarizeTracking(all);
    let shipment = current.shipment;
    // Each of the carrier's events moves the order state on (ASSIGNED, PICKED_UP, DELIVERED), never
    // back: freight picked up and then delayed (an EXCEPTION last) stays PICKED_UP.
    const orderStatus = all.reduce((state, event) => orderStatusAfterTracking(state, trackingStatusOfMilestone(event.milestone)), shipment.orderStatus);
    if (
      summary.trackingStatus !== shipment.trackingStatus ||
      summary.deliveredAt !== shipment.deliveredAt ||
      summary.carrierEstimatedDeliveryDate !== shipment.carrierEstimatedDeliveryDate ||
      orderStatus !== shipment.orderStatus
    ) {
      shipment = {
        ...shipment,
        updatedAt: this.deps.now().toISOString(),
        orderStatus,
        trackingStatus: summary.trackingStatus,
        deliveredAt: summary.deliveredAt,
        carrierEstimatedDeliveryDate: summary.carrierEstimatedDeliveryDate,
      };
      tx.shipments.put(shipment, current.ownQuote);
    }
    return { added, duplicates, shipment, all, replayed: false };
  }

  /** `idempotency`: the key and the hash of the request as sent (idempotency.ts requestHash). */
  async record(shipmentId: string, request: BodyOf<'addShipmentEvents'>, idempotency?: { key: string; requestHash: string }): Promise<ApiResult<ShipmentEventsResult>> {
    const events = await this.prepare(shipmentId, request.events);
    const key = idempotency ? { digest: sha256(`events\u0000${shipmentId}\u0000${idempotency.key}`), requestHash: idempotency.requestHash, text: idempotency.key } : undefined;
    return guardStore(() =>
      this.deps.store.withTransaction(async (tx) => {
        const { added, duplicates, shipment, all, replayed } = await this.apply(tx, shipmentId, events, key);
        return { data: { added, duplicates, tracking: this.document(shipment, all) }, warnings: [], replayed };
      }),
    );
  }

  /**
   * Events for many shipments in one unit of work (an import of a carrier's day of messages):
   * each item is judged as a single POST .../events would be, and answered on its own.
   */
  async recordMany(batch: BodyOf<'addShipmentEventsBatch'>): Promise<ApiResult<ShipmentEventsBatchResult>> {
    // Filled in order: a problem now, or (undefined) the outcome of the unit of work below.
    const outcomes: Array<ShipmentEventsBatchResult['items'][number] | undefined> = [];
    const ready: Array<{ index: number; shipmentId: string; events: Array<Omit<ShipmentEvent, 'id'>> }> = [];
    for (const [index, item] of batch.items.entries()) {
      try {
        ready.push({ index, shipmentId: item.shipmentId, events: await this.prepare(item.shipmentId, item.events) });
        outcomes.push(undefined);
      } catch (error) {
        if (!(error instanceof ProblemError) || error.status >= 500) throw error;
        outcomes.push({ ok: false, shipmentId: item.shipmentId, problem: error.problem });
      }
    }
    if (ready.length > 0) {
      await guardStore(() =>
        this.deps.store.withTransaction(async (tx) => {
          for (const { index, shipmentId, events } of ready) {
            const { added, duplicates, shipment } = await this.apply(tx, shipmentId, events);
            outcomes[index] = { ok: true, shipmentId, added, duplicates, trackingStatus: shipment.trackingStatus };
          }
        }),
      );
    }
    return { data: { items: outcomes.map((outcome) => outcome!) }, warnings: [] };
  }

  /** An input event as recorded: its milestone (the carrier's mapping), its zone, its digest. */
  private eventOf(shipment: Shipment, input: ShipmentEventInput, index: number, now: Date, violations: Violation[]): Omit<ShipmentEvent, 'id'> {
    const path = (field: string) => `events[${index}].${field}`;
    const occurredAt = new Date(input.occurredAt).toISOString();
    if (Date.parse(occurredAt) > now.getTime() + MAX_EVENT_LEAD_MS) {
      violations.push({
        field: path('occurredAt'),
        reason: `${input.occurredAt} is more than 2 hours ahead of the clock (${now.toISOString()}): the carrier's clock or time zone is wrong`,
      });
    }
    const scac = input.scac ?? shipment.carrier?.scac ?? null;
    const overrides = (scac && this.deps.carriers[scac]?.statusMilestones) || {};
    const mapped = input.statusCode ? milestoneOfCode(input.source, input.statusCode, overrides) : null;
    const deliveredByCode = mapped === 'DELIVERED';
    let milestone: EventMilestone = input.milestone ?? mapped ?? 'INFO';
    if (milestone === 'DELIVERED' && !deliveredByCode) {
      violations.push({
        field: path('milestone'),
        reason: 'DELIVERED comes only from the carrier: statusCode D1 (X12 AT7, completed unloading) or the ITV Delivered milestone',
      });
    }
    if (deliveredByCode && input.milestone && input.milestone !== 'DELIVERED') milestone = 'DELIVERED';
    const place = input.place
      ? {
          city: input.place.city ?? null,
          state: input.place.state?.toUpperCase() ?? null,
          zipCode: input.place.zipCode ?? null,
          countryCode: input.place.countryCode ?? null,
        }
      : null;
    const timeZone = input.timeZone ?? (place?.zipCode ? (this.deps.zips.lookup(place.zipCode)?.timeZone ?? null) : null);
    const estimatedDeliveryAt = input.estimatedDeliveryAt ? new Date(input.estimatedDeliveryAt).toISOString() : null;
    const statusCode = input.statusCode ?? null;
    const reasonCode = input.reasonCode ?? null;
    const digest = sha256(canonicalJson(eventIdentity(shipment.id, { occurredAt, milestone, statusCode, reasonCode, place, estimatedDeliveryAt })));
    return {
      shipmentId: shipment.id,
      occurredAt,
      timeZone,
      milestone,
      statusCode,
      reasonCode,
      scac,
      place,
      source: input.source,
      messageReference: input.messageReference ?? null,
      estimatedDeliveryAt,
      note: input.note ?? null,
      digest,
      receivedAt: now.toISOString(),
    };
  }
}

function withoutRecording(event: ShipmentEvent & RecordedUnder): ShipmentEvent {
  const { idempotencyKeyDigest: _key, requestHash: _hash, ...rest } = event;
  return rest;
}

/** The tracking status an event's milestone stands for; an ETA or a note moves nothing. */
function trackingStatusOfMilestone(milestone: string): (typeof TRACKING_STATUSES)[number] {
  return milestone === 'ESTIMATE' || milestone === 'INFO' ? 'NONE' : (milestone as (typeof TRACKING_STATUSES)[number]);
}
