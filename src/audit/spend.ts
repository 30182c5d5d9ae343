/**
 * Freight spend, PURE: the booked shipments of a period and the audited bills, grouped by lane,
 * carrier or month: shipments, weight, quoted total, billed total (the bills audited against
 * those shipments) and the amount disputed. Bills that matched no shipment (or a cancelled one)
 * are money asked for all the same: they are a group of their own, "(no shipment)", counted in
 * the period of their bill date (else the day they were audited). So is the bill of a shipment
 * cancelled after the audit, in the period its shipment was booked in, with its audited figures.
 */
import { freightTotals } from '../domain/freightTotals.js';
import type { Shipment } from '../domain/schemas.js';
import type { AuditResult } from './audit.js';

export const SPEND_GROUPINGS = ['lane', 'carrier', 'month'] as const;
export type SpendGrouping = (typeof SPEND_GROUPINGS)[number];

export interface SpendRow {
  group: string;
  shipments: number;
  poundsWeight: number;
  quotedInCents: number;
  bills: number;
  billedInCents: number;
  disputedInCents: number;
}

export interface SpendReport {
  by: SpendGrouping;
  rows: SpendRow[];
  total: SpendRow;
}

export const NO_SHIPMENT_GROUP = '(no shipment)';
export const NO_CARRIER_GROUP = '(no carrier)';

export interface Period {
  /** Instants in ms, inclusive. */
  from?: number;
  to?: number;
}

const within = (instant: number, period: Period) => (period.from === undefined || instant >= period.from) && (period.to === undefined || instant <= period.to);

function groupOf(shipment: Shipment, by: SpendGrouping, billedScac: string | undefined): string {
  if (by === 'month') return shipment.createdAt.slice(0, 7);
  if (by === 'lane') return `${shipment.pickupAddress.city}, ${shipment.pickupAddress.state} → ${shipment.deliveryAddress.city}, ${shipment.deliveryAddress.state}`;
  if (shipment.carrier) return `${shipment.carrier.name} (${shipment.carrier.scac})`;
  return billedScac ?? NO_CARRIER_GROUP;
}

const emptyRow = (group: string): SpendRow => ({ group, shipments: 0, poundsWeight: 0, quotedInCents: 0, bills: 0, billedInCents: 0, disputedInCents: 0 });

/**
 * @param shipments the booked shipments of the period (cancelled ones are left out: nothing moved)
 * @param audits every audited bill (one per bill)
 */
export function spendReport(shipments: readonly Shipment[], audits: readonly AuditResult[], by: SpendGrouping, period: Period = {}): SpendReport {
  const billsByShipment = new Map<string, AuditResult[]>();
  const unmatched: AuditResult[] = [];
  const booked = new Map(shipments.filter((shipment) => shipment.orderStatus !== 'CANCELLED').map((shipment) => [shipment.id, shipment]));
  for (const audit of audits) {
    const matched = audit.shipment && !audit.findings.some((finding) => finding.code === 'UNMATCHED') ? audit.shipment.id : undefined;
    if (matched !== undefined) {
      if (booked.has(matched)) billsByShipment.set(matched, [...(billsByShipment.get(matched) ?? []), audit]);
      // Booked in the period but no longer among its booked shipments: cancelled after its bill
      // was audited. The bill was still sent: it counts with the bills that have no shipment.
      else if (within(Date.parse(audit.shipment!.createdAt), period)) unmatched.push(audit);
      continue;
    }
    const dated = Date.parse(audit.bill.billDate ? `${audit.bill.billDate}T12:00:00Z` : audit.auditedAt);
    if (within(dated, period)) unmatched.push(audit);
  }

  const rows = new Map<string, SpendRow>();
  const add = (group: string, shipment: Shipment | undefined, bills: readonly AuditResult[]) => {
    const row = rows.get(group) ?? emptyRow(group);
    if (shipment) {
      row.shipments += 1;
      row.poundsWeight += freightTotals(shipment.orderComponents).poundsWeight;
      row.quotedInCents += shipment.totalPriceInCents;
    }
    for (const bill of bills) {
      row.bills += 1;
      row.billedInCents += bill.billedInCents;
      row.disputedInCents += bill.disputedInCents;
    }
    rows.set(group, row);
  };
  for (const shipment of booked.values()) {
    const bills = billsByShipment.get(shipment.id) ?? [];
    add(groupOf(shipment, by, bills.find((bill) => bill.bill.scac)?.bill.scac ?? undefined), shipment, bills);
  }
  const sorted = [...rows.values()].sort((a, b) => (by === 'month' ? a.group.localeCompare(b.group) : b.quotedInCents - a.quotedInCents || a.group.localeCompare(b.group)));
  if (unmatched.length > 0) {
    const row = emptyRow(NO_SHIPMENT_GROUP);
    for (const bill of unmatched) {
      row.bills += 1;
      row.billedInCents += bill.billedInCents;
      row.disputedInCents += bill.disputedInCents;
    }
    sorted.push(row);
  }
  const total = sorted.reduce((sum, row) => {
    sum.shipments += row.shipments;
    sum.poundsWeight += row.poundsWeight;
    sum.quotedInCents += row.quotedInCents;
    sum.bills += row.bills;
    sum.billedInCents += row.billedInCents;
    sum.disputedInCents += row.disputedInCents;
    return sum;
  }, emptyRow('Total'));
  // Weights summed in hundredths print as people add them (0.1 + 0.2 = 0.3).
  for (const row of [...sorted, total]) row.poundsWeight = Math.round(row.poundsWeight * 100) / 100;
  return { by, rows: sorted, total };
}
