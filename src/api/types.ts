/**
 * The one interface the CLI talks to. Two implementations: LocalApi (engine + JSON store in this
 * process) and RemoteApi (the Shipper Freight API over HTTP). Every method either resolves with
 * its data plus the warnings the call earned (e.g. deprecated palletDimensions) or rejects with a
 * ProblemError; the same contract tests run against both.
 */
import type { Page, Quote, Shipment, TransitTable } from '../domain/schemas.js';

export interface ApiResult<T> {
  data: T;
  warnings: string[];
}

export interface WriteOptions {
  /** Same key and same body: the same resource comes back instead of a second one. */
  idempotencyKey?: string | undefined;
}

export interface ListQuery {
  limit?: number | undefined;
  /** The `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

export interface BolTemplateInfo {
  name: string;
  description: string;
}

export interface ShipperApi {
  readonly mode: 'local' | 'remote';
  createQuote(request: unknown, options?: WriteOptions): Promise<ApiResult<Quote>>;
  getQuote(id: string): Promise<ApiResult<Quote>>;
  listQuotes(query?: ListQuery): Promise<ApiResult<Page<Quote>>>;
  createShipment(request: unknown, options?: WriteOptions): Promise<ApiResult<Shipment>>;
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
