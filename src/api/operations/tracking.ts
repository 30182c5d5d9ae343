/** The tracking operations: the published tracking, and the carrier events of one shipment or of many. */
import { z } from 'zod';
import { publishedTrackingSchema, shipmentTrackingSchema } from '../../domain/tracking.js';
import { shipmentEventsBatchRequestSchema, shipmentEventsBatchResultSchema, shipmentEventsRequestSchema, shipmentEventsResultSchema } from '../../domain/trackingRequests.js';
import { API_PREFIX } from '../wire.js';
import { once, operation, type OperationSpec } from './spec.js';

/** `?include=location`, which the official client sends; shipper has no GPS points to add, so it changes nothing. */
const trackingQuery = once(() =>
  z.strictObject({
    include: z.enum(['location'], { error: 'include is location' }).optional().meta({ description: 'Accepted for the official client; shipper has no location points to add' }),
  }),
);

export const trackingOperations = {
  getTracking: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}/tracking`,
    params: ['orderNumber'],
    get query() {
      return trackingQuery();
    },
    response: { status: 200, description: 'The order state and its pickup and delivery dates', id: 'Tracking', schema: publishedTrackingSchema },
    errors: [400, 401, 404, 500],
    summary: 'Track an order: its state, actual pickup and delivery, estimated delivery (the events and punctuality: GET .../events)',
    tags: ['Tracking'],
    extension: false,
    operationId: 'trackShipment',
  }),
  listShipmentEvents: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{shipmentId}/events`,
    params: ['shipmentId'],
    response: {
      status: 200,
      description: 'The tracking of the shipment: its events by event time, the tracking status, the ETAs, late or on time',
      id: 'ShipmentTracking',
      schema: shipmentTrackingSchema,
    },
    errors: [401, 404, 500],
    summary: "Where the freight is: the carrier's status events of a shipment, its tracking status, the quoted and the carrier's ETA, late or on time",
    tags: ['Tracking'],
    extension: true,
  }),
  addShipmentEvents: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment/{shipmentId}/events`,
    params: ['shipmentId'],
    body: { id: 'ShipmentEventsRequest', schema: shipmentEventsRequestSchema },
    idempotent: true,
    response: {
      status: 200,
      description: 'The events recorded, the duplicates dropped, and the tracking as it now is',
      id: 'ShipmentEventsResult',
      schema: shipmentEventsResultSchema,
    },
    errors: [400, 401, 404, 409, 413, 415, 422, 500],
    summary:
      'Record status events on a shipment (a carrier message, an ops note): an event already recorded is dropped; events more than 2 hours ahead of the clock are refused; a cancelled shipment takes none (409)',
    tags: ['Tracking'],
    extension: true,
  }),
  addShipmentEventsBatch: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-events`,
    params: [],
    body: { id: 'ShipmentEventsBatchRequest', schema: shipmentEventsBatchRequestSchema },
    response: { status: 200, description: 'One outcome per item', id: 'ShipmentEventsBatchResult', schema: shipmentEventsBatchResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Record status events on up to 500 shipments in one unit of work (a carrier file), each item by the rules of POST .../events',
    description:
      'One outcome per item, in order: the events recorded and the tracking status, or the ProblemDetail a single POST would have answered. A 400 concerns the envelope only.',
    tags: ['Tracking'],
    extension: true,
  }),
} as const satisfies Record<string, OperationSpec>;
