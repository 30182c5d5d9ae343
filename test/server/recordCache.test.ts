/** The server's cache of immutable records: hits skip the store, misses and errors do not stick. */
import { describe, expect, it } from 'vitest';
import { notFound } from '../../src/api/problems.js';
import type { ShipperApi } from '../../src/api/types.js';
import type { Quote } from '../../src/domain/schemas.js';
import { withRecordCache } from '../../src/server/recordCache.js';

function fakeApi() {
  const reads: string[] = [];
  const stored = new Map<string, Quote>();
  const api = {
    mode: 'local',
    createQuote: async () => {
      const quote = { id: `qt_${stored.size}` } as Quote;
      stored.set(quote.id, quote);
      return { data: quote, warnings: ['w'] };
    },
    getQuote: async (id: string) => {
      reads.push(id);
      const quote = stored.get(id);
      if (!quote) throw notFound('quote', id);
      return { data: quote, warnings: [] };
    },
    listQuotes: async () => ({ data: { items: [...stored.values()], nextCursor: null }, warnings: [] }),
  } as unknown as ShipperApi;
  return { api, reads, stored };
}

describe('withRecordCache', () => {
  it('answers a created or once-read quote without reading the store again', async () => {
    const { api, reads, stored } = fakeApi();
    const cached = withRecordCache(api, 10);
    const created = await cached.createQuote({});
    expect(created.warnings).toEqual(['w']);
    expect((await cached.getQuote(created.data.id)).data).toBe(created.data);
    expect(reads).toEqual([]);
    stored.set('qt_other', { id: 'qt_other' } as Quote);
    await cached.getQuote('qt_other');
    await cached.getQuote('qt_other');
    expect(reads).toEqual(['qt_other']);
  });

  it('does not remember what was not found, and always lists from the store', async () => {
    const { api, reads, stored } = fakeApi();
    const cached = withRecordCache(api, 10);
    await expect(cached.getQuote('qt_later')).rejects.toMatchObject({ status: 404 });
    stored.set('qt_later', { id: 'qt_later' } as Quote);
    expect((await cached.getQuote('qt_later')).data.id).toBe('qt_later');
    expect(reads).toEqual(['qt_later', 'qt_later']);
    expect((await cached.listQuotes()).data.items).toHaveLength(1);
  });

  it('keeps at most the given number of records, dropping the least recently used', async () => {
    const { api, reads } = fakeApi();
    const cached = withRecordCache(api, 2);
    const [a, b] = [await cached.createQuote({}), await cached.createQuote({})];
    await cached.getQuote(a.data.id); // a is now more recent than b
    await cached.createQuote({}); // evicts b
    expect(cached.cachedRecords).toBe(2);
    await cached.getQuote(a.data.id);
    expect(reads).toEqual([]);
    await cached.getQuote(b.data.id);
    expect(reads).toEqual([b.data.id]);
  });
});
