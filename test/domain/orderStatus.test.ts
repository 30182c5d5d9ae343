import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cancelOrder,
  confirmOrder,
  isCancellable,
  isTerminal,
  migratedOrderStatus,
  ORDER_STATUSES,
  orderStatusAfterTenderResponse,
  orderStatusAfterTracking,
  readOrderStatus,
  tenderResponseOfCode,
  type OrderStatus,
  type TenderResponse,
} from '../../src/domain/orderStatus.js';
import { TRACKING_STATUSES } from '../../src/domain/statuses.js';

type TrackingStatus = (typeof TRACKING_STATUSES)[number];

/** The published enum of Shipment.orderStatus, read from the document itself. */
const published = JSON.parse(readFileSync(new URL('../../reference/oway-shipper-api.openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: { Shipment: { properties: { orderStatus: { enum: string[] } } }; Tracking: { properties: { orderStatus: { enum: string[] } } } } };
};

describe('the published order states', () => {
  it('are the states of the published enum, IN_TRANSIT being the alias of PICKED_UP', () => {
    for (const schema of ['Shipment', 'Tracking'] as const) {
      const values = published.components.schemas[schema].properties.orderStatus.enum;
      expect(new Set(values.map(readOrderStatus))).toEqual(new Set(ORDER_STATUSES));
    }
    expect(readOrderStatus('IN_TRANSIT')).toBe('PICKED_UP');
    expect(readOrderStatus('PICKED_UP')).toBe('PICKED_UP');
  });

  it.each(['', 'in_transit', 'BOOKED', 'Delivered', 'toString', '__proto__', 'hasOwnProperty', ' CONFIRMED'])('reads %j as no state', (text) => {
    expect(readOrderStatus(text)).toBeNull();
  });

  it('CANCELLED and DELIVERED are terminal, no other', () => {
    expect(ORDER_STATUSES.filter(isTerminal)).toEqual(['DELIVERED', 'CANCELLED']);
  });
});

describe('confirm', () => {
  it('moves INITIALIZED to CONFIRMED', () => {
    expect(confirmOrder('INITIALIZED')).toEqual({ ok: true, status: 'CONFIRMED' });
  });

  it.each(ORDER_STATUSES.filter((status) => status !== 'INITIALIZED'))('is refused from %s, naming the state', (status) => {
    const result = confirmOrder(status);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe(`the order is ${status}: only an INITIALIZED order can be confirmed`);
  });
});

describe('cancel', () => {
  it.each(['INITIALIZED', 'CONFIRMED', 'ACCEPTED', 'ASSIGNED'] as const)('cancels a %s order (before pickup)', (status) => {
    expect(isCancellable(status)).toBe(true);
    expect(cancelOrder(status)).toEqual({ ok: true, status: 'CANCELLED' });
  });

  it.each(['PICKED_UP', 'DELIVERED'] as const)('refuses a %s order: the freight has left', (status) => {
    expect(isCancellable(status)).toBe(false);
    expect(cancelOrder(status)).toEqual({ ok: false, reason: `the order is ${status}: it cannot be cancelled once the freight is picked up` });
  });

  it('answers a cancelled order as it is (cancelling twice is no error), though it is not cancellable', () => {
    expect(isCancellable('CANCELLED')).toBe(false);
    expect(cancelOrder('CANCELLED')).toEqual({ ok: true, status: 'CANCELLED' });
  });
});

describe("a carrier's tracking status moves the order", () => {
  // Every tracking status from an order just confirmed: the mapping, one row each.
  it.each([
    ['NONE', 'CONFIRMED'],
    ['AT_PICKUP', 'ASSIGNED'],
    ['PICKED_UP', 'PICKED_UP'],
    ['IN_TRANSIT', 'PICKED_UP'],
    ['OUT_FOR_DELIVERY', 'PICKED_UP'],
    ['AT_DELIVERY', 'PICKED_UP'],
    ['DELIVERED', 'DELIVERED'],
    ['EXCEPTION', 'CONFIRMED'],
  ] as const)('%s: a CONFIRMED order becomes %s', (tracking, expected) => {
    expect(orderStatusAfterTracking('CONFIRMED', tracking)).toBe(expected);
  });

  it('covers every tracking status', () => {
    for (const tracking of TRACKING_STATUSES) expect(ORDER_STATUSES).toContain(orderStatusAfterTracking('CONFIRMED', tracking));
  });

  it('never back: a later state stays when the tracking status says less', () => {
    expect(orderStatusAfterTracking('PICKED_UP', 'AT_PICKUP')).toBe('PICKED_UP');
    expect(orderStatusAfterTracking('ASSIGNED', 'NONE')).toBe('ASSIGNED');
    expect(orderStatusAfterTracking('ACCEPTED', 'EXCEPTION')).toBe('ACCEPTED');
    expect(orderStatusAfterTracking('PICKED_UP', 'EXCEPTION')).toBe('PICKED_UP');
  });

  it('moves an ACCEPTED order to ASSIGNED when the driver is at the dock', () => {
    expect(orderStatusAfterTracking('ACCEPTED', 'AT_PICKUP')).toBe('ASSIGNED');
  });

  it('moves an INITIALIZED order too: the carrier that has the freight is believed', () => {
    expect(orderStatusAfterTracking('INITIALIZED', 'AT_PICKUP')).toBe('ASSIGNED');
    expect(orderStatusAfterTracking('INITIALIZED', 'IN_TRANSIT')).toBe('PICKED_UP');
    expect(orderStatusAfterTracking('INITIALIZED', 'EXCEPTION')).toBe('INITIALIZED');
  });

  it.each(TRACKING_STATUSES)('leaves CANCELLED and DELIVERED as they are on %s', (tracking) => {
    expect(orderStatusAfterTracking('CANCELLED', tracking)).toBe('CANCELLED');
    expect(orderStatusAfterTracking('DELIVERED', tracking)).toBe('DELIVERED');
  });
});

describe("a carrier's 990", () => {
  it.each([
    ['A', 'ACCEPTED'],
    ['a', 'ACCEPTED'],
    [' A ', 'ACCEPTED'],
    ['D', 'DECLINED'],
    ['R', null],
    ['', null],
    ['AA', null],
  ] as const)('B104 %j is %s', (code, expected) => {
    expect(tenderResponseOfCode(code)).toBe(expected);
  });

  it.each([
    ['INITIALIZED', 'ACCEPTED'],
    ['CONFIRMED', 'ACCEPTED'],
    ['ACCEPTED', 'ACCEPTED'],
    ['ASSIGNED', 'ASSIGNED'],
    ['PICKED_UP', 'PICKED_UP'],
    ['DELIVERED', 'DELIVERED'],
    ['CANCELLED', 'CANCELLED'],
  ] as const)('an acceptance leaves a %s order %s', (current, expected) => {
    expect(orderStatusAfterTenderResponse(current, 'ACCEPTED')).toBe(expected);
  });

  it.each(ORDER_STATUSES)('a decline leaves a %s order as it is', (current) => {
    expect(orderStatusAfterTenderResponse(current, 'DECLINED')).toBe(current);
  });
});

describe('records written before the order states', () => {
  it.each([
    ['NONE', 'CONFIRMED'],
    ['AT_PICKUP', 'ASSIGNED'],
    ['PICKED_UP', 'PICKED_UP'],
    ['IN_TRANSIT', 'PICKED_UP'],
    ['OUT_FOR_DELIVERY', 'PICKED_UP'],
    ['AT_DELIVERY', 'PICKED_UP'],
    ['DELIVERED', 'DELIVERED'],
    ['EXCEPTION', 'CONFIRMED'],
  ] as const)('BOOKED with tracking %s becomes %s', (tracking, expected) => {
    expect(migratedOrderStatus('BOOKED', tracking)).toBe(expected);
  });

  it('BOOKED without a tracking status (a record older than tracking) becomes CONFIRMED', () => {
    expect(migratedOrderStatus('BOOKED')).toBe('CONFIRMED');
  });

  it.each(TRACKING_STATUSES)('CANCELLED stays CANCELLED, even with tracking %s', (tracking) => {
    expect(migratedOrderStatus('CANCELLED', tracking)).toBe('CANCELLED');
  });
});

describe('no sequence of carrier messages ever demotes an order', () => {
  const position = (status: OrderStatus) => ORDER_STATUSES.indexOf(status);
  type Message = { tracking: TrackingStatus } | { tender: TenderResponse };
  const message: fc.Arbitrary<Message> = fc.oneof(
    fc.constantFrom(...TRACKING_STATUSES).map((tracking) => ({ tracking })),
    fc.constantFrom<TenderResponse>('ACCEPTED', 'DECLINED').map((tender) => ({ tender })),
  );
  const apply = (status: OrderStatus, item: Message): OrderStatus =>
    'tracking' in item ? orderStatusAfterTracking(status, item.tracking) : orderStatusAfterTenderResponse(status, item.tender);

  it('each step stays or moves forward; CANCELLED and DELIVERED never move; no message cancels', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_STATUSES), fc.array(message, { maxLength: 30 }), (start, messages) => {
        let status = start;
        for (const item of messages) {
          const next = apply(status, item);
          if (isTerminal(status)) expect(next).toBe(status);
          else {
            expect(next).not.toBe('CANCELLED');
            expect(position(next)).toBeGreaterThanOrEqual(position(status));
          }
          status = next;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the state reached is the furthest any single message of the sequence reaches (the order of arrival does not matter)', () => {
    fc.assert(
      fc.property(fc.constantFrom<OrderStatus>('INITIALIZED', 'CONFIRMED'), fc.array(message, { maxLength: 20 }), (start, messages) => {
        const reached = messages.reduce(apply, start);
        const furthest = messages.map((item) => apply(start, item)).reduce((a, b) => (position(b) > position(a) ? b : a), start);
        expect(reached).toBe(furthest);
        expect(messages.toReversed().reduce(apply, start)).toBe(reached);
      }),
      { numRuns: 300 },
    );
  });
});
