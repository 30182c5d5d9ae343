/**
 * POST /v1/shipper/shipment/{shipmentId}/events (extension): events a client records on a
 * shipment, the carrier's message already read (the import of 214 and ITV files sends these), or
 * typed by the ops desk. Pure: zod only.
 *
 * A status code is read as an X12 AT7 code (ITV milestone text for source itv-json) and mapped
 * with the carrier's overrides; `milestone` may say it directly. DELIVERED is never taken on a
 * client's word: only a status code D1 (or the ITV Delivered milestone) means it.
 */
import { z } from 'zod';
import { SCAC_PATTERN } from './carrier.js';
import { problemDetailSchema } from './schemas.js';
import { TRACKING_STATUSES } from './statuses.js';
import { EVENT_MILESTONES, EVENT_SOURCES, shipmentEventSchema, shipmentTrackingSchema } from './tracking.js';
import { isTimeZone } from './dates.js';
import { onFirstUse } from './schemaOnFirstUse.js';

/** Limits that keep one request a carrier's message or a day's batch, not a dump. */
export const MAX_EVENTS_PER_REQUEST = 1000;

const OFFSET_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const instantWithOffset = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .regex(OFFSET_INSTANT, { message: `${field} is an ISO-8601 instant with its offset, e.g. 2026-11-24T09:30:00-06:00 or 2026-11-24T15:30:00Z`, abort: true })
    .refine((value) => !Number.isNaN(Date.parse(value)), { message: `${field} is not a real date and time` });

const shortText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { message: `${field} cannot be empty` })
    .max(max, { message: `${field} is at most ${max} characters` });

/** Known answers: an import names the same few zones thousands of times, and a refused one costs an Intl.DateTimeFormat each time. */
const zoneValidity = new Map<string, boolean>();

function isKnownZone(zone: string): boolean {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = isTimeZone(zone);
    if (zoneValidity.size < 1000) zoneValidity.set(zone, valid);
  }
  return valid;
}

export const shipmentEventInputSchema = onFirstUse(() =>
  z
    .strictObject({
      occurredAt: instantWithOffset('occurredAt').meta({ description: 'When it happened, with its offset (the local time at the place and its offset, or UTC)' }),
      statusCode: z
        .string({ error: 'statusCode must be a string' })
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,39}$/, { message: 'statusCode is an X12 AT7 status code (X6, D1, ...) or an ITV milestone (Out for Delivery)' })
        .optional()
        .meta({ description: 'The X12 AT7 status code (ITV milestone or message for source itv-json)' }),
      reasonCode: shortText('reasonCode', 20).optional().meta({ description: 'X12 AT702 reason code, or the ITV delay reason (310-1)' }),
      milestone: z
        .enum(EVENT_MILESTONES, { error: `milestone is one of ${EVENT_MILESTONES.join(', ')}` })
        .optional()
        .meta({ description: "What the event says of the freight, when not the status code's default; DELIVERED only with statusCode D1" }),
      scac: z
        .string({ error: 'scac must be a string' })
        .trim()
        .transform((value) => value.toUpperCase())
        .pipe(z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 letters, e.g. ODFL' }))
        .optional(),
      place: z
        .strictObject({
          city: shortText('city', 60).optional(),
          state: shortText('state', 3).optional(),
          zipCode: shortText('zipCode', 10).optional(),
          countryCode: shortText('countryCode', 3).optional(),
        })
        .optional(),
      timeZone: z
        .string({ error: 'timeZone must be a string' })
        .refine(isKnownZone, { message: 'timeZone is an IANA time zone such as America/Chicago' })
        .optional()
        .meta({ description: "IANA zone of the place, for local times on the timeline (default: the place's ZIP)" }),
      source: z.enum(EVENT_SOURCES, { error: `source is one of ${EVENT_SOURCES.join(', ')}` }).default('api'),
      messageReference: shortText('messageReference', 200).optional(),
      estimatedDeliveryAt: instantWithOffset('estimatedDeliveryAt').optional().meta({ description: "The carrier's delivery ETA this message gives" }),
      note: shortText('note', 500).optional(),
    })
    .superRefine((event, ctx) => {
      if (!event.statusCode && !event.milestone) ctx.addIssue({ code: 'custom', path: ['statusCode'], message: 'give a statusCode (X12 AT7, e.g. X6) or a milestone' });
      if (event.milestone === 'ESTIMATE' && !event.estimatedDeliveryAt)
        ctx.addIssue({ code: 'custom', path: ['estimatedDeliveryAt'], message: 'an ESTIMATE event gives estimatedDeliveryAt' });
    }),
);
export type ShipmentEventInput = z.output<typeof shipmentEventInputSchema>;

