/**
 * Tracking, PURE: the carriers' status messages as shipment events, the milestone each status code
 * means, and the tracking status a shipment's events give (SPEC section 5):
 *
 * - An event has the instant it happened (UTC, resolved from the carrier's local date and time
 *   with the zone of the event's place: eventTime.ts), the carrier's status and reason codes, the
 *   milestone they mean, the place, the source (`x12-214`, `itv-json`, `manual`, `api`) and a
 *   reference to the message it came from.
 * - The tracking status is the milestone of the latest event by event time, so an older event
 *   that arrives later never demotes it; DELIVERED comes only from X12 AT7 D1 or the ITV Delivered
 *   milestone (X1 is arrival at the delivery location, not delivery) and, once there, stays.
 * - Events that state no place in the shipment's journey (an ETA, an appointment, an unknown code)
 *   are kept on the timeline (ESTIMATE, INFO) and leave the status alone; an ESTIMATE carries the
 *   carrier's latest delivery ETA.
 *
 * The AT7 code -> milestone table is the default; a carrier profile may override it per code
 * (some carriers send X6 "en route to delivery" for their line-haul): carrierProfile.ts.
 */
import { z } from 'zod';
import { onFirstUse } from './schemaOnFirstUse.js';
import { localDateInZone } from './dates.js';
import { businessDaysBetween, DEFAULT_CARRIER_HOLIDAYS, type HolidayCalendar } from './transit.js';
import { TRACKING_STATUSES } from './statuses.js';
import type { Shipment } from './schemas.js';

