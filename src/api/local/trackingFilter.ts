/** `tracking=` of the shipment list: which shipments are delivered, moving, held up or late. */
import { localDateInZone } from '../../domain/dates.js';
import type { Shipment } from '../../domain/schemas.js';
import type { TRACKING_FILTERS } from '../../domain/statuses.js';
import type { PageRequest, StorePage } from '../../store/ports.js';
import type { ZipLookup } from '../../domain/zipCode.js';
import { destinationZone } from './tracking.js';

const MOVING = new Set(['PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'AT_DELIVERY']);

/**
 * Late as `shipper track` says it (punctualityOf), from what the shipment record keeps: delivered
 * after the promised day, or not delivered and the promised day over, or the carrier's latest ETA
 * after it (all days local to the consignee). Cancelled shipments are never late.
 */
export function isLate(shipment: Shipment, zips: ZipLookup, now: Date): boolean {
  if (!shipment.estimatedDeliveryDate || shipment.orderStatus === 'CANCELLED') return false;
  const zone = destinationZone(shipment, zips);
  const promised = localDateInZone(new Date(shipment.estimatedDeliveryDate), zone);
  const dayOf = (instant: string | Date) => localDateInZone(new Date(instant), zone);
  if (shipment.deliveredAt) return dayOf(shipment.deliveredAt) > promised;
  if (dayOf(now) > promised) return true;
  return shipment.carrierEstimatedDeliveryDate !== null && dayOf(shipment.carrierEstimatedDeliveryDate) > promised;
}

export function trackingFilterOf(filter: (typeof TRACKING_FILTERS)[number] | undefined, zips: ZipLookup, now: Date): (shipment: Shipment) => boolean {
  switch (filter) {
    case undefined:
      return () => true;
    case 'delivered':
      return (shipment) => shipment.trackingStatus === 'DELIVERED';
    case 'in-transit':
      return (shipment) => MOVING.has(shipment.trackingStatus);
    case 'exception':
      return (shipment) => shipment.trackingStatus === 'EXCEPTION';
    case 'late':
      return (shipment) => isLate(shipment, zips, now);
  }
}

/**
 * A page of the records `keep` accepts, read from the store's pages until it is full: the cursor
 * it answers is the last record looked at, so the next page goes on from there.
 */
export async function filteredPage<T extends { id: string }>(
  read: (request: PageRequest) => Promise<StorePage<T>>,
  page: PageRequest,
  keep: (record: T) => boolean,
): Promise<StorePage<T>> {
  const items: T[] = [];
  const warnings: string[] = [];
  let cursor = page.cursor;
  for (;;) {
    const batch = await read({ limit: page.limit, cursor });
    warnings.push(...batch.warnings);
    for (const [index, record] of batch.items.entries()) {
      if (keep(record)) items.push(record);
      if (items.length === page.limit) {
        const more = index < batch.items.length - 1 || batch.nextCursor !== null;
        return { items, nextCursor: more ? record.id : null, warnings };
      }
    }
    if (batch.nextCursor === null) return { items, nextCursor: null, warnings };
    cursor = batch.nextCursor;
  }
}
