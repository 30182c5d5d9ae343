/** Contract: the accessorials the service prices (GET /v1/shipper/accessorials) in both modes, and that a quote prices each as listed. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultTariffFile } from '../../../src/paths.js';
import { expectProblem, quoteRequest } from '../expect.js';
import type { ContractCase } from '../suite.js';

const tariff = JSON.parse(readFileSync(defaultTariffFile(), 'utf8')) as { accessorials: Record<string, { description: string; amountInCents: number }> };

const contract: ContractCase = (target) => {
  describe('accessorials', () => {
    it("lists the tariff's accessorials in its order with their charges, and no carriers without agreements", async () => {
      const { data, warnings } = await target().api.listAccessorials();
      expect(warnings).toEqual([]);
      expect(data).toEqual({
        items: Object.entries(tariff.accessorials).map(([code, { description, amountInCents }]) => ({ code, description, amountInCents, carriers: [] })),
        carriers: [],
      });
    });

    it('a quote prices every code listed at its charge, and refuses one not listed naming those that are', async () => {
      const { api } = target();
      const { data: list } = await api.listAccessorials();
      const codes = list.items.map((item) => item.code);
      const { data: quote } = await api.createLaneQuote(quoteRequest({ accessorials: codes }));
      expect(quote.priceBreakdown.accessorialsInCents).toEqual(list.items.map(({ code, amountInCents }) => ({ code, amountInCents })));
      const problem = await expectProblem(api.createLaneQuote(quoteRequest({ accessorials: ['NOT_LISTED'] })), 400);
      expect(problem.violations).toEqual([{ field: 'accessorials[0]', reason: `unknown accessorial NOT_LISTED; known: ${codes.join(', ')}` }]);
    });
  });
};

export default contract;
