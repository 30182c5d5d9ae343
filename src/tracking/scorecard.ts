/**
 * The carrier scorecard, PURE: per carrier, over the shipments booked in a period, what only a
 * tool holding both the promise (the quote's ETA) and the carrier's events can say:
 *
 * - delivered: shipments with a delivery event (D1 or ITV Delivered);
 * - on time: delivered on or before the promised day (punctualityOf), as a share of the delivered
 *   shipments that had a promise (a lane without coverage has none);
 * - average and worst days late: business days after the promised day, over the late deliveries;
 * - transit days quoted vs actual: over the delivered shipments that had both, the quote's transit
 *   days beside the business days from the pickup (the carrier's pick-up event, else the booked
 *   pickup day) to the delivery, both at local dates;
 * - exceptions by reason: the carrier's exception events (AH, SD, A7... and ITV missed deliveries)
 *   and deliveries made with an exception (a reason on the delivery), by status and reason code;
 * - the audit's findings: the carrier's bills disputed and the amount at stake (bills of the
 *   period's shipments, and bills that matched no shipment, dated in the period, by their SCAC).
 */
import type { AuditResult } from '../audit/audit.js';
import type { Shipment } from '../domain/schemas.js';
import type { ShipmentTracking } from '../domain/tracking.js';
import { localDateInZone } from '../domain/dates.js';
import { businessDaysBetween, DEFAULT_CARRIER_HOLIDAYS, type HolidayCalendar } from '../domain/transit.js';

export interface CarrierScore {
  carrier: string;
  scac: string | null;
  shipments: number;
  delivered: number;
  onTime: number;
  late: number;
  /** Of the delivered shipments that had a promised day; null when none had. */
  onTimePercent: number | null;
  averageDaysLate: number | null;
  worstDaysLate: number | null;
  /** Averages over the delivered shipments with both figures. */
  quotedTransitDays: number | null;
  actualTransitDays: number | null;
  exceptions: Record<string, number>;
  billsDisputed: number;
  disputedInCents: number;
}

export interface Scorecard {
  rows: CarrierScore[];
  total: CarrierScore;
}

export const NO_CARRIER = '(no carrier)';

export interface Period {
  from?: number;
  to?: number;
}

const within = (instant: number, period: Period) => (period.from === undefined || instant >= period.from) && (period.to === undefined || instant <= period.to);
const round1 = (value: number) => Math.round(value * 10) / 10;
const average = (values: readonly number[]) => (values.length === 0 ? null : round1(values.reduce((sum, value) => sum + value, 0) / values.length));

interface Tally {
  carrier: string;
  scac: string | null;
  shipments: number;
  delivered: number;
  onTime: number;
  daysLate: number[];
  quoted: number[];
  actual: number[];
  exceptions: Map<string, number>;
  billsDisputed: number;
  disputedInCents: number;
}

const newTally = (carrier: string, scac: string | null): Tally => ({
  carrier,
  scac,
  shipments: 0,
  delivered: 0,
  onTime: 0,
  daysLate: [],
  quoted: [],
  actual: [],
  exceptions: new Map(),
  billsDisputed: 0,
  disputedInCents: 0,
});

