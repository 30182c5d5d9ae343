/** The statuses of quotes and shipments, zod-free so that the CLI's start-up stays light. */
export const QUOTE_STATUSES = ['OPEN', 'EXPIRED', 'BOOKED'] as const;
export const SHIPMENT_STATUSES = ['BOOKED', 'CANCELLED'] as const;
