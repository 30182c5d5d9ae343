/**
 * The pure rules of tracking: the milestone of each code (and a carrier's overrides), the tracking
 * status from events (latest by event time, never demoted, delivered only from D1/Delivered),
 * late or on time against the quoted ETA, local times across DST, and the ITV JSON shape.
 */
import { describe, expect, it } from 'vitest';
import { carrierProfilesSchema } from '../../src/domain/carrierProfile.js';
import { instantOf, parseUtcOffset, x12Time, zoneOfFixedOffset, zoneOfX12TimeCode } from '../../src/domain/eventTime.js';
import { milestoneOfCode, punctualityOf, statusMilestoneOverridesSchema, summarizeTracking, type EventMilestone, type ShipmentEvent } from '../../src/domain/tracking.js';
import { readItvStatusMessages } from '../../src/edi/itv.js';

let serial = 0;
function event(occurredAt: string, milestone: EventMilestone, statusCode: string | null = null, extra: Partial<ShipmentEvent> = {}): ShipmentEvent {
  serial += 1;
  return {
    id: `ev_${serial}`,
    shipmentId: 'sh_1',
    occurredAt,
    timeZone: 'America/New_York',
    milestone,
    statusCode,
    reasonCode: null,
    scac: 'ODFL',
    place: null,
    source: 'x12-214',
    messageReference: null,
    estimatedDeliveryAt: null,
    note: null,
    digest: `d${serial}`,
    receivedAt: '2026-12-01T00:00:00.000Z',
    ...extra,
  };
}

describe('status codes and milestones', () => {
  it('maps the AT7 codes of an LTL move, ITV milestones, and nothing it does not know', () => {
    const codes = ['X3', 'AF', 'X4', 'P1', 'X6', 'X1', 'D1', 'AH', 'SD', 'AG'];
    expect(codes.map((code) => milestoneOfCode('x12-214', code))).toEqual([
      'AT_PICKUP',
      'PICKED_UP',
      'IN_TRANSIT',
      'IN_TRANSIT',
      'OUT_FOR_DELIVERY',
      'AT_DELIVERY',
      'DELIVERED',
      'EXCEPTION',
      'EXCEPTION',
      'ESTIMATE',
    ]);
    expect(milestoneOfCode('x12-214', 'x6')).toBe('OUT_FOR_DELIVERY');
    expect(milestoneOfCode('x12-214', 'ZZ')).toBeNull();
    expect(['Picked-up', 'In Transit', 'Interline', 'Out for Delivery', 'Delivered', 'Missed delivery'].map((code) => milestoneOfCode('itv-json', code))).toEqual([
      'PICKED_UP',
      'IN_TRANSIT',
      'IN_TRANSIT',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
      'EXCEPTION',
    ]);
    // An ITV milestone is not an X12 code, nor the other way round.
    expect(milestoneOfCode('itv-json', 'D1')).toBeNull();
  });

  it("a carrier's overrides win over the table; only D1 means delivered, always", () => {
    expect(milestoneOfCode('x12-214', 'X6', { X6: 'IN_TRANSIT' })).toBe('IN_TRANSIT');
    expect(milestoneOfCode('x12-214', 'ZZ', { ZZ: 'EXCEPTION' })).toBe('EXCEPTION');
    expect(statusMilestoneOverridesSchema.safeParse({ X1: 'DELIVERED' }).success).toBe(false);
    expect(statusMilestoneOverridesSchema.safeParse({ D1: 'AT_DELIVERY' }).success).toBe(false);
    expect(statusMilestoneOverridesSchema.safeParse({ x6: 'IN_TRANSIT' }).success).toBe(false);
    const profiles = carrierProfilesSchema.safeParse({ RLCA: { statusMilestones: { X6: 'IN_TRANSIT' } } });
    expect(profiles.success && profiles.data.RLCA?.statusMilestones).toEqual({ X6: 'IN_TRANSIT' });
  });
});

