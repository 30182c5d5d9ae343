/**
 * The published order states (Shipment.orderStatus and Tracking.orderStatus of the Oway Shipper
 * API, issue 40) and how an order moves through them. Zod-free, as statuses.ts, so that the CLI's
 * start-up stays light.
 *
 *   INITIALIZED --confirm--> CONFIRMED --990 accept--> ACCEPTED --driver at pickup--> ASSIGNED
 *     --picked up--> PICKED_UP --delivered--> DELIVERED
 *   any state before PICKED_UP --cancel--> CANCELLED
 *
 * - confirm: only from INITIALIZED (the published 400 "order is not in INITIALIZED state"); the
 *   checks it makes are confirmChecks.ts's.
 * - cancel: the published description says "Shipments can only be cancelled when they are in a
 *   cancellable state (e.g., before pickup)". We read "before pickup" as the rule: INITIALIZED,
 *   CONFIRMED, ACCEPTED and ASSIGNED (a driver scheduled, the freight still on the dock) cancel;
 *   PICKED_UP and DELIVERED do not. Cancelling a cancelled order answers it as it is, as
 *   `shipment cancel` always has.
 * - carrier messages (214 / ITV through the tracking status, 990 for the tender) move an order
 *   forward and never back; CANCELLED and DELIVERED are terminal.
 * - IN_TRANSIT is the published alias of PICKED_UP ("Freight in transit (alias for PICKED_UP)"):
 *   read as PICKED_UP, never written.
 */
import { ORDER_STATUSES, type OrderStatus, type TRACKING_STATUSES } from './statuses.js';

export { ORDER_STATUSES, type OrderStatus };

/** The published enum's other names for a state. */
export const ORDER_STATUS_ALIASES: Readonly<Record<string, OrderStatus>> = { IN_TRANSIT: 'PICKED_UP' };

type TrackingStatus = (typeof TRACKING_STATUSES)[number];
/** The booking status records had before the order states. */
type ShipmentStatus = 'BOOKED' | 'CANCELLED';

/** A state as the published enum writes it (IN_TRANSIT read as PICKED_UP); null for any other text. */
export function readOrderStatus(text: string): OrderStatus | null {
  if ((ORDER_STATUSES as readonly string[]).includes(text)) return text as OrderStatus;
  return Object.hasOwn(ORDER_STATUS_ALIASES, text) ? ORDER_STATUS_ALIASES[text]! : null;
}

/** Where a state lies on the line; CANCELLED is off it (and never reached by a carrier's message). */
const RANK: Readonly<Record<OrderStatus, number>> = { INITIALIZED: 0, CONFIRMED: 1, ACCEPTED: 2, ASSIGNED: 3, PICKED_UP: 4, DELIVERED: 5, CANCELLED: -1 };

export function isTerminal(status: OrderStatus): boolean {
  return status === 'DELIVERED' || status === 'CANCELLED';
}

/** Before pickup (see above): the states `cancel` takes. */
export function isCancellable(status: OrderStatus): boolean {
  return status !== 'CANCELLED' && RANK[status] < RANK.PICKED_UP;
}

/** The later of two states on the line: what a carrier's message leaves. A terminal state stays. */
function forward(current: OrderStatus, reached: OrderStatus): OrderStatus {
  if (isTerminal(current)) return current;
  return RANK[reached] > RANK[current] ? reached : current;
}

export type OrderTransition = { ok: true; status: OrderStatus } | { ok: false; reason: string };

/** `PUT .../confirm`: INITIALIZED -> CONFIRMED, refused from any other state (after the checks of confirmChecks.ts pass). */
export function confirmOrder(current: OrderStatus): OrderTransition {
  if (current === 'INITIALIZED') return { ok: true, status: 'CONFIRMED' };
  return { ok: false, reason: `the order is ${current}: only an INITIALIZED order can be confirmed` };
}

