/** The order's description when none is given: the lines' own words (issue 40; src/domain/orderDescription.ts). */
import { describe, expect, it } from 'vitest';
import { ORDER_DESCRIPTION_MAX, orderDescriptionOf } from '../../src/domain/orderDescription.js';

describe('orderDescriptionOf', () => {
  it("joins the lines' descriptions, each once, in order, trimmed; none gives none", () => {
    expect(orderDescriptionOf([{ description: ' Machine parts ' }, { description: 'Spare belts' }, { description: 'Machine parts' }])).toBe('Machine parts; Spare belts');
    expect(orderDescriptionOf([{ description: null }, { description: '  ' }, {}])).toBeUndefined();
    expect(orderDescriptionOf([])).toBeUndefined();
  });

  it('cuts at the last whole line that fits the published 256 characters, with "..."; a single long line is cut itself', () => {
    const line = (n: number) => ({ description: `${String(n).padStart(2, '0')} ${'x'.repeat(96)}` });
    const cut = orderDescriptionOf([line(1), line(2), line(3)])!;
    expect(cut).toBe(`${line(1).description}; ${line(2).description}; ...`);
    expect(cut.length).toBeLessThanOrEqual(ORDER_DESCRIPTION_MAX);
    const fits = orderDescriptionOf([{ description: 'a'.repeat(126) }, { description: 'b'.repeat(128) }])!;
    expect(fits).toHaveLength(256);
    const long = orderDescriptionOf([{ description: 'y'.repeat(300) }])!;
    expect(long).toBe(`${'y'.repeat(253)}...`);
  });
});