export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** What one event says of the freight: a tracking status (not NONE), or nothing about where it is. */
export const EVENT_MILESTONES = ['AT_PICKUP', 'PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'AT_DELIVERY', 'DELIVERED', 'EXCEPTION', 'ESTIMATE', 'INFO'] as const;
export type EventMilestone = (typeof EVENT_MILESTONES)[number];
export const EVENT_SOURCES = ['x12-214', 'itv-json', 'manual', 'api'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** A milestone that moves the tracking status (ESTIMATE and INFO do not). */
export function isStatusMilestone(milestone: EventMilestone): milestone is Exclude<TrackingStatus, 'NONE'> {
  return milestone !== 'ESTIMATE' && milestone !== 'INFO';
}

// ---------------------------------------------------------------------------------------------
// Codes

/**
 * X12 004010 AT701 (element 1650, Shipment Status Indicator) codes an LTL carrier sends, with
 * their meaning and default milestone. Codes not listed are kept as INFO events.
 */
export const AT7_STATUS_CODES: Readonly<Record<string, { meaning: string; milestone: EventMilestone }>> = {
  X3: { meaning: 'Arrived at pick-up location', milestone: 'AT_PICKUP' },
  X8: { meaning: 'Arrived at pick-up location loading dock', milestone: 'AT_PICKUP' },
  CP: { meaning: 'Completed loading at pick-up location', milestone: 'AT_PICKUP' },
  AF: { meaning: 'Departed pick-up location with shipment', milestone: 'PICKED_UP' },
  X4: { meaning: 'Arrived at terminal', milestone: 'IN_TRANSIT' },
  P1: { meaning: 'Departed terminal', milestone: 'IN_TRANSIT' },
  I1: { meaning: 'In-gate', milestone: 'IN_TRANSIT' },
  OA: { meaning: 'Out-gate', milestone: 'IN_TRANSIT' },
  L1: { meaning: 'Loading', milestone: 'IN_TRANSIT' },
  AM: { meaning: 'Loaded on truck', milestone: 'IN_TRANSIT' },
  CL: { meaning: 'Trailer closed out', milestone: 'IN_TRANSIT' },
  BA: { meaning: 'Connecting line or cartage pick-up', milestone: 'IN_TRANSIT' },
  J1: { meaning: 'Delivered to connecting line', milestone: 'IN_TRANSIT' },
  R1: { meaning: 'Received from prior carrier', milestone: 'IN_TRANSIT' },
  AV: { meaning: 'Available for delivery', milestone: 'IN_TRANSIT' },
  X6: { meaning: 'En route to delivery location', milestone: 'OUT_FOR_DELIVERY' },
  AJ: { meaning: 'Tendered for delivery', milestone: 'OUT_FOR_DELIVERY' },
  X1: { meaning: 'Arrived at delivery location', milestone: 'AT_DELIVERY' },
  X5: { meaning: 'Arrived at delivery location loading dock', milestone: 'AT_DELIVERY' },
  S1: { meaning: "Trailer spotted at consignee's location", milestone: 'AT_DELIVERY' },
  D1: { meaning: 'Completed unloading at delivery location (delivered)', milestone: 'DELIVERED' },
  AH: { meaning: 'Attempted delivery', milestone: 'EXCEPTION' },
  SD: { meaning: 'Shipment delayed', milestone: 'EXCEPTION' },
  AP: { meaning: 'Delivery not completed', milestone: 'EXCEPTION' },
  A7: { meaning: 'Refused by consignee', milestone: 'EXCEPTION' },
  A9: { meaning: 'Shipment damaged', milestone: 'EXCEPTION' },
  A3: { meaning: 'Shipment returned to shipper', milestone: 'EXCEPTION' },
  PR: { meaning: 'Customs hold', milestone: 'EXCEPTION' },
  AG: { meaning: 'Estimated delivery', milestone: 'ESTIMATE' },
  X2: { meaning: "Estimated date and/or time of arrival at consignee's location", milestone: 'ESTIMATE' },
  AI: { meaning: 'Shipment reconsigned', milestone: 'INFO' },
  CD: { meaning: 'Departed delivery location', milestone: 'INFO' },
  XB: { meaning: 'Shipment acknowledged', milestone: 'INFO' },
  OO: { meaning: 'Paperwork received, shipment not received', milestone: 'INFO' },
  B6: { meaning: 'Estimated to arrive at carrier terminal', milestone: 'INFO' },
  K1: { meaning: 'Arrived at customs', milestone: 'INFO' },
};

/** The NMFTA In-Transit Visibility milestones (shipmentMilestoneStatus). */
export const ITV_MILESTONES = ['Picked-up', 'In Transit', 'Interline', 'Out for Delivery', 'Delivered'] as const;
const ITV_MILESTONE_MAP: Readonly<Record<(typeof ITV_MILESTONES)[number], EventMilestone>> = {
  'Picked-up': 'PICKED_UP',
  'In Transit': 'IN_TRANSIT',
  Interline: 'IN_TRANSIT',
  'Out for Delivery': 'OUT_FOR_DELIVERY',
  Delivered: 'DELIVERED',
};
/** ITV informational notifications that are exceptions to the delivery (deliveryInformation_messages). */
export const ITV_EXCEPTION_MESSAGES = ['Missed delivery'] as const;

/** Per carrier: AT7 status code -> milestone, over the default table. D1 cannot be moved: it alone means delivered. */
export const statusMilestoneOverridesSchema = z
  .record(z.string().regex(/^[A-Z0-9]{2}$/, { message: 'an AT7 status code is 2 capitals or digits, e.g. X6' }), z.enum(EVENT_MILESTONES))
  .superRefine((overrides, ctx) => {
    for (const [code, milestone] of Object.entries(overrides)) {
      if (milestone === 'DELIVERED' && code !== 'D1') ctx.addIssue({ code: 'custom', path: [code], message: 'only D1 (completed unloading) means delivered' });
      if (code === 'D1' && milestone !== 'DELIVERED') ctx.addIssue({ code: 'custom', path: [code], message: 'D1 (completed unloading) always means delivered' });
    }
  });
export type StatusMilestoneOverrides = z.output<typeof statusMilestoneOverridesSchema>;

/**
 * The milestone a status code means for this source, with the carrier's overrides for X12; null
 * when the code is unknown (the event is kept as INFO, and the import says so).
 */
export function milestoneOfCode(source: EventSource, code: string, overrides: StatusMilestoneOverrides = {}): EventMilestone | null {
  if (source === 'itv-json') {
    if ((ITV_EXCEPTION_MESSAGES as readonly string[]).includes(code)) return 'EXCEPTION';
    return ITV_MILESTONE_MAP[code as (typeof ITV_MILESTONES)[number]] ?? null;
  }
  const upper = code.toUpperCase();
  return overrides[upper] ?? AT7_STATUS_CODES[upper]?.milestone ?? null;
}

// ---------------------------------------------------------------------------------------------
// Events

const instant = z.string().meta({ description: 'An ISO-8601 UTC instant', format: 'date-time', example: '2026-11-24T15:30:00.000Z' });

export const eventPlaceSchema = z
  .object({
    city: z.string().nullable(),
    state: z.string().nullable(),
    zipCode: z.string().nullable(),
    countryCode: z.string().nullable(),
  })
  .meta({ description: 'Where the event happened, as the carrier named it' });
export type EventPlace = z.output<typeof eventPlaceSchema>;

export const shipmentEventSchema = onFirstUse(() =>
  z.object({
    id: z.string().meta({ description: 'Event identifier (from its digest)' }),
    shipmentId: z.string(),
    occurredAt: instant.meta({ description: "When it happened (UTC), resolved from the carrier's local date and time with the zone of the place" }),
    timeZone: z.string().nullable().meta({ description: 'IANA time zone of the place (the timeline shows local times in it); null when unknown' }),
    milestone: z.enum(EVENT_MILESTONES),
    statusCode: z.string().nullable().meta({ description: "The carrier's status code: X12 AT701, or the ITV milestone or message" }),
    reasonCode: z.string().nullable().meta({ description: "The carrier's reason code: X12 AT702, or the ITV delay reason" }),
    scac: z.string().nullable().meta({ description: 'The SCAC of the carrier that sent it' }),
    place: eventPlaceSchema.nullable(),
    source: z.enum(EVENT_SOURCES),
    messageReference: z.string().nullable().meta({ description: 'The message it came from, e.g. "tracking.edi line 14 (ISA 000000123, ST 0001)"' }),
    estimatedDeliveryAt: instant.nullable().meta({ description: "The carrier's delivery ETA the message gave, if any" }),
    note: z.string().nullable(),
    digest: z.string().meta({ description: 'SHA-256 of what the event says (not when it was received): a resent message has the same digest and is dropped' }),
    receivedAt: instant,
  }),
);
export type ShipmentEvent = z.output<typeof shipmentEventSchema>;

/** The content of an event that makes it the same event when a partner sends it again. */
export function eventIdentity(shipmentId: string, event: Pick<ShipmentEvent, 'occurredAt' | 'milestone' | 'statusCode' | 'reasonCode' | 'place' | 'estimatedDeliveryAt'>) {
  const place = event.place;
  return {
    shipmentId,
    occurredAt: event.occurredAt,
    milestone: event.milestone,
    statusCode: event.statusCode?.toUpperCase() ?? null,
    // NS (normal status) says no more than no reason at all.
    reasonCode: event.reasonCode && event.reasonCode.toUpperCase() !== 'NS' ? event.reasonCode.toUpperCase() : null,
    place: place ? [place.city?.toUpperCase() ?? null, place.state?.toUpperCase() ?? null, place.zipCode?.slice(0, 5) ?? null] : null,
    estimatedDeliveryAt: event.estimatedDeliveryAt,
  };
}

// ---------------------------------------------------------------------------------------------
// Deriving the status

const RANK: Readonly<Record<EventMilestone, number>> = {
  AT_PICKUP: 1,
  PICKED_UP: 2,
  IN_TRANSIT: 3,
  OUT_FOR_DELIVERY: 4,
  AT_DELIVERY: 5,
  EXCEPTION: 6,
  DELIVERED: 7,
  ESTIMATE: 0,
  INFO: 0,
};

/** By event time; at the same instant, the later step of the journey last (X1 and D1 stamped alike). */
export function compareEvents(a: Pick<ShipmentEvent, 'occurredAt' | 'milestone'>, b: Pick<ShipmentEvent, 'occurredAt' | 'milestone'>): number {
  return Date.parse(a.occurredAt) - Date.parse(b.occurredAt) || RANK[a.milestone] - RANK[b.milestone];
}

export interface TrackingSummary {
  trackingStatus: TrackingStatus;
  /** The event that set the status (null: NONE). */
  current: ShipmentEvent | null;
  /** The first delivery (D1 / ITV Delivered) by event time. */
  deliveredAt: string | null;
  /** When the freight left the shipper (the first PICKED_UP), null when no carrier said. */
  pickedUpAt: string | null;
  pickupEvent: ShipmentEvent | null;
  deliveryEvent: ShipmentEvent | null;
  /** The ETA of the latest event (by event time) that gave one. */
  carrierEstimatedDeliveryDate: string | null;
}

export function summarizeTracking(events: readonly ShipmentEvent[]): TrackingSummary {
  const sorted = [...events].sort(compareEvents);
  let current: ShipmentEvent | null = null;
  let delivery: ShipmentEvent | null = null;
  let pickup: ShipmentEvent | null = null;
  let eta: string | null = null;
  for (const event of sorted) {
    if (event.estimatedDeliveryAt) eta = event.estimatedDeliveryAt;
    if (!isStatusMilestone(event.milestone)) continue;
    if (event.milestone === 'DELIVERED' && !delivery) delivery = event;
    if (event.milestone === 'PICKED_UP' && !pickup) pickup = event;
    // Delivered stays delivered: a later scan (a departure, a late-keyed X6) does not undo it.
    if (!delivery || event === delivery) current = event;
  }
  return {
    trackingStatus: current ? (current.milestone as TrackingStatus) : 'NONE',
    current,
    deliveredAt: delivery?.occurredAt ?? null,
    pickedUpAt: pickup?.occurredAt ?? null,
    pickupEvent: pickup,
    deliveryEvent: delivery,
    carrierEstimatedDeliveryDate: eta,
  };
}

// ---------------------------------------------------------------------------------------------
// Late or on time

export const PUNCTUALITY = ['ON_TIME', 'LATE', 'UNKNOWN'] as const;
export const punctualitySchema = onFirstUse(() =>
  z.object({
    status: z.enum(PUNCTUALITY).meta({ description: 'Against the quoted ETA: ON_TIME, LATE, or UNKNOWN (no ETA was quoted)' }),
    basis: z
      .enum(['DELIVERED', 'OVERDUE', 'CARRIER_ETA', 'QUOTED_ETA', 'NO_ETA'])
      .meta({ description: "What the judgement rests on: the delivery, the quoted ETA having passed, the carrier's ETA, or the quoted ETA still ahead" }),
    promisedDate: z.string().nullable().meta({ description: 'The delivery day the quote promised, local to the consignee' }),
    daysLate: z.number().int().nullable().meta({ description: 'Business days after the promised day (0 when on time); null without an ETA' }),
  }),
);
export type Punctuality = z.output<typeof punctualitySchema>;

export interface PunctualityInput {
  /** The quote's ETA (delivery day at the cut-off, UTC), null without coverage. */
  quotedEta: string | null;
  destinationTimeZone: string;
  summary: Pick<TrackingSummary, 'deliveredAt' | 'carrierEstimatedDeliveryDate' | 'deliveryEvent'>;
  now: Date;
  calendar?: HolidayCalendar;
}

/** Business days from the promised day to a later day (0 when not later). */
function businessDaysLate(promised: string, actual: string, calendar: HolidayCalendar): number {
  return actual > promised ? businessDaysBetween(promised, actual, calendar) : 0;
}

/**
 * On time means delivered on or before the promised day, at the consignee's local date (a
 * delivery at 17:30 on the promised day is on time: the cut-off is the carrier's, the promise is
 * the day). Not yet delivered: late once the promised day is over, or when the carrier's latest
 * ETA falls after it.
 */
export function punctualityOf(input: PunctualityInput): Punctuality {
  const { quotedEta, destinationTimeZone, summary, now } = input;
  const calendar = input.calendar ?? DEFAULT_CARRIER_HOLIDAYS;
  if (!quotedEta) return { status: 'UNKNOWN', basis: 'NO_ETA', promisedDate: null, daysLate: null };
  const promisedDate = localDateInZone(new Date(quotedEta), destinationTimeZone);
  const judge = (basis: Punctuality['basis'], actual: string): Punctuality => {
    const daysLate = businessDaysLate(promisedDate, actual, calendar);
    return { status: actual > promisedDate ? 'LATE' : 'ON_TIME', basis, promisedDate, daysLate };
  };
  if (summary.deliveredAt) {
    // The consignee's day, as the shipment list's filter judges it.
    return judge('DELIVERED', localDateInZone(new Date(summary.deliveredAt), destinationTimeZone));
  }
  const today = localDateInZone(now, destinationTimeZone);
  if (today > promisedDate) return judge('OVERDUE', today);
  if (summary.carrierEstimatedDeliveryDate) return judge('CARRIER_ETA', localDateInZone(new Date(summary.carrierEstimatedDeliveryDate), destinationTimeZone));
  return { status: 'ON_TIME', basis: 'QUOTED_ETA', promisedDate, daysLate: 0 };
}

/** Events more than this ahead of the clock are refused: a carrier's clock or zone is wrong. */
export const MAX_EVENT_LEAD_MS = 2 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// The tracking of one shipment, as answered

export const shipmentTrackingSchema = onFirstUse(() =>
  z.object({
    shipmentId: z.string(),
    orderNumber: z.string(),
    bolNumber: z.string(),
    proNumber: z.string().nullable(),
    carrier: z.object({ name: z.string(), scac: z.string() }).nullable(),
    orderStatus: z.string().meta({ description: 'The order state (INITIALIZED, CONFIRMED, ... CANCELLED)' }),
    trackingStatus: z.enum(TRACKING_STATUSES),
    currentEvent: shipmentEventSchema.nullable().meta({ description: 'The event that set the tracking status' }),
    requiredPickupDate: z.string(),
    estimatedDeliveryDate: instant.nullable().meta({ description: "The quote's ETA (the promise)" }),
    carrierEstimatedDeliveryDate: instant.nullable().meta({ description: "The carrier's latest ETA" }),
    deliveredAt: instant.nullable(),
    destinationTimeZone: z.string(),
    punctuality: punctualitySchema,
    events: z.array(shipmentEventSchema).meta({ description: 'Every event, by event time' }),
  }),
);
export type ShipmentTracking = z.output<typeof shipmentTrackingSchema>;

/** The tracking of a shipment from its events, as GET .../events answers it. */
export function trackingOf(
  shipment: Pick<Shipment, 'id' | 'orderNumber' | 'bolNumber' | 'proNumber' | 'carrier' | 'orderStatus' | 'requiredPickupDate' | 'estimatedDeliveryDate'>,
  events: readonly ShipmentEvent[],
  destinationTimeZone: string,
  now: Date,
  calendar?: HolidayCalendar,
): ShipmentTracking {
  const summary = summarizeTracking(events);
  return {
    shipmentId: shipment.id,
    orderNumber: shipment.orderNumber,
    bolNumber: shipment.bolNumber,
    proNumber: shipment.proNumber,
    carrier: shipment.carrier ? { name: shipment.carrier.name, scac: shipment.carrier.scac } : null,
    orderStatus: shipment.orderStatus,
    trackingStatus: summary.trackingStatus,
    currentEvent: summary.current,
    requiredPickupDate: shipment.requiredPickupDate,
    estimatedDeliveryDate: shipment.estimatedDeliveryDate,
    carrierEstimatedDeliveryDate: summary.carrierEstimatedDeliveryDate,
    deliveredAt: summary.deliveredAt,
    destinationTimeZone,
    punctuality: punctualityOf({ quotedEta: shipment.estimatedDeliveryDate, destinationTimeZone, summary, now, ...(calendar ? { calendar } : {}) }),
    events: [...events].sort(compareEvents),
  };
}

// ---------------------------------------------------------------------------------------------
// The published Tracking (GET /v1/shipper/shipment/{orderNumber}/tracking)

export const publishedTrackingSchema = onFirstUse(() =>
  z.object({
    id: z.string().meta({ description: 'The order (shipment) id' }),
    orderNumber: z.string(),
    orderStatus: z.string().meta({ description: 'INITIALIZED, CONFIRMED, ACCEPTED, ASSIGNED, PICKED_UP, DELIVERED or CANCELLED' }),
    actualPickupDate: instant.optional().meta({ description: 'When the carrier picked it up (its first pick-up event); absent until then' }),
    actualDeliveryDate: instant.optional().meta({ description: 'When the carrier delivered it; absent until then' }),
    estimatedPickupDate: instant.optional().meta({ description: "The pickup day at the pickup's openTime (10:00 when not given) in its time zone; absent for a cancelled order" }),
    estimatedDeliveryDate: instant.optional().meta({ description: "The carrier's latest ETA, else the quote's; absent without coverage" }),
    trackingStatus: z.enum(TRACKING_STATUSES).meta({ description: 'Extension: where the freight is, finer than orderStatus' }),
    requiredPickupDate: z.string().meta({ description: 'Extension: the pickup day booked (YYYY-MM-DD)' }),
  }),
);
export type PublishedTracking = z.output<typeof publishedTrackingSchema>;

/**
 * A shipment's tracking in the published shape. shipper knows the pickup day, not the carrier's
 * hour: the estimated pickup is that day at the stop's opening time (the caller works out the
 * instant in the stop's zone); the day itself is also answered, as requiredPickupDate.
 */
export function publishedTrackingOf(tracking: ShipmentTracking, estimatedPickupDate?: string): PublishedTracking {
  const pickedUp = tracking.events.find((event) => PICKED_UP_OR_LATER.has(event.milestone));
  const estimated = tracking.carrierEstimatedDeliveryDate ?? tracking.estimatedDeliveryDate;
  return {
    id: tracking.shipmentId,
    orderNumber: tracking.orderNumber,
    orderStatus: tracking.orderStatus,
    ...(pickedUp ? { actualPickupDate: pickedUp.occurredAt } : {}),
    ...(tracking.deliveredAt ? { actualDeliveryDate: tracking.deliveredAt } : {}),
    ...(estimatedPickupDate && tracking.orderStatus !== 'CANCELLED' ? { estimatedPickupDate } : {}),
    ...(estimated ? { estimatedDeliveryDate: estimated } : {}),
    trackingStatus: tracking.trackingStatus,
    requiredPickupDate: tracking.requiredPickupDate,
  };
}

/** Milestones that say the freight has left the pickup (the first such event is the actual pickup). */
const PICKED_UP_OR_LATER: ReadonlySet<EventMilestone> = new Set(['PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'AT_DELIVERY', 'DELIVERED']);
