import { describe, expect, it } from 'vitest';
import { accessorialList } from '../../src/domain/accessorials.js';

const agreement = (
  scac: string,
  accessorials: Record<string, { amountInCents?: number; description?: string; byLength?: Array<{ atLeastInches: number; amountInCents: number }> }>,
) => ({
  scac,
  carrierName: `${scac} Lines`,
  agreement: `${scac}-1`,
  accessorials,
});

describe('accessorialList', () => {
  it("lists the tariff's codes in its order, then the codes only carriers price by code, each with the carriers that price it", () => {
    const list = accessorialList(
      { accessorials: { NOTIFY_BEFORE_DELIVERY: { description: 'Call first', amountInCents: 2500 }, APPOINTMENT: { description: 'Appointment', amountInCents: 3500 } } },
      [
        agreement('AAAA', { ZEBRA: { amountInCents: 100 }, APPOINTMENT: { amountInCents: 4000, description: 'Their words' } }),
        agreement('BBBB', {
          OVERLENGTH: { description: 'Long unit', byLength: [{ atLeastInches: 96, amountInCents: 7500 }] },
          ZEBRA: { amountInCents: 200, description: 'Zebra' },
        }),
      ],
    );
    expect(list.items).toEqual([
      { code: 'NOTIFY_BEFORE_DELIVERY', description: 'Call first', amountInCents: 2500, carriers: [] },
      // The tariff's description wins over an agreement's.
      { code: 'APPOINTMENT', description: 'Appointment', amountInCents: 3500, carriers: [{ scac: 'AAAA', amountInCents: 4000, byLength: null }] },
      {
        code: 'OVERLENGTH',
        description: 'Long unit',
        amountInCents: null,
        carriers: [{ scac: 'BBBB', amountInCents: null, byLength: [{ atLeastInches: 96, amountInCents: 7500 }] }],
      },
      // The first agreement that describes it.
      {
        code: 'ZEBRA',
        description: 'Zebra',
        amountInCents: null,
        carriers: [
          { scac: 'AAAA', amountInCents: 100, byLength: null },
          { scac: 'BBBB', amountInCents: 200, byLength: null },
        ],
      },
    ]);
    expect(list.carriers).toEqual([
      { scac: 'AAAA', name: 'AAAA Lines', agreement: 'AAAA-1' },
      { scac: 'BBBB', name: 'BBBB Lines', agreement: 'BBBB-1' },
    ]);
  });

  it('a code nobody describes has no description; without agreements, no carriers', () => {
    expect(accessorialList({ accessorials: {} }, [agreement('CCCC', { BARE: { amountInCents: 1 } })]).items).toEqual([
      { code: 'BARE', description: null, amountInCents: null, carriers: [{ scac: 'CCCC', amountInCents: 1, byLength: null }] },
    ]);
    expect(accessorialList({ accessorials: { A: { description: 'a', amountInCents: 0 } } }, [])).toEqual({
      items: [{ code: 'A', description: 'a', amountInCents: 0, carriers: [] }],
      carriers: [],
    });
    expect(accessorialList({ accessorials: {} }, [agreement('DDDD', {})]).items).toEqual([]);
  });
});
