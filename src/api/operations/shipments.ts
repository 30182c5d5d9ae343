/** The shipment operations: book (one or a batch, or a dry run), read, list, confirm, cancel, update. */
import { z } from 'zod';
import {
  cancelRequestSchema,
  pageSchema,
  shipmentBatchRequestSchema,
  shipmentBatchResultSchema,
  shipmentPreviewRequestSchema,
  shipmentPreviewResultSchema,
  shipmentRequestSchema,
  shipmentSchema,
  shipmentUpdateSchema,
} from '../../domain/schemas.js';
import { PUBLISHED_STOPS } from '../../domain/publishedAddress.js';
import { ORDER_STATUS_FILTERS, TRACKING_FILTERS } from '../../domain/statuses.js';
import { onFirstUse } from '../../domain/schemaOnFirstUse.js';
import { API_PREFIX } from '../wire.js';
import { createdFilters, emptyBodySchema, keyListFilter, orderedPeriod, pageQuery } from './queries.js';
import { once, operation, type OperationSpec } from './spec.js';

const shipmentListQuery = once(() =>
  z
    .strictObject({
      ...pageQuery(),
      ...createdFilters(),
      orderStatus: z
        .enum(ORDER_STATUS_FILTERS, { error: `orderStatus is one of ${ORDER_STATUS_FILTERS.join(', ')}` })
        .optional()
        .meta({ description: 'Only shipments in this order state; ACTIVE: in any state but CANCELLED' }),
      proNumber: keyListFilter('proNumber', /^[A-Za-z0-9 -]{1,24}(,[A-Za-z0-9 -]{1,24}){0,99}$/, '1234567-8,1234568-9').meta({
        description: 'Only shipments with one of these carrier PRO numbers (comma-separated, at most 100; case, spaces and dashes ignored)',
      }),
      bolNumber: keyListFilter('bolNumber', /^\d{17}(,\d{17}){0,99}$/, '06141410000000012').meta({
        description: 'Only shipments with one of these 17-digit BOL numbers (comma-separated, at most 100)',
      }),
      orderNumber: z
        .string()
        .trim()
        .regex(/^SO-?\d{1,15}$/i, { message: 'orderNumber is an order number such as SO-000123' })
        .optional()
        .meta({ description: 'Only the shipment with this order number (SO-000123; case, the dash and leading zeros ignored)' }),
      tracking: z
        .enum(TRACKING_FILTERS, { error: `tracking is one of ${TRACKING_FILTERS.join(', ')}` })
        .optional()
        .meta({
          description:
            'Where the freight is: delivered, in-transit (picked up and not yet delivered), exception, or late (delivered after the promised day, or not delivered and past it or expected after it)',
        }),
    })
    .superRefine(orderedPeriod),
);
export type ShipmentListQuery = z.output<ReturnType<typeof shipmentListQuery>>;

const shipmentPage = onFirstUse(() => pageSchema(shipmentSchema));

export const shipmentOperations = {
  createShipment: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment`,
    params: [],
    body: { id: 'ShipmentRequest', schema: shipmentRequestSchema, publishedAddresses: PUBLISHED_STOPS },
    idempotent: true,
    response: { status: 200, description: 'The created order, INITIALIZED (PUT .../confirm confirms it)', id: 'Shipment', schema: shipmentSchema },
    location: 'getShipment',
    errors: [400, 401, 404, 409, 413, 415, 422, 500],
    summary:
      'Create an order (INITIALIZED, as published), against a quote (`quoteId`) or quoting first on the shipper-to-consignee lane; then confirm it with PUT /v1/shipper/shipment/{orderNumber}/confirm',
    tags: ['Shipments'],
    extension: false,
  }),
  listShipments: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment`,
    params: [],
    get query() {
      return shipmentListQuery();
    },
    response: { status: 200, description: 'A page of shipments', id: 'ShipmentPage', schema: shipmentPage },
    errors: [400, 401, 500],
    summary: 'Shipments, newest first',
    tags: ['Shipments'],
    extension: true,
  }),
  getShipment: operation({
    method: 'GET',
    path: `${API_PREFIX}/shipment/{orderNumber}`,
    params: ['orderNumber'],
    response: { status: 200, description: 'The shipment', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 500],
    summary: 'A shipment, by its order number (SO-000123) or its id',
    tags: ['Shipments'],
    extension: false,
  }),
  confirmShipment: operation({
    method: 'PUT',
    path: `${API_PREFIX}/shipment/{orderNumber}/confirm`,
    params: ['orderNumber'],
    body: { id: 'ConfirmRequest', schema: emptyBodySchema, optional: true },
    response: { status: 200, description: 'The confirmed shipment', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 500],
    summary:
      'Confirm an order: INITIALIZED becomes CONFIRMED after the published checks (400 with every violation otherwise); an order not INITIALIZED (already confirmed, or cancelled) is the published 400 invalid_state',
    tags: ['Shipments'],
    extension: false,
  }),
  cancelShipment: operation({
    method: 'PUT',
    path: `${API_PREFIX}/shipment/{orderNumber}/cancel`,
    params: ['orderNumber'],
    body: { id: 'CancelRequest', schema: cancelRequestSchema, optional: true },
    response: { status: 200, description: 'The cancelled shipment (cancelling again answers it again)', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 413, 415, 500],
    summary:
      'Cancel an order while it is cancellable (before pickup; a 400 invalid_state after): it becomes CANCELLED; its order and BOL numbers are never given out again, its refNumber may be booked again. The body ({reason}) is an optional extension',
    tags: ['Shipments'],
    extension: false,
  }),
  updateShipment: operation({
    method: 'PATCH',
    // The published GET's path: one path, its parameter named once (an order number or an id).
    path: `${API_PREFIX}/shipment/{orderNumber}`,
    params: ['orderNumber'],
    body: { id: 'ShipmentUpdate', schema: shipmentUpdateSchema },
    response: { status: 200, description: 'The shipment as updated', id: 'Shipment', schema: shipmentSchema },
    errors: [400, 401, 404, 409, 413, 415, 500],
    summary: 'Record what the carrier assigns after booking: carrier, PRO, trailer and seal numbers (the freight cannot change; a cancelled shipment cannot be updated, 409)',
    tags: ['Shipments'],
    extension: true,
  }),
  createShipments: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-batch`,
    params: [],
    body: { id: 'ShipmentBatchRequest', schema: shipmentBatchRequestSchema },
    response: { status: 200, description: 'One outcome per item', id: 'ShipmentBatchResult', schema: shipmentBatchResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary:
      'Create up to 500 orders in order, each by the rules of POST /v1/shipper/shipment (with its own idempotencyKey); an item with `confirm: true` is confirmed in the same unit of work when it passes the confirm checks',
    description:
      'One outcome per item, in order: the shipment (with `replayed` when its idempotencyKey matched an earlier booking) or the ProblemDetail a single POST would have answered. A 400 concerns the envelope only.',
    tags: ['Shipments'],
    extension: true,
  }),
  previewShipments: operation({
    method: 'POST',
    path: `${API_PREFIX}/shipment-preview`,
    params: [],
    body: { id: 'ShipmentPreviewRequest', schema: shipmentPreviewRequestSchema },
    response: { status: 200, description: 'The quote each item would be booked on, or its ProblemDetail', id: 'ShipmentPreviewResult', schema: shipmentPreviewResultSchema },
    errors: [400, 401, 413, 415, 500],
    summary: 'Validate and price up to 500 shipment requests without booking or storing anything',
    tags: ['Shipments'],
    extension: true,
  }),
} as const satisfies Record<string, OperationSpec>;
