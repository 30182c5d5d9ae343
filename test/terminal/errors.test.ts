import { describe, expect, it } from 'vitest';
import { conflict, constraintViolation, notFound, problemLine } from '../../src/api/problems.js';

describe('error lines', () => {
  it('writes each violation as "message (field)" on one line', () => {
    expect(problemLine(constraintViolation([{ field: 'origin.postalCode', message: 'unknown ZIP 00000' }]).problem)).toBe('unknown ZIP 00000 (origin.postalCode)');
    expect(
      problemLine(
        constraintViolation([
          { field: 'orderComponents[0].pieceCount', message: 'pieceCount must be 0 or more' },
          { field: 'destination.postalCode', message: 'unknown ZIP 00001' },
        ]).problem,
      ),
    ).toBe('pieceCount must be 0 or more (orderComponents[0].pieceCount); unknown ZIP 00001 (destination.postalCode)');
  });

  it('keeps a specific detail in front of the violations and plain details as they are', () => {
    expect(problemLine(conflict('the shipment does not match quote qt_1', [{ field: 'orderComponents[0].poundsWeight', message: 'quoted 500, sent 600' }]).problem)).toBe(
      'the shipment does not match quote qt_1: quoted 500, sent 600 (orderComponents[0].poundsWeight)',
    );
    expect(problemLine(notFound('quote', 'qt_x').problem)).toBe('quote qt_x not found');
  });

  it('does not say twice what the detail already says in full', () => {
    const detail = 'quote qt_1 is already booked as SO-000003; cancel that shipment first';
    expect(problemLine(conflict(detail, [{ field: 'quoteId', message: 'already booked as SO-000003' }]).problem)).toBe(detail);
    // One said, one not: the other stays.
    expect(
      problemLine(
        conflict(detail, [
          { field: 'quoteId', message: 'already booked as SO-000003' },
          { field: 'refNumber', message: 'PO-9 is booked too' },
        ]).problem,
      ),
    ).toBe(`${detail}: PO-9 is booked too (refNumber)`);
  });
});
