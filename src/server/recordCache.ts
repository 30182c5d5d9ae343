/**
 * A ShipperApi decorator for the long-running server: quotes and shipments are never changed once
 * written, so the ones created or read recently are kept in memory and a GET of one of them reads
 * no file. Anything not in the cache (created by another process, evicted) goes to the store as
 * before; lists always do, so they see every process's writes.
 */
import type { Quote, Shipment } from '../domain/schemas.js';
import { bookShipments, previewShipments } from '../api/batch.js';
import type { ApiResult, ShipperApi } from '../api/types.js';

export const DEFAULT_CACHE_ENTRIES = 10_000;

/** Least recently used first out: a Map keeps insertion order, and a hit re-inserts. */
class Lru<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

export function withRecordCache(api: ShipperApi, maxEntries = DEFAULT_CACHE_ENTRIES): ShipperApi & { readonly cachedRecords: number } {
  const quotes = new Lru<Quote>(maxEntries);
  const shipments = new Lru<Shipment>(maxEntries);
  const fresh = <T>(data: T): ApiResult<T> => ({ data, warnings: [] });
  return {
    mode: api.mode,
    get cachedRecords() {
      return quotes.size + shipments.size;
    },
    async createQuote(request, options) {
      const result = await api.createQuote(request, options);
      quotes.set(result.data.id, result.data);
      return result;
    },
    async getQuote(id) {
      const hit = quotes.get(id);
      if (hit) return fresh(hit);
      const result = await api.getQuote(id);
      quotes.set(id, result.data);
      return result;
    },
    listQuotes: (query) => api.listQuotes(query),
    async createShipment(request, options) {
      const result = await api.createShipment(request, options);
      shipments.set(result.data.id, result.data);
      return result;
    },
    async getShipment(id) {
      const hit = shipments.get(id);
      if (hit) return fresh(hit);
      const result = await api.getShipment(id);
      shipments.set(id, result.data);
      return result;
    },
    listShipments: (query) => api.listShipments(query),
    renderBol: (id, options) => api.renderBol(id, options),
    listBolTemplates: () => api.listBolTemplates(),
    transitTimes: (request) => api.transitTimes(request),
    async createShipments(items) {
      const outcomes = await bookShipments(api, items);
      for (const outcome of outcomes) if (outcome.ok) shipments.set(outcome.data.id, outcome.data);
      return outcomes;
    },
    previewShipments: (requests) => previewShipments(api, requests),
    close: () => api.close(),
  };
}
