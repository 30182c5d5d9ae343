/**
 * The one interface the CLI talks to, derived from the operations table (operations.ts). Two
 * implementations: LocalApi (engine + JSON store in this process) and RemoteApi (the Shipper
 * Freight API over HTTP). Every method either resolves with its data plus the warnings the call
 * earned (e.g. deprecated palletDimensions) or rejects with a ProblemError; the same contract tests
 * run against both.
 *
 * Inputs are typed with the request schemas' input side (QuoteRequestInput, ...); both
 * implementations still parse them at run time, as a server must.
 */
import type { z } from 'zod';
import type { OperationSpec, Operations } from './operations.js';
import type { bolTemplateInfoSchema, ProblemDetail } from '../domain/schemas.js';
import type { Warning } from '../domain/warnings.js';

export interface ApiResult<T> {
  data: T;
  warnings: Warning[];
  /**
   * True when an idempotency key matched an earlier request and that request's resource came
   * back instead of a new one. Undefined when the implementation cannot tell.
   */
  replayed?: boolean | undefined;
  /**
   * Fields of shipper's own answer the server did not send: Oway's service answers the published
   * fields alone (remote mode with the published service). The command shows what came and names these.
   */
  unanswered?: string[] | undefined;
}

/**
 * The answer for one item of a batch: its data, or the ProblemDetail that a single call would have
 * thrown (4xx). Failures that concern the whole batch (store, network) reject the batch instead.
 */
export type BatchOutcome<T> = { ok: true; data: T; warnings: Warning[]; replayed: boolean } | { ok: false; problem: ProblemDetail };

export type BolTemplateInfo = z.infer<typeof bolTemplateInfoSchema>;

type Strings<P extends readonly string[]> = { -readonly [K in keyof P]: string };

type BodyArgs<O extends OperationSpec> = O['body'] extends { schema: infer S extends z.ZodType; optional: true }
  ? [body?: z.input<S>]
  : O['body'] extends { schema: infer S extends z.ZodType }
    ? [body: z.input<S>]
    : [];

/** Query parameters (typed values; the wire carries them as text) and, where honoured, the idempotency key. */
export type OptionsOf<O extends OperationSpec> = (O['query'] extends z.ZodObject ? Partial<z.output<O['query']>> : object) &
  (O['idempotent'] extends true ? { idempotencyKey?: string | undefined } : object);

export type ArgsOf<O extends OperationSpec> = [...Strings<O['params']>, ...BodyArgs<O>, options?: OptionsOf<O>];

export type OutputOf<O extends OperationSpec> = O['response'] extends { schema: infer S extends z.ZodType }
  ? z.output<S>
  : O['response'] extends { mediaType: string }
    ? Uint8Array
    : null;

export type OperationMethods = {
  [K in keyof Operations]: (...args: ArgsOf<Operations[K]>) => Promise<ApiResult<OutputOf<Operations[K]>>>;
};

export interface ShipperApi extends OperationMethods {
  readonly mode: 'local' | 'remote';
  /** The server offers the published operations alone (Oway's service): its extensions are refused before sending. */
  readonly publishedOnly?: boolean;
  close(): Promise<void>;
}

/** One shipment of a batch: the request body and, for safe retries and re-imports, its key. */
export type ShipmentBatchItem = z.input<Operations['createShipments']['body']['schema']>['items'][number];
