/**
 * The one interface the CLI talks to. Two implementations: LocalApi (engine + JSON store in this
 * process) and RemoteApi (the Shipper Freight API over HTTP). Every method either resolves with
 * its data plus the warnings the call earned (e.g. deprecated palletDimensions) or rejects with a
 * ProblemError; the same contract tests run against both.
 */
import type { z } from 'zod';
import type { bolTemplateInfoSchema, Page, ProblemDetail, Quote, Shipment, TransitTable } from '../domain/schemas.js';

export interface ApiResult<T> {
  data: T;
  warnings: string[];
  /**
   * True when an idempotency key matched an earlier request and that request's resource came
   * back instead of a new one. Undefined when the implementation cannot tell.
   */
  replayed?: boolean | undefined;
}

/** One shipment of a batch: the request body and, for safe retries and re-imports, its key. */
export interface ShipmentBatchItem {
  request: unknown;
  idempotencyKey?: string | undefined;
}

/**
 * The answer for one item of a batch: its data, or the ProblemDetail that a single call would have
 * thrown (4xx). Failures that concern the whole batch (store, network) reject the batch instead.
 */
export type BatchOutcome<T> =
  | { ok: true; data: T; warnings: string[]; replayed: boolean }
  | { ok: false; problem: ProblemDetail };

export interface WriteOptions {
  /** Same key and same body: the same resource comes back instead of a second one. */
  idempotencyKey?: string | undefined;
}

export interface ListQuery {
  limit?: number | undefined;
  /** The `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

export type BolTemplateInfo = z.infer<typeof bolTemplateInfoSchema>;

export interface ShipperApi {
  readonly mode: 'local' | 'remote';
  createQuote(request: unknown, options?: WriteOptions): Promise<ApiResult<Quote>>;
  getQuote(id: string): Promise<ApiResult<Quote>>;
  listQuotes(query?: ListQuery): Promise<ApiResult<Page<Quote>>>;
  createShipment(request: unknown, options?: WriteOptions): Promise<ApiResult<Shipment>>;
  /**
   * Optional batch booking with exactly the rules of createShipment, item by item, in order.
   * Callers use `bookShipments` (src/api/batch.ts), which falls back to one createShipment per
   * item with its Idempotency-Key (POST /v1/shipper/shipment) when an implementation has none.
   */
  createShipments?(items: ShipmentBatchItem[]): Promise<Array<BatchOutcome<Shipment>>>;
  /**
   * Optional: validates and prices shipment requests without booking or storing anything; the
   * outcome is the quote each would be booked on. Fallback (`previewShipments` in batch.ts):
   * POST /v1/shipper/quote on each shipment's lane.
   */
  previewShipments?(requests: unknown[]): Promise<Array<BatchOutcome<Quote>>>;
  getShipment(id: string): Promise<ApiResult<Shipment>>;
  listShipments(query?: ListQuery): Promise<ApiResult<Page<Shipment>>>;
  /**
   * Transit days and ETAs from one origin to many destinations over a range of pickup days
   * (extension: POST /v1/shipper/transit). Read-only: quotes nothing, stores nothing.
   */
  transitTimes(request: unknown): Promise<ApiResult<TransitTable>>;
  /** The Bill of Lading of a shipment as PDF bytes. */
  renderBol(id: string, options?: { template?: string | undefined }): Promise<ApiResult<Uint8Array>>;
  listBolTemplates(): Promise<ApiResult<BolTemplateInfo[]>>;
  close(): Promise<void>;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;