function rowOf(tally: Tally): CarrierScore {
  const judged = tally.onTime + tally.daysLate.length;
  return {
    carrier: tally.carrier,
    scac: tally.scac,
    shipments: tally.shipments,
    delivered: tally.delivered,
    onTime: tally.onTime,
    late: tally.daysLate.length,
    onTimePercent: judged === 0 ? null : round1((tally.onTime / judged) * 100),
    averageDaysLate: average(tally.daysLate),
    worstDaysLate: tally.daysLate.length === 0 ? null : Math.max(...tally.daysLate),
    quotedTransitDays: average(tally.quoted),
    actualTransitDays: average(tally.actual),
    exceptions: Object.fromEntries([...tally.exceptions].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    billsDisputed: tally.billsDisputed,
    disputedInCents: tally.disputedInCents,
  };
}

/** "AH AG" (status and reason), "SD", "Missed delivery 310-1": what went wrong and why. */
export function exceptionReasonOf(event: { statusCode: string | null; reasonCode: string | null }): string {
  const reason = event.reasonCode && event.reasonCode !== 'NS' ? event.reasonCode : null;
  return [event.statusCode ?? 'EXCEPTION', reason].filter(Boolean).join(' ');
}

/**
 * @param shipments the booked shipments of the period (cancelled ones are left out: nothing moved)
 * @param trackings the tracking of those of them that have events, by shipment id
 * @param audits every audited bill
 */
export function carrierScorecard(
  shipments: readonly Shipment[],
  trackings: ReadonlyMap<string, ShipmentTracking>,
  audits: readonly AuditResult[],
  period: Period = {},
  calendar: HolidayCalendar = DEFAULT_CARRIER_HOLIDAYS,
): Scorecard {
  const tallies = new Map<string, Tally>();
  const tallyOf = (scac: string | null, name: string | null) => {
    const key = scac ?? NO_CARRIER;
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = newTally(scac ? `${name ?? scac} (${scac})` : NO_CARRIER, scac)));
    return tally;
  };
  const booked = shipments.filter((shipment) => shipment.orderStatus !== 'CANCELLED');
  for (const shipment of booked) {
    const tracking = trackings.get(shipment.id);
    const scac = shipment.carrier?.scac ?? tracking?.events.find((event) => event.scac)?.scac ?? null;
    const tally = tallyOf(scac, shipment.carrier?.name ?? null);
    tally.shipments += 1;
    if (!tracking) continue;
    for (const event of tracking.events) {
      // A delivery made with an exception (a D1 with a reason, ITV Delivered with 200-2 damage) counts too.
      const deliveredWithException = event.milestone === 'DELIVERED' && event.reasonCode !== null && event.reasonCode !== 'NS';
      if (event.milestone !== 'EXCEPTION' && !deliveredWithException) continue;
      const reason = exceptionReasonOf(event);
      tally.exceptions.set(reason, (tally.exceptions.get(reason) ?? 0) + 1);
    }
    if (!tracking.deliveredAt) continue;
    tally.delivered += 1;
    const { punctuality } = tracking;
    if (punctuality.status === 'ON_TIME') tally.onTime += 1;
    else if (punctuality.status === 'LATE') tally.daysLate.push(punctuality.daysLate ?? 0);
    const pickup = tracking.events.find((event) => event.milestone === 'PICKED_UP');
    const pickedUpOn = pickup ? localDateInZone(new Date(pickup.occurredAt), pickup.timeZone ?? tracking.destinationTimeZone) : shipment.requiredPickupDate;
    const deliveredOn = localDateInZone(new Date(tracking.deliveredAt), tracking.destinationTimeZone);
    if (shipment.transitDays !== null && deliveredOn >= pickedUpOn) {
      tally.quoted.push(shipment.transitDays);
      tally.actual.push(businessDaysBetween(pickedUpOn, deliveredOn, calendar));
    }
  }
  const periodShipments = new Map(booked.map((shipment) => [shipment.id, shipment]));
  for (const audit of audits) {
    if (audit.status !== 'DISPUTED') continue;
    const matched = audit.shipment && !audit.findings.some((finding) => finding.code === 'UNMATCHED') ? audit.shipment : null;
    let tally: Tally;
    if (matched) {
      const shipment = periodShipments.get(matched.id);
      if (!shipment) continue;
      tally = tallyOf(shipment.carrier?.scac ?? audit.bill.scac, shipment.carrier?.name ?? null);
    } else {
      const dated = Date.parse(audit.bill.billDate ? `${audit.bill.billDate}T12:00:00Z` : audit.auditedAt);
      if (!within(dated, period)) continue;
      tally = tallyOf(audit.bill.scac, null);
    }
    tally.billsDisputed += 1;
    tally.disputedInCents += audit.disputedInCents;
  }
  const rows = [...tallies.values()].sort((a, b) => (a.scac === null ? 1 : 0) - (b.scac === null ? 1 : 0) || b.shipments - a.shipments || a.carrier.localeCompare(b.carrier));
  const total = newTally('Total', null);
  for (const tally of rows) {
    total.shipments += tally.shipments;
    total.delivered += tally.delivered;
    total.onTime += tally.onTime;
    total.daysLate.push(...tally.daysLate);
    total.quoted.push(...tally.quoted);
    total.actual.push(...tally.actual);
    for (const [reason, count] of tally.exceptions) total.exceptions.set(reason, (total.exceptions.get(reason) ?? 0) + count);
    total.billsDisputed += tally.billsDisputed;
    total.disputedInCents += tally.disputedInCents;
  }
  return { rows: rows.map(rowOf), total: rowOf(total) };
}
