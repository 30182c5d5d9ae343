/** Contract: quotes (POST, GET, list) as SPEC 2 and 3 and the seed define them. */
import { describe, expect, it } from 'vitest';
import { COMPONENT, CONSIGNEE, expectProblem, fields, LANE, quoteRequest, messagesOf, SHIPPER } from '../expect.js';
import type { ContractCase } from '../suite.js';
import { DELIVERY_CONTACT, PICKUP_CONTACT } from '../../helpers/fixtures.js';

const contract: ContractCase = (target) => {
  describe('quotes', () => {
    it('quotes with the five seed fields, the normalised components and their class', async () => {
      const { data: quote, warnings } = await target().api.createLaneQuote(
        quoteRequest({ orderComponents: [{ ...COMPONENT, description: 'Machine parts', nmfcCode: '161030', packagingType: 'crates', pieceCount: 0 }] }),
      );
      expect(messagesOf(warnings)).toEqual([]);
      expect(quote.id).toMatch(/^qt_[0-9A-Z]{26}$/);
      expect(Number.isInteger(quote.quotedPriceInCents) && quote.quotedPriceInCents > 0).toBe(true);
      // One validity: the end of its pickup day (Tuesday 2026-11-24) in Chicago, before its 48 hours.
      expect(quote.quoteExpirationTime).toBe('2026-11-25T05:59:59.999Z');
      expect(quote.transitDays).toEqual(expect.any(Number));
      expect(quote.estimatedDeliveryDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(quote.requiredPickupDate).toBe('2026-11-24');
      expect(quote.pickupAddress).toMatchObject({ zipCode: '60601', city: 'Chicago', state: 'IL' });
      expect(quote.orderComponents).toEqual([
        {
          ...COMPONENT,
          description: 'Machine parts',
          nmfcCode: '161030',
          packagingType: 'crates',
          pieceCount: 0,
          hazmat: null,
          densityPcf: 11.25,
          freightClass: '92.5',
        },
      ]);
    });

    it('quotes between two published Addresses and, from ZIP codes alone, on the lane quote (remote mode sends such a quote there)', async () => {
      const { api } = target();
      const { data: quote } = await api.createQuote(quoteRequest({ pickupAddress: { ...SHIPPER, ...PICKUP_CONTACT }, deliveryAddress: { ...CONSIGNEE, ...DELIVERY_CONTACT } }));
      expect(quote.pickupAddress).toMatchObject({ zipCode: SHIPPER.zipCode, city: 'Chicago', state: 'IL' });
      const { data: lane } = await api.createLaneQuote(quoteRequest());
      const { data: zipOnly } = await api.createQuote(quoteRequest());
      expect(zipOnly.quotedPriceInCents).toBe(lane.quotedPriceInCents);
      expect((await api.getQuote(lane.id)).data).toEqual(lane);
      const problem = await expectProblem(api.createQuote(quoteRequest({ orderComponents: [{ ...COMPONENT, pieceCount: -1 }] })), 400);
      expect(fields(problem)).toEqual(['orderComponents[0].pieceCount']);
    });

    it('answers GET with the quote exactly as created', async () => {
      const { data: created } = await target().api.createLaneQuote(quoteRequest());
      const { data: read } = await target().api.getQuote(created.id);
      expect(read).toEqual(created);
    });

    it('answers 404 for an unknown id and for ids that try to leave the store', async () => {
      const { api } = target();
      for (const id of ['qt_01JD3Y7T9Q2W5E8R1T4Y7U0I3Z', '../quotes/x', '..', 'qt_%2e%2e', 'a/b', '']) {
        await expectProblem(api.getQuote(id), 404);
      }
    });

    it('reports every violation at once, each with its field path', async () => {
      const problem = await expectProblem(
        target().api.createLaneQuote({
          pickupAddress: { zipCode: 'ABCDE' },
          deliveryAddress: { zipCode: '10001' },
          orderComponents: [
            { ...COMPONENT, pieceCount: -1, description: 'x'.repeat(257) },
            { palletCount: 1, poundsWeight: 100, dimensions: { length: 48, width: 40, height: 0 }, nmfcCode: 'y'.repeat(33), packagingType: 'z'.repeat(33) },
          ],
        }),
        400,
      );
      expect(problem.title).toBe('Constraint Violation');
      expect(fields(problem)).toEqual([
        'orderComponents[0].description',
        'orderComponents[0].pieceCount',
        'orderComponents[1].dimensions.height',
        'orderComponents[1].nmfcCode',
        'orderComponents[1].packagingType',
        'pickupAddress.zipCode',
      ]);
    });

    it('refuses freightClass as input and requires the freight fields (palletCount and poundsWeight: dimensions may be omitted)', async () => {
      const problem = await expectProblem(
        target().api.createLaneQuote(quoteRequest({ orderComponents: [{ ...COMPONENT, freightClass: '70' }, { description: 'no freight' }] })),
        400,
      );
      expect(fields(problem)).toEqual(expect.arrayContaining(['orderComponents[0].freightClass', 'orderComponents[1].palletCount', 'orderComponents[1].poundsWeight']));
      expect(fields(problem)).not.toContain('orderComponents[1].dimensions');
    });

    it('accepts deprecated palletDimensions with a warning, normalised to dimensions', async () => {
      const { api } = target();
      const { data: quote, warnings } = await api.createLaneQuote({ ...LANE, orderComponents: [{ palletCount: 2, poundsWeight: 1200, palletDimensions: [48, 40, 48] }] });
      expect(quote.orderComponents[0]!.dimensions).toEqual({ length: 48, width: 40, height: 48 });
      expect(messagesOf(warnings)).toHaveLength(1);
      expect(messagesOf(warnings)[0]).toMatch(/^palletDimensions is deprecated .* \(orderComponents\[0\]\.palletDimensions\)$/);

      const same = await api.createLaneQuote({ ...LANE, orderComponents: [{ ...COMPONENT, palletDimensions: [48, 40, 48] }] });
      expect(same.data.orderComponents[0]!.dimensions).toEqual(COMPONENT.dimensions);
      const differing = await expectProblem(api.createLaneQuote({ ...LANE, orderComponents: [{ ...COMPONENT, palletDimensions: [48, 40, 50] }] }), 400);
      expect(fields(differing)).toEqual(['orderComponents[0].palletDimensions']);
    });

    it('lists quotes newest first, page by page with the cursor', async () => {
      const { api } = target();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await api.createLaneQuote(quoteRequest())).data.id);
      const first = await api.listQuotes({ limit: 2 });
      expect(first.data.items.map((quote) => quote.id)).toEqual([ids[2], ids[1]]);
      expect(first.data.nextCursor).toBe(ids[1]);
      const second = await api.listQuotes({ limit: 1, cursor: first.data.nextCursor! });
      expect(second.data.items.map((quote) => quote.id)).toEqual([ids[0]]);
    });

    it('answers the same quote again for the same Idempotency-Key and body, 409 idempotency_key_conflict for another body', async () => {
      const { api } = target();
      const key = `quote-${target().mode}-${Date.now()}`;
      const first = await api.createLaneQuote(quoteRequest(), { idempotencyKey: key });
      const again = await api.createLaneQuote(quoteRequest(), { idempotencyKey: key });
      expect(again.data).toEqual(first.data);
      expect([first.replayed, again.replayed]).toEqual([false, true]);
      await expectProblem(api.createLaneQuote(quoteRequest({ accessorials: ['LIFTGATE_DELIVERY'] }), { idempotencyKey: key }), 409);
    });
  });
};

export default contract;
