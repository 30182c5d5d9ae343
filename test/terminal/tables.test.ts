/** Tables fit the terminal: shrinkable columns are truncated with "…", never wrapped into garbage. */
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/cli/output.js';
import { printTransitTable } from '../../src/cli/commands/transit.js';
import { displayWidth, fitTable } from '../../src/cli/tableLayout.js';
import type { TransitTable } from '../../src/domain/schemas.js';

function terminal(columns: number, env: NodeJS.ProcessEnv = {}, color = true) {
  let out = '';
  const stdout = { write: (chunk: string) => ((out += chunk), true), isTTY: true, columns } as unknown as NodeJS.WritableStream & { isTTY: boolean; columns: number };
  const stderr = { write: () => true, isTTY: true } as unknown as NodeJS.WritableStream & { isTTY: boolean };
  const io = new IO({ stdout, stderr, stdin: process.stdin }, { json: false, color, quiet: false }, env);
  return { io, output: () => out };
}

const row = (pickupDate: string, transitDays: number | null) => ({
  pickupDate,
  pickupAvailable: true,
  closedReason: null,
  transitDays,
  deliveryDate: transitDays === null ? null : '2026-10-09',
  estimatedDeliveryDate: transitDays === null ? null : '2026-10-09T21:00:00.000Z',
  skippedDays: [],
});
const TABLE: TransitTable = {
  lanes: [
    {
      origin: { zipCode: '60601', countryCode: 'US', city: 'Chicago', state: 'IL' },
      destination: { zipCode: '94105', countryCode: 'US', city: 'San Francisco Financial District Annex', state: 'CA', timeZone: 'America/Los_Angeles' },
      miles: 2187,
      covered: true,
      rows: [row('2026-10-06', 6)],
    },
    {
      origin: { zipCode: '60601', countryCode: 'US', city: 'Chicago', state: 'IL' },
      destination: { zipCode: '99501', countryCode: 'US', city: 'Anchorage', state: 'AK', timeZone: 'America/Anchorage' },
      miles: 3362,
      covered: false,
      rows: [row('2026-10-06', null)],
    },
  ],
};

describe('table layout', () => {
  const head = ['Place', 'Other place', 'Time', 'Extra'];
  const rows = [['x'.repeat(30), 'y'.repeat(20), 'z'.repeat(20), 'w'.repeat(10)]]; // 32 + 22 + 22 + 12 + 5 borders = 93
  const total = (widths: number[]) => widths.reduce((sum, width) => sum + width, widths.length + 1);

  it('keeps natural widths when the table fits', () => {
    expect(fitTable(head, rows, 93, [{ shrink: [0] }]).colWidths).toBeUndefined();
    expect(displayWidth('\u001b[1mbold\u001b[22m')).toBe(4);
  });

  it('runs the steps in order: shrink a column to its minimum, then the next, then leave one out', () => {
    expect(fitTable(head, rows, 80, [{ shrink: [0] }, { shrink: [1] }]).colWidths).toEqual([19, 22, 22, 12]);
    expect(fitTable(head, rows, 70, [{ shrink: [0] }, { shrink: [1] }]).colWidths).toEqual([14, 17, 22, 12]);
    const dropped = fitTable(head, rows, 60, [{ shrink: [0] }, { shrink: [1] }, { drop: 3 }]);
    expect(dropped.head).toEqual(['Place', 'Other place', 'Time']);
    expect(dropped.rows[0]).toHaveLength(3);
    expect(total(dropped.colWidths!)).toBeLessThanOrEqual(60);
  });

  it('shrinks everything as a last resort so the table is never wider than the terminal', () => {
    const fitted = fitTable(head, rows, 30, [{ shrink: [0] }]);
    expect(total(fitted.colWidths!)).toBe(30);
  });

  for (const columns of [120, 90, 80, 60]) {
    it(`fits a ${columns}-column terminal`, () => {
      const { io, output } = terminal(columns);
      printTransitTable(io, TABLE, 1);
      const lines = output().trimEnd().split('\n');
      // pickup line, (at 60 columns the origin, above the table), top, head, rule, 2 lanes, bottom: no wrapped rows
      expect(lines.length).toBe(columns === 60 ? 8 : 7);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
      expect(output()).toContain('no coverage');
    });
  }

  it('truncates places with an ellipsis, ZIP first, and keeps the ETA whole', () => {
    const { io, output } = terminal(90);
    printTransitTable(io, TABLE, 1);
    expect(output()).toMatch(/94105 San Francisco[^│]*…/);
    expect(output()).toContain('Miles');
    expect(output()).toMatch(/Fri 2026-10-09 14:00 PDT/);
  });

  it('leaves out Miles on a very narrow terminal rather than wrapping, the ETA stays', () => {
    const { io, output } = terminal(76);
    printTransitTable(io, TABLE, 1);
    expect(output()).not.toContain('Miles');
    expect(output()).toMatch(/Fri 2026-10-09 14:00 PDT/);
  });

  it('colours only on a terminal without NO_COLOR or --no-color', () => {
    const coloured = terminal(120);
    printTransitTable(coloured.io, TABLE, 1);
    expect(coloured.output()).toMatch(/\u001b\[/);
    for (const plain of [terminal(120, { NO_COLOR: '1' }), terminal(120, {}, false)]) {
      printTransitTable(plain.io, TABLE, 1);
      expect(plain.output()).not.toMatch(/\u001b\[/);
    }
  });
});
