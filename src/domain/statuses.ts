/** The statuses of quotes and shipments, zod-free so that the CLI's start-up stays light. */
export const QUOTE_STATUSES = ['OPEN', 'EXPIRED', 'BOOKED'] as const;
/**
 * The order states as published (Oway Shipper API): INITIALIZED when created, CONFIRMED by
 * confirm, then ACCEPTED, ASSIGNED and PICKED_UP as the carrier reports, DELIVERED; CANCELLED while
 * cancellable. IN_TRANSIT is PICKED_UP's published alias, read as PICKED_UP (orderStatus.ts).
 */
export const ORDER_STATUSES = ['INITIALIZED', 'CONFIRMED', 'ACCEPTED', 'ASSIGNED', 'PICKED_UP', 'DELIVERED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** A shipment list's state filter: a state, or ACTIVE (any state but CANCELLED). */
export const ORDER_STATUS_FILTERS = ['ACTIVE', ...ORDER_STATUSES] as const;
/**
 * Where the freight is, derived from the carrier's events (tracking.ts), beside the booking status.
 * In the order a shipment moves through them; EXCEPTION is off that line (attempted, delayed, refused).
 */
export const TRACKING_STATUSES = ['NONE', 'AT_PICKUP', 'PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'AT_DELIVERY', 'DELIVERED', 'EXCEPTION'] as const;
/** `shipment list --tracking`: groups of tracking statuses, and late (against the quoted ETA). */
export const TRACKING_FILTERS = ['delivered', 'in-transit', 'exception', 'late'] as const;