export const shipmentEventsRequestSchema = onFirstUse(() =>
  z.strictObject({
    events: z
      .array(shipmentEventInputSchema, { error: (issue) => (issue.input === undefined ? 'events is required' : 'events must be a list') })
      .min(1, { message: 'at least one event is required' })
      .max(MAX_EVENTS_PER_REQUEST, { message: `at most ${MAX_EVENTS_PER_REQUEST} events per request` }),
  }),
);
export type ShipmentEventsRequestInput = z.input<typeof shipmentEventsRequestSchema>;

export const shipmentEventsResultSchema = onFirstUse(() =>
  z.object({
    added: z.array(shipmentEventSchema).meta({ description: 'The events recorded by this request' }),
    duplicates: z.number().int().meta({ description: 'Events already recorded (a message sent again), dropped' }),
    tracking: shipmentTrackingSchema,
  }),
);
export type ShipmentEventsResult = z.output<typeof shipmentEventsResultSchema>;

/** POST /v1/shipper/shipment-events (extension): events of many shipments in one unit of work. */
export const MAX_BATCH_SHIPMENTS = 500;
export const MAX_BATCH_EVENTS = 10_000;

export const shipmentEventsBatchRequestSchema = onFirstUse(() =>
  z
    .strictObject({
      items: z
        .array(
          z.strictObject({
            shipmentId: z.string({ error: 'shipmentId must be a string' }).min(1, { message: 'shipmentId is required' }),
            events: shipmentEventsRequestSchema.unwrap().shape.events,
          }),
          { error: (issue) => (issue.input === undefined ? 'items is required' : 'items must be a list') },
        )
        .min(1, { message: 'at least one item is required' })
        .max(MAX_BATCH_SHIPMENTS, { message: `at most ${MAX_BATCH_SHIPMENTS} shipments per request` }),
    })
    .superRefine((batch, ctx) => {
      const total = batch.items.reduce((sum, item) => sum + item.events.length, 0);
      if (total > MAX_BATCH_EVENTS) ctx.addIssue({ code: 'custom', path: ['items'], message: `the items hold ${total} events; at most ${MAX_BATCH_EVENTS} per request` });
    })
    .meta({ description: `At most ${MAX_BATCH_SHIPMENTS} shipments and ${MAX_BATCH_EVENTS} events per request` }),
);

export const shipmentEventsBatchResultSchema = onFirstUse(() =>
  z.object({
    items: z
      .array(
        z.union([
          z.object({
            ok: z.literal(true),
            shipmentId: z.string(),
            added: z.array(shipmentEventSchema),
            duplicates: z.number().int(),
            trackingStatus: z.enum(TRACKING_STATUSES),
          }),
          z.object({ ok: z.literal(false), shipmentId: z.string(), problem: problemDetailSchema.meta({ description: 'What a single POST .../events would have answered (4xx)' }) }),
        ]),
      )
      .meta({ description: 'One outcome per item, in the order of the request' }),
  }),
);
export type ShipmentEventsBatchResult = z.output<typeof shipmentEventsBatchResultSchema>;
