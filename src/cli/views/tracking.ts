/**
 * How tracking looks: a shipment's timeline (each event at its local time where it happened), the
 * current milestone, the promised and the carrier's ETA, late or on time; and the import's summary.
 */
import type { ShipmentEvent, ShipmentTracking } from '../../domain/tracking.js';
import type { SetAside, TrackImportReport } from '../../tracking/importMessages.js';
import { formatDate, formatInstant, plural, type IO } from '../output.js';

/** As in domain/tracking.ts (not imported: this view stays light at start-up). */
const AT7_MEANINGS: Readonly<Record<string, string>> = {
  X3: 'Arrived at pick-up location',
  X8: 'Arrived at pick-up dock',
  CP: 'Completed loading at pick-up',
  AF: 'Departed pick-up location',
  X4: 'Arrived at terminal',
  P1: 'Departed terminal',
  X6: 'En route to delivery',
  AJ: 'Tendered for delivery',
  X1: 'Arrived at delivery location',
  X5: 'Arrived at delivery dock',
  D1: 'Delivered (unloading completed)',
  AH: 'Attempted delivery',
  SD: 'Shipment delayed',
  AP: 'Delivery not completed',
  A7: 'Refused by consignee',
  A9: 'Shipment damaged',
  AG: 'Estimated delivery',
  X2: 'Estimated arrival at consignee',
  J1: 'Delivered to connecting line',
  R1: 'Received from prior carrier',
  AV: 'Available for delivery',
};

export const trackingStatusText = (status: string): string => status.replace(/_/g, ' ').toLowerCase();

function statusText(event: ShipmentEvent): string {
  const code = event.statusCode;
  const meaning = code && event.source !== 'itv-json' ? AT7_MEANINGS[code] : undefined;
  const head = code ? (meaning ? `${code} ${meaning}` : code) : trackingStatusText(event.milestone);
  return event.reasonCode && event.reasonCode !== 'NS' ? `${head} (reason ${event.reasonCode})` : head;
}

function placeText(event: ShipmentEvent): string {
  const place = event.place;
  if (!place) return '';
  return [place.city, place.state].filter(Boolean).join(', ') || place.zipCode || '';
}

/** The event's time where it happened (its place's zone; UTC when unknown). */
const localTime = (event: ShipmentEvent) => formatInstant(event.occurredAt, event.timeZone ?? 'UTC');

export function punctualityText(tracking: ShipmentTracking): string {
  const { punctuality } = tracking;
  if (punctuality.status === 'UNKNOWN') return 'no ETA was quoted (lane without coverage): late or on time cannot be said';
  const days = punctuality.daysLate ?? 0;
  const late = `LATE by ${plural(days, 'business day')}`;
  switch (punctuality.basis) {
    case 'DELIVERED':
      return punctuality.status === 'LATE' ? `delivered ${late}` : 'delivered on time';
    case 'OVERDUE':
      return `${late}: not delivered and the promised day is past`;
    case 'CARRIER_ETA':
      return punctuality.status === 'LATE' ? `running late: the carrier's ETA is ${plural(days, 'business day')} after the promised day` : "on time by the carrier's ETA";
    default:
      return 'on time so far';
  }
}

export function printTracking(io: IO, tracking: ShipmentTracking): void {
  const carrier = tracking.carrier ? `${tracking.carrier.name} (${tracking.carrier.scac})` : 'no carrier recorded';
  // The carrier's words (a name, a place) may be long: wrapped under the value on a terminal, never cut.
  io.field(`${io.color.bold(tracking.orderNumber)}  BOL ${tracking.bolNumber}  PRO ${tracking.proNumber ?? '-'}  ${carrier}`, 2);
  const current = tracking.currentEvent;
  const status = tracking.orderStatus === 'CANCELLED' ? `${trackingStatusText(tracking.trackingStatus)} (booking cancelled)` : trackingStatusText(tracking.trackingStatus);
  io.field(
    `Tracking:     ${io.color.bold(status.toUpperCase())}${current ? `  ${statusText(current)}${placeText(current) ? `, ${placeText(current)}` : ''}, ${localTime(current)}` : '  no carrier event yet'}`,
    14,
  );
  const pickup = tracking.events.find((event) => event.milestone === 'PICKED_UP');
  io.out(
    `Picked up:    ${pickup ? `${localTime(pickup)} (booked for ${formatDate(tracking.requiredPickupDate)})` : `not yet said by the carrier (booked for ${formatDate(tracking.requiredPickupDate)})`}`,
  );
  const zone = tracking.destinationTimeZone;
  io.out(`Promised:     ${tracking.estimatedDeliveryDate ? `${formatInstant(tracking.estimatedDeliveryDate, zone)} (the quote's ETA)` : 'none (lane without coverage)'}`);
  io.out(`Carrier ETA:  ${tracking.carrierEstimatedDeliveryDate ? formatInstant(tracking.carrierEstimatedDeliveryDate, zone) : '-'}`);
  const delivery = tracking.events.find((event) => event.milestone === 'DELIVERED');
  if (tracking.deliveredAt) io.out(`Delivered:    ${formatInstant(tracking.deliveredAt, delivery?.timeZone ?? zone)}`);
  const verdict = punctualityText(tracking);
  io.out(`Punctuality:  ${tracking.punctuality.status === 'LATE' ? io.color.red(verdict) : verdict}`);
  if (tracking.events.length === 0) return;
  io.out();
  io.out(
    io.fittedTable(
      ['When (local time there)', 'Place', 'Status', 'Source'],
      tracking.events.map((event) => [localTime(event), placeText(event), statusText(event), event.source]),
      [{ drop: 3 }, { shrink: [2], min: 16 }, { shrink: [1], min: 10 }],
    ),
  );
}

function setAsideLines(io: IO, title: string, items: readonly SetAside[]): void {
  if (items.length === 0) return;
  io.error(`${title}:`);
  for (const item of items.slice(0, 50)) io.error(`  ${item.reference}: ${item.keys}: ${item.reason}`);
  if (items.length > 50) io.error(`  ... and ${items.length - 50} more (--json lists them all)`);
}

export function printTrackImport(io: IO, report: TrackImportReport): void {
  report.issues.forEach((issue) => io.error(`${issue.file} line ${issue.line}: ${issue.message}`));
  setAsideLines(io, 'Unmatched messages (no shipment found)', report.unmatched);
  setAsideLines(io, 'Refused messages', report.refused);
  io.info(
    `${plural(report.messages, 'status message')} in ${plural(report.files, 'file')}: ${plural(report.added, 'event')} recorded on ${plural(report.shipments, 'shipment')}, ${plural(report.duplicates, 'duplicate')} dropped, ${report.unmatched.length} unmatched, ${report.refused.length} refused, ${plural(report.issues.length, 'unreadable message')}`,
  );
}
