/**
 * The shape of an operation's declaration (what each resource's table fills in) and the helpers
 * every table shares. Pure: types and zod only.
 */
import type { z } from 'zod';

/** A named schema: `id` is its component name in the OpenAPI document. */
export interface NamedSchema<S extends z.ZodType = z.ZodType> {
  id: string;
  schema: S;
}

/** A request body; `optional`: an empty body is the same as none (the schema then reads undefined). */
export interface BodySpec<S extends z.ZodType = z.ZodType> extends NamedSchema<S> {
  optional?: boolean;
  /**
   * A file upload (multipart/form-data) instead of JSON: the server streams the part named `field`
   * into an UploadedFile (the schema reads it), answering 413 past `maxBytes`.
   */
  multipart?: { field: string; maxBytes: number };
  /**
   * Fields that are the published Address on the wire (publishedAddress.ts): `serve` refuses a
   * stop that lacks a field the published schema requires, and the document declares them so. The
   * engine, called in process, takes less (a quote from ZIP codes alone, a draft order without a
   * phone); the remote client sends such a request through an extension of `serve`.
   */
  publishedAddresses?: readonly string[];
}

/** A file as a multipart upload brings it: the name and type its sender declared, and its bytes. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export type JsonResponse<S extends z.ZodType = z.ZodType> = { status: 200 | 201; description: string } & NamedSchema<S>;
/** An answer without a body (the DELETE of an appointment document): the method resolves with null. */
export interface NoContentResponse {
  status: 204;
  description: string;
}

/** A document that is not JSON (a PDF): the method resolves with its bytes. */
export interface BinaryResponse {
  status: 200;
  description: string;
  mediaType: string;
  /** The media type by the value of the `format` query parameter, when the operation has several. */
  mediaTypes?: Record<string, string>;
  /** The file name the server suggests (Content-Disposition), from the path parameters and the query. */
  fileName: (params: readonly string[], query: Record<string, unknown>) => string;
}

/** The media type a binary operation answers for these options (its `format`, else the default). */
export function mediaTypeOf(response: BinaryResponse, options: Record<string, unknown>): string {
  const format = options.format;
  return (typeof format === 'string' && response.mediaTypes?.[format]) || response.mediaType;
}

/** Problem statuses an operation can answer, each described once in the OpenAPI document. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500;

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path template, parameters in braces: `/v1/shipper/quote/{quoteId}`. */
  path: string;
  /** The path parameters in the order the method takes them (ids of the store's alphabet). */
  params: readonly string[];
  /** Query parameters (strings on the wire, parsed by this schema in both implementations). */
  query?: z.ZodObject;
  body?: BodySpec;
  /** The operation honours an Idempotency-Key (header over HTTP, `idempotencyKey` option in the API). */
  idempotent?: boolean;
  response: JsonResponse | BinaryResponse | NoContentResponse;
  /** Fields of the answer that hold a path on this server: `serve` makes them absolute URLs (its public base URL). */
  serverLinks?: readonly string[];
  /** Answered without credentials: the request carries its own (a signed download link). */
  public?: boolean;
  /** For operations that create a resource: the operation whose path, filled with its id, is the Location header. */
  location?: string;
  errors: readonly ErrorStatus[];
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Not in the published v1 document: an addition of this implementation (`x-extension: true`). */
  extension: boolean;
  /** The OpenAPI operationId, when it is not the method's name. */
  operationId?: string;
}

/** An id path segment: the store's id alphabet, so no encoded `/`, `..` or other trick reaches the store. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Query schemas are built on first use (`shipper quote` parses no list query): the operations
 * table names each with a getter.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

export const WRITE_ERRORS = [400, 401, 413, 415, 422, 500] as const;

export function operation<const O extends OperationSpec>(spec: O): O {
  return spec;
}

/** The path of an operation with its parameters filled in (each %-encoded). */
export function pathOf(spec: Pick<OperationSpec, 'path'>, params: readonly string[]): string {
  let index = 0;
  return spec.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[index++] ?? ''));
}

/** `quoteId` -> `quote`: the resource a path parameter names, for "quote X not found". */
export function resourceOfParam(param: string): string {
  return param.replace(/Id$/, '');
}
