import { describe, expect, it } from 'vitest';
import { conflict, constraintViolation, notFound, problemLine } from '../../src/api/problems.js';

describe('error lines', () => {
  it('writes each violation as "message (field)" on one line', () => {
    expect(problemLine(constraintViolation([{ field: 'pickupAddress.zipCode', reason: 'unknown ZIP 00000' }]).problem)).toBe('unknown ZIP 00000 (pickupAddress.zipCode)');
    expect(
      problemLine(
        constraintViolation([
          { field: 'orderComponents[0].pieceCount', reason: 'pieceCount must be 0 or more' },
          { field: 'deliveryAddress.zipCode', reason: 'unknown ZIP 00001' },
        ]).problem,
      ),
    ).toBe('pieceCount must be 0 or more (orderComponents[0].pieceCount); unknown ZIP 00001 (deliveryAddress.zipCode)');
  });

  it('keeps a specific detail in front of the violations and plain details as they are', () => {
    expect(problemLine(conflict('the shipment does not match quote qt_1', [{ field: 'orderComponents[0].poundsWeight', reason: 'quoted 500, sent 600' }]).problem)).toBe(
      'the shipment does not match quote qt_1: quoted 500, sent 600 (orderComponents[0].poundsWeight)',
    );
    expect(problemLine(notFound('quote', 'qt_x').problem)).toBe('quote qt_x not found');
  });

  it('does not say twice what the detail already says in full', () => {
    const detail = 'quote qt_1 is already booked as SO-000003; cancel that shipment first';
    expect(problemLine(conflict(detail, [{ field: 'quoteId', reason: 'already booked as SO-000003' }]).problem)).toBe(detail);
    // One said, one not: the other stays.
    expect(
      problemLine(
        conflict(detail, [
          { field: 'quoteId', reason: 'already booked as SO-000003' },
          { field: 'refNumber', reason: 'PO-9 is booked too' },
        ]).problem,
      ),
    ).toBe(`${detail}: PO-9 is booked too (refNumber)`);
  });
});
