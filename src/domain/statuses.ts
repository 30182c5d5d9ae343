/** The statuses of quotes and shipments, zod-free so that the CLI's start-up stays light. */
export const QUOTE_STATUSES = ['OPEN', 'EXPIRED', 'BOOKED'] as const;
export const SHIPMENT_STATUSES = ['BOOKED', 'CANCELLED'] as const;
/**
 * Where the freight is, derived from the carrier's events (tracking.ts), beside the booking status.
 * In the order a shipment moves through them; EXCEPTION is off that line (attempted, delayed, refused).
 */
export const TRACKING_STATUSES = ['NONE', 'AT_PICKUP', 'PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'AT_DELIVERY', 'DELIVERED', 'EXCEPTION'] as const;
/** `shipment list --tracking`: groups of tracking statuses, and late (against the quoted ETA). */
export const TRACKING_FILTERS = ['delivered', 'in-transit', 'exception', 'late'] as const;