describe('the tracking status from events', () => {
  it('is NONE without events, and the latest by event time, whatever order they arrived in', () => {
    expect(summarizeTracking([]).trackingStatus).toBe('NONE');
    const x6 = event('2026-11-30T12:15:00Z', 'OUT_FOR_DELIVERY', 'X6');
    const p1 = event('2026-11-25T10:40:00Z', 'IN_TRANSIT', 'P1');
    const af = event('2026-11-24T20:10:00Z', 'PICKED_UP', 'AF');
    // P1 and AF arrive after X6 (a carrier's backlog): X6 stays the status.
    const summary = summarizeTracking([x6, p1, af]);
    expect(summary.trackingStatus).toBe('OUT_FOR_DELIVERY');
    expect(summary.current).toBe(x6);
    expect(summary.pickedUpAt).toBe(af.occurredAt);
  });

  it('X1 is arrival, not delivery; D1 delivers, and stays delivered after a later scan', () => {
    const x1 = event('2026-11-30T15:02:00Z', 'AT_DELIVERY', 'X1');
    expect(summarizeTracking([x1]).trackingStatus).toBe('AT_DELIVERY');
    const d1 = event('2026-11-30T15:45:00Z', 'DELIVERED', 'D1');
    const lateScan = event('2026-11-30T18:00:00Z', 'OUT_FOR_DELIVERY', 'X6');
    const summary = summarizeTracking([lateScan, d1, x1]);
    expect(summary).toMatchObject({ trackingStatus: 'DELIVERED', deliveredAt: d1.occurredAt });
  });

  it('an attempted delivery is an exception until the next move; an ETA or an unknown code moves nothing, the latest ETA is kept', () => {
    const ah = event('2026-11-30T16:00:00Z', 'EXCEPTION', 'AH');
    const eta1 = event('2026-11-30T17:00:00Z', 'ESTIMATE', 'AG', { estimatedDeliveryAt: '2026-12-01T17:00:00.000Z' });
    const info = event('2026-11-30T17:30:00Z', 'INFO', 'ZZ');
    expect(summarizeTracking([ah, eta1, info])).toMatchObject({ trackingStatus: 'EXCEPTION', carrierEstimatedDeliveryDate: '2026-12-01T17:00:00.000Z' });
    const x6 = event('2026-12-01T12:00:00Z', 'OUT_FOR_DELIVERY', 'X6');
    const olderEta = event('2026-11-29T12:00:00Z', 'ESTIMATE', 'AG', { estimatedDeliveryAt: '2026-11-30T22:00:00.000Z' });
    expect(summarizeTracking([ah, eta1, info, x6, olderEta])).toMatchObject({ trackingStatus: 'OUT_FOR_DELIVERY', carrierEstimatedDeliveryDate: '2026-12-01T17:00:00.000Z' });
  });

  it('at the same instant the later step wins (X1 and D1 keyed in the same minute)', () => {
    const at = '2026-11-30T15:45:00Z';
    expect(summarizeTracking([event(at, 'DELIVERED', 'D1'), event(at, 'AT_DELIVERY', 'X1')]).trackingStatus).toBe('DELIVERED');
  });
});