/** `PUT .../cancel`: CANCELLED before pickup; a cancelled order stays as it is; refused once picked up. */
export function cancelOrder(current: OrderStatus): OrderTransition {
  if (current === 'CANCELLED' || isCancellable(current)) return { ok: true, status: 'CANCELLED' };
  return { ok: false, reason: `the order is ${current}: it cannot be cancelled once the freight is picked up` };
}

/**
 * The order state a carrier's events lead to, from the tracking status they give (tracking.ts:
 * the milestone of the latest event by event time). Each mapping:
 *
 * - NONE: no event yet, no change.
 * - AT_PICKUP (X12 AT7 X3, X8, CP: the driver arrived at, or finished loading at, the pickup):
 *   ASSIGNED, "Driver assigned and scheduled for pickup": a driver at the dock was assigned. The
 *   freight is not picked up until it leaves (AF), as the tracking status says, so not PICKED_UP.
 * - PICKED_UP, IN_TRANSIT, OUT_FOR_DELIVERY, AT_DELIVERY: PICKED_UP, "Freight picked up and in
 *   transit" (IN_TRANSIT is its alias); arriving at the consignee is not delivery (X1 is not D1).
 * - DELIVERED (AT7 D1, ITV Delivered): DELIVERED.
 * - EXCEPTION (attempted, delayed, refused, damaged, returned...): no change. It says something went
 *   wrong, not where the freight is; the tracking status keeps it beside the order state.
 *
 * Never back: a state already later stays (an older event arriving late, a status that moved to
 * EXCEPTION and back), and CANCELLED and DELIVERED are terminal. *Decision:* an INITIALIZED order
 * moves too: a carrier that says it has the freight is believed over an order never confirmed
 * (which can then no longer be confirmed, nor cancelled once picked up).
 */
export function orderStatusAfterTracking(current: OrderStatus, trackingStatus: TrackingStatus): OrderStatus {
  switch (trackingStatus) {
    case 'NONE':
    case 'EXCEPTION':
      return current;
    case 'AT_PICKUP':
      return forward(current, 'ASSIGNED');
    case 'PICKED_UP':
    case 'IN_TRANSIT':
    case 'OUT_FOR_DELIVERY':
    case 'AT_DELIVERY':
      return forward(current, 'PICKED_UP');
    case 'DELIVERED':
      return forward(current, 'DELIVERED');
  }
}

/** A carrier's answer to a tender: the X12 990's B104 (Reservation Action Code) A or D. */
export type TenderResponse = 'ACCEPTED' | 'DECLINED';

/** X12 990 B104: A "Reservation Accepted", D "Reservation Cancelled" (a decline); null for any other code. */
export function tenderResponseOfCode(code: string): TenderResponse | null {
  const upper = code.trim().toUpperCase();
  return upper === 'A' ? 'ACCEPTED' : upper === 'D' ? 'DECLINED' : null;
}

/**
 * The order state after a carrier's 990: an acceptance makes it ACCEPTED ("Carrier has accepted
 * the shipment") unless it is already further on (a 990 that arrives after the pickup scan).
 * *Decision:* a decline changes nothing: before an acceptance the order is still awaiting a
 * carrier (CONFIRMED says so), and after one the rule "never back" holds, so a carrier that
 * withdraws its acceptance leaves the order ACCEPTED until another carrier's messages move it;
 * the 990 itself is kept as an event.
 */
export function orderStatusAfterTenderResponse(current: OrderStatus, response: TenderResponse): OrderStatus {
  return response === 'ACCEPTED' ? forward(current, 'ACCEPTED') : current;
}

/**
 * A record written before the order states (status BOOKED or CANCELLED beside a tracking status):
 * BOOKED was booked and confirmed at once, so it becomes CONFIRMED, or the later state its
 * tracking status implies (orderStatusAfterTracking); CANCELLED stays CANCELLED, whatever its
 * tracking status says.
 */
export function migratedOrderStatus(oldStatus: ShipmentStatus, trackingStatus: TrackingStatus = 'NONE'): OrderStatus {
  return oldStatus === 'CANCELLED' ? 'CANCELLED' : orderStatusAfterTracking('CONFIRMED', trackingStatus);
}
