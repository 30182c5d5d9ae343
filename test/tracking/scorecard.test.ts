/**
 * The carrier scorecard from shipments, their tracking and the audited bills: on-time share, days
 * late (average over the late deliveries, worst), transit quoted vs actual, exceptions by reason,
 * disputed bills and the amount at stake per carrier.
 */
import { describe, expect, it } from 'vitest';
import type { AuditResult } from '../../src/audit/audit.js';
import type { Shipment } from '../../src/domain/schemas.js';
import { trackingOf, type EventMilestone, type ShipmentEvent, type ShipmentTracking } from '../../src/domain/tracking.js';
import { carrierScorecard } from '../../src/tracking/scorecard.js';

const NY = 'America/New_York';

function shipment(id: string, scac: string | null, eta: string, transitDays = 3): Shipment {
  return {
    id,
    orderNumber: `SO-${id}`,
    bolNumber: '06141410000000012',
    proNumber: null,
    carrier: scac ? { name: scac === 'ODFL' ? 'Old Dominion' : 'Saia', scac } : null,
    orderStatus: 'CONFIRMED',
    requiredPickupDate: '2026-11-24',
    estimatedDeliveryDate: eta,
    transitDays,
    deliveryAddress: { zipCode: '10001' },
  } as unknown as Shipment;
}

function event(shipmentId: string, occurredAt: string, milestone: EventMilestone, statusCode: string, reasonCode: string | null = null): ShipmentEvent {
  return {
    id: `${shipmentId}-${occurredAt}`,
    shipmentId,
    occurredAt,
    timeZone: NY,
    milestone,
    statusCode,
    reasonCode,
    scac: null,
    place: null,
    source: 'x12-214',
    messageReference: null,
    estimatedDeliveryAt: null,
    note: null,
    digest: occurredAt,
    receivedAt: occurredAt,
  };
}

function bill(shipmentId: string | null, scac: string, disputedInCents: number, billDate = '2026-11-28'): AuditResult {
  return {
    billKey: `${scac}-${shipmentId}-${disputedInCents}`,
    bill: { scac, billDate } as AuditResult['bill'],
    matchedBy: shipmentId ? 'PRO' : null,
    shipment: shipmentId ? ({ id: shipmentId } as AuditResult['shipment']) : null,
    quotedInCents: null,
    billedInCents: 10_000,
    disputedInCents,
    status: disputedInCents > 0 ? 'DISPUTED' : 'OK',
    findings: shipmentId ? [] : [{ code: 'UNMATCHED', amountInCents: disputedInCents, message: '' }],
    auditedAt: '2026-12-01T00:00:00.000Z',
  };
}

describe('carrier scorecard', () => {
  it('per carrier: on time, days late, transit, exceptions, disputed bills', () => {
    // Promised Monday 2026-11-30 (ETA 17:00 New York).
    const monday = '2026-11-30T22:00:00.000Z';
    const shipments = [
      shipment('a', 'ODFL', monday),
      shipment('b', 'ODFL', monday),
      shipment('c', 'ODFL', '2026-11-27T22:00:00.000Z'),
      shipment('d', 'SAIA', monday),
      shipment('e', null, monday),
    ];
    const now = new Date('2026-12-10T00:00:00Z');
    const tracked = (target: Shipment, events: ShipmentEvent[]): [string, ShipmentTracking] => [target.id, trackingOf(target, events, NY, now)];
    const trackings = new Map([
      // On time: picked up Tue 11-24, delivered Mon 11-30 at 16:00 New York time.
      tracked(shipments[0]!, [event('a', '2026-11-24T20:00:00Z', 'PICKED_UP', 'AF'), event('a', '2026-11-30T21:00:00Z', 'DELIVERED', 'D1')]),
      // Late by 2 business days (delivered Wed 12-02), after an attempted delivery.
      tracked(shipments[1]!, [
        event('b', '2026-11-25T20:00:00Z', 'PICKED_UP', 'AF'),
        event('b', '2026-11-30T20:00:00Z', 'EXCEPTION', 'AH', 'AG'),
        event('b', '2026-12-02T15:00:00Z', 'DELIVERED', 'D1'),
      ]),
      // Promised Fri 11-27, delivered Mon 11-30: 1 business day late; no pick-up event (the booked day counts).
      // ... delivered with damage noted (ITV 200-2): a delivery, and an exception by its reason.
      tracked(shipments[2]!, [event('c', '2026-11-30T15:00:00Z', 'DELIVERED', 'Delivered', '200-2')]),
      tracked(shipments[3]!, [event('d', '2026-11-26T15:00:00Z', 'EXCEPTION', 'SD', 'AO'), event('d', '2026-11-27T15:00:00Z', 'EXCEPTION', 'SD', 'AO')]),
    ]);
    const audits = [bill('a', 'ODFL', 1250), bill('b', 'ODFL', 0), bill('zzz', 'ODFL', 9_900), bill(null, 'SAIA', 4_000), bill(null, 'SAIA', 100, '2026-10-01')];
    const card = carrierScorecard(shipments, trackings, audits, { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-30T23:59:59Z') });
    expect(card.rows.map((row) => row.carrier)).toEqual(['Old Dominion (ODFL)', 'Saia (SAIA)', '(no carrier)']);
    expect(card.rows[0]).toEqual({
      carrier: 'Old Dominion (ODFL)',
      scac: 'ODFL',
      shipments: 3,
      delivered: 3,
      onTime: 1,
      late: 2,
      onTimePercent: 33.3,
      averageDaysLate: 1.5,
      worstDaysLate: 2,
      quotedTransitDays: 3,
      // a: Tue 11-24 -> Mon 11-30 is 3 (Wed, Fri, Mon); b: Wed 11-25 -> Wed 12-02 is 4; c: Tue 11-24 -> Mon 11-30 is 3.
      actualTransitDays: 3.3,
      exceptions: { 'AH AG': 1, 'Delivered 200-2': 1 },
      // The bill of a shipment of the period (a); b's bill is not disputed; zzz's shipment is not in the period.
      billsDisputed: 1,
      disputedInCents: 1250,
    });
    // A bill that matched no shipment counts for its SCAC when dated in the period.
    expect(card.rows[1]).toMatchObject({
      shipments: 1,
      delivered: 0,
      onTimePercent: null,
      averageDaysLate: null,
      exceptions: { 'SD AO': 2 },
      billsDisputed: 1,
      disputedInCents: 4000,
    });
    expect(card.rows[2]).toMatchObject({ carrier: '(no carrier)', shipments: 1, delivered: 0 });
    expect(card.total).toMatchObject({
      shipments: 5,
      delivered: 3,
      onTime: 1,
      late: 2,
      onTimePercent: 33.3,
      worstDaysLate: 2,
      exceptions: { 'SD AO': 2, 'AH AG': 1 },
      billsDisputed: 2,
      disputedInCents: 5250,
    });
  });

  it('no shipments: an empty scorecard with a zero total', () => {
    expect(carrierScorecard([], new Map(), [])).toEqual({
      rows: [],
      total: expect.objectContaining({ carrier: 'Total', shipments: 0, onTimePercent: null, averageDaysLate: null, exceptions: {} }),
    });
  });
});