describe('late or on time against the quoted ETA', () => {
  // Promised Monday 2026-11-30 at 17:00 in New York.
  const quotedEta = '2026-11-30T22:00:00.000Z';
  const zone = 'America/New_York';
  const judge = (summary: { deliveredAt?: string | null; carrierEstimatedDeliveryDate?: string | null }, now = '2026-11-30T12:00:00Z') =>
    punctualityOf({
      quotedEta,
      destinationTimeZone: zone,
      summary: { deliveredAt: null, carrierEstimatedDeliveryDate: null, deliveryEvent: null, ...summary },
      now: new Date(now),
    });

  it('delivered on the promised day is on time, even after the 17:00 cut-off', () => {
    expect(judge({ deliveredAt: '2026-11-30T22:30:00.000Z' })).toEqual({ status: 'ON_TIME', basis: 'DELIVERED', promisedDate: '2026-11-30', daysLate: 0 });
    expect(judge({ deliveredAt: '2026-11-27T15:00:00.000Z' })).toMatchObject({ status: 'ON_TIME', daysLate: 0 });
  });

  it('late by business days: the promised Friday to Monday is 1 day late, and 00:30 local on Tuesday is the Tuesday', () => {
    const friday = punctualityOf({
      quotedEta: '2026-12-04T22:00:00.000Z',
      destinationTimeZone: zone,
      summary: { deliveredAt: '2026-12-07T15:00:00.000Z', carrierEstimatedDeliveryDate: null, deliveryEvent: null },
      now: new Date('2026-12-08T00:00:00Z'),
    });
    expect(friday).toEqual({ status: 'LATE', basis: 'DELIVERED', promisedDate: '2026-12-04', daysLate: 1 });
    // 05:30Z on Tuesday is 00:30 in New York: Tuesday there, 1 business day late.
    expect(judge({ deliveredAt: '2026-12-01T05:30:00.000Z' })).toMatchObject({ status: 'LATE', daysLate: 1 });
  });

  it('not delivered: on time until the promised day is over, late after it or when the carrier expects it later', () => {
    expect(judge({})).toEqual({ status: 'ON_TIME', basis: 'QUOTED_ETA', promisedDate: '2026-11-30', daysLate: 0 });
    expect(judge({ carrierEstimatedDeliveryDate: '2026-12-01T17:00:00.000Z' })).toEqual({ status: 'LATE', basis: 'CARRIER_ETA', promisedDate: '2026-11-30', daysLate: 1 });
    expect(judge({}, '2026-12-02T15:00:00Z')).toEqual({ status: 'LATE', basis: 'OVERDUE', promisedDate: '2026-11-30', daysLate: 2 });
    expect(
      punctualityOf({ quotedEta: null, destinationTimeZone: zone, summary: { deliveredAt: null, carrierEstimatedDeliveryDate: null, deliveryEvent: null }, now: new Date() }),
    ).toEqual({
      status: 'UNKNOWN',
      basis: 'NO_ETA',
      promisedDate: null,
      daysLate: null,
    });
  });
});

describe('local times of events', () => {
  it('reads a local time in the zone of the place, across DST changes', () => {
    // Chicago: CDT (UTC-5) until 2026-11-01 02:00, CST (UTC-6) after.
    expect(instantOf({ date: '2026-10-31', time: '09:30' }, { timeZone: 'America/Chicago' }).toISOString()).toBe('2026-10-31T14:30:00.000Z');
    expect(instantOf({ date: '2026-11-02', time: '09:30' }, { timeZone: 'America/Chicago' }).toISOString()).toBe('2026-11-02T15:30:00.000Z');
    // 01:30 happens twice on 2026-11-01: the earlier (CDT) instant.
    expect(instantOf({ date: '2026-11-01', time: '01:30' }, { timeZone: 'America/Chicago' }).toISOString()).toBe('2026-11-01T06:30:00.000Z');
    // 02:30 on 2026-03-08 does not exist in Chicago: read forward, as 03:30 CDT.
    expect(instantOf({ date: '2026-03-08', time: '02:30' }, { timeZone: 'America/Chicago' }).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    // Phoenix keeps MST all year.
    expect(instantOf({ date: '2026-07-01', time: '16:30:15' }, { timeZone: 'America/Phoenix' }).toISOString()).toBe('2026-07-01T23:30:15.000Z');
    expect(instantOf({ date: '2026-11-25', time: null }, { offsetMinutes: -300 }).toISOString()).toBe('2026-11-25T17:00:00.000Z');
  });

  it('X12 time codes and ITV offsets', () => {
    expect(zoneOfX12TimeCode('LT')).toBe('local');
    expect(zoneOfX12TimeCode('')).toBe('local');
    expect(zoneOfX12TimeCode('ct')).toEqual({ timeZone: 'America/Chicago' });
    expect(zoneOfX12TimeCode('ES')).toEqual({ offsetMinutes: -300 });
    expect(zoneOfX12TimeCode('UT')).toEqual({ offsetMinutes: 0 });
    expect(zoneOfX12TimeCode('Q9')).toBeUndefined();
    expect(['-5', '-05:00', 'UTC-5', '-0500', '+5:30', '0', 'east', '-15', '+05:75'].map(parseUtcOffset)).toEqual([
      -300,
      -300,
      -300,
      -300,
      330,
      0,
      undefined,
      undefined,
      undefined,
    ]);
    expect([zoneOfFixedOffset(-300), zoneOfFixedOffset(0), zoneOfFixedOffset(330)]).toEqual(['Etc/GMT+5', 'UTC', null]);
    expect([x12Time('0930'), x12Time('093015'), x12Time('09301599'), x12Time('2460'), x12Time('930')]).toEqual(['09:30', '09:30:15', '09:30:15', null, null]);
  });
});

describe('ITV notifications', () => {
  it('reads a list of DeliveryUpdate and DeliveryInformation notifications', () => {
    const file = JSON.stringify({
      notifications: [
        {
          proNumber: '778812',
          carrierSCAC: 'saia',
          shipmentReferenceNumbers: {
            bolNumber: '06141410000000029',
            poNumber: 'PO-9001',
            ShipmentID: null,
            MasterBOL: null,
            AdditionalReferences: null,
            trailerNumber: null,
            QuoteID: null,
          },
          shipmentMilestoneStatus: 'Out for Delivery',
          eventDateTime: '2026-11-30T07:05:00',
          TimeZoneOfShipment: '-7',
          UpdatedETA: '2026-11-30',
          notificationMessage: 'On the truck',
          terminalAddress: { TerminalID: 'DEN', City: 'Denver', State: 'co', PostalCode: '80216', Country: 'USA' },
        },
        { proNumber: '778812', deliveryInformation_messages: 'Missed delivery', delayedReasonCode: '330-1', eventDateTime: '2026-11-30T16:45:00-07:00' },
      ],
    });
    const read = readItvStatusMessages(file, 'itv.json');
    expect(read.issues).toEqual([]);
    expect(read.messages[0]).toMatchObject({
      source: 'itv-json',
      reference: 'itv.json notification 1',
      keys: { proNumber: '778812', scac: 'SAIA', bolNumber: '06141410000000029', references: ['PO-9001'] },
      statusCode: 'Out for Delivery',
      stamp: { date: '2026-11-30', time: '07:05:00' },
      zone: { offsetMinutes: -420 },
      place: { city: 'Denver', state: 'CO', zipCode: '80216', countryCode: 'USA' },
      eta: { stamp: { date: '2026-11-30', time: null }, zone: { offsetMinutes: -420 } },
      note: 'On the truck',
    });
    expect(read.messages[1]).toMatchObject({ statusCode: 'Missed delivery', reasonCode: '330-1', zone: { offsetMinutes: -420 } });
  });

  it('names what is wrong in each notification and reads the others; a file that is not JSON', () => {
    const read = readItvStatusMessages(
      JSON.stringify([
        { proNumber: '1', shipmentMilestoneStatus: 'Lost in space', eventDateTime: 'yesterday' },
        { proNumber: '2', shipmentMilestoneStatus: 'Delivered', eventDateTime: '2026-11-30T10:00' },
        {},
      ]),
      'bad.json',
    );
    expect(read.messages.map((message) => message.keys.proNumber)).toEqual(['2']);
    expect(read.issues.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/^notification 1, shipmentMilestoneStatus: shipmentMilestoneStatus is one of Picked-up/),
      expect.stringMatching(/^notification 1, eventDateTime: eventDateTime is the local date and time/),
      expect.stringMatching(/^notification 3, proNumber/),
      expect.stringMatching(/^notification 3, eventDateTime/),
    ]);
    expect(readItvStatusMessages('{"proNumber": ', 'cut.json').issues[0]!.message).toMatch(/^not JSON/);
  });
});
