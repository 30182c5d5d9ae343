/**
 * A tool call of `shipper mcp`: the arguments split into the operation's path parameters, query
 * and body, the call on the one ShipperApi (local engine or remote client), and its answer as an
 * MCP tool result: the same JSON as `--json` (structured content) plus a short text. Every failure
 * is a result with `isError` and the ProblemDetail (its violations name the fields), never a
 * protocol error, so that the assistant can correct its input and the server keeps serving.
 */
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { constraintViolation, makeProblem, ProblemError } from '../api/problems.js';
import { mediaTypeOf, operations, pathOf, type OperationSpec } from '../api/operations.js';
import type { ApiResult, ShipperApi } from '../api/types.js';
import type { ProblemDetail, Violation } from '../domain/schemas.js';
import type { Warning } from '../domain/warnings.js';
import { utcDateOf } from '../domain/dates.js';
import { asShipperError } from '../cli/errors.js';
import { shipmentIdOf } from '../cli/shipmentRef.js';
import type { ShipperTool } from './tools.js';
import { summaryOf } from './summaries.js';

type JsonObject = Record<string, unknown>;

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: JsonObject;
  isError?: boolean;
}

export interface CallContext {
  api: ShipperApi;
  /** The directory `shipper mcp` was started in: files are read and written under it only. */
  root: string;
  readOnly: boolean;
  /** Remote mode: the server's root URL, for download links. */
  serverRoot?: string | undefined;
  /** Writes a document (durably); resolves with the path written. */
  writeFile: (path: string, bytes: Uint8Array) => Promise<string>;
  /** The clock (SHIPPER_NOW moves it, as for every command). */
  now: () => Date;
  /** Writes a line for the operator (stderr). */
  log: (line: string) => void;
}

/** A failure as a tool result: the ProblemDetail as structured content, its one line as text. */
export function errorResult(problem: ProblemDetail): ToolResult {
  const violations = (problem.violations ?? []).map((violation) => `${violation.field}: ${violation.reason}`);
  const text = [problem.detail ?? problem.title, ...violations].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { ...problem }, isError: true };
}

export function failureResult(error: unknown, log: (line: string) => void): ToolResult {
  const failure = asShipperError(error);
  // What only the operator may see (a path, an errno) goes to stderr, as the server logs it.
  if (failure.internalDetail) log(`shipper mcp: ${failure.internalDetail}`);
  if (failure.problem.status >= 500 && !(failure instanceof ProblemError)) log(`shipper mcp: ${failure.message}`);
  return errorResult(failure instanceof ProblemError ? failure.problem : failure.toProblem());
}

function successResult(data: JsonObject, text: string): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

/** The record's own warnings and the call's, each once (a quote carries the warnings its call earned). */
function mergedWarnings(own: readonly Warning[] | undefined, earned: readonly Warning[]): Warning[] {
  const seen = new Set<string>();
  return [...(own ?? []), ...earned].filter((item) => {
    const key = `${item.code} ${item.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const warningLines = (warnings: readonly Warning[]) => warnings.map((item) => `warning: [${item.code}] ${item.message}`);

/** Keys sorted at every level: the same arguments give the same text whatever their order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as JsonObject)
      .sort()
      .map((key) => [key, canonical((value as JsonObject)[key])]),
  );
}

/**
 * The idempotency key of a call without one: a digest of the tool, its canonical arguments and the
 * day (UTC). A retry books once; the same booking asked for on another day is a new one.
 */
export function derivedIdempotencyKey(tool: string, args: JsonObject, day: string): string {
  const { confirm: _confirm, idempotencyKey: _key, ...rest } = args;
  const digest = createHash('sha256')
    .update(JSON.stringify(canonical({ tool, arguments: rest, day })))
    .digest('hex');
  return `mcp-${digest.slice(0, 48)}`;
}

/** A path the assistant gives, resolved under the root; a violation of `field` when it leaves it. */
export async function pathUnderRoot(root: string, given: string, field: string): Promise<string> {
  const outside = () => constraintViolation([{ field, reason: `${field} must be a path under ${root} (the directory shipper mcp was started in)` }]);
  if (given.includes('\0')) throw outside();
  const target = resolve(root, given);
  const realRoot = await realpath(root);
  const inside = (path: string) => {
    const rel = relative(realRoot, path);
    return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  };
  // The nearest existing ancestor, with symbolic links resolved: a link must not lead outside.
  let existing = target;
  for (;;) {
    const real = await realpath(existing).catch(() => undefined);
    if (real !== undefined) {
      const rest = relative(existing, target);
      const full = rest === '' ? real : resolve(real, rest);
      if (!inside(full)) throw outside();
      return full;
    }
    const parent = dirname(existing);
    if (parent === existing) throw outside();
    existing = parent;
  }
}

interface SplitArguments {
  params: string[];
  query: JsonObject;
  body: unknown;
}

function split(tool: ShipperTool, spec: OperationSpec, args: JsonObject): SplitArguments {
  const known = new Set(Object.keys((tool.inputSchema.properties as JsonObject | undefined) ?? {}));
  const violations: Violation[] = [];
  for (const key of Object.keys(args)) if (!known.has(key)) violations.push({ field: key, reason: `${key} is not a field of ${tool.name}` });
  const params: string[] = [];
  for (const param of tool.params) {
    const value = args[param];
    if (typeof value !== 'string' || value.trim() === '') violations.push({ field: param, reason: `${param} is required: a string` });
    else params.push(value);
  }
  if (tool.kind === 'commit' && args.confirm !== undefined && typeof args.confirm !== 'boolean') violations.push({ field: 'confirm', reason: 'confirm is true or false' });
  if (violations.length > 0) throw constraintViolation(violations);
  const query: JsonObject = {};
  for (const name of tool.query) if (args[name] !== undefined) query[name] = args[name];
  let body: unknown;
  if (tool.flatBody) {
    const extras = new Set(['confirm', 'idempotencyKey', 'path', ...tool.params, ...tool.query]);
    const fields = Object.fromEntries(Object.entries(args).filter(([key]) => !extras.has(key)));
    body = spec.body?.optional && Object.keys(fields).length === 0 ? undefined : fields;
  } else if (tool.hasBody) body = args.body;
  return { params, query, body };
}

type Method = (...args: unknown[]) => Promise<ApiResult<unknown>>;

/**
 * A batch booking's items without a key get the key a single create_shipment of the same request
 * would derive: a retried batch books each item once, and an item booked alone comes back replayed.
 */
function withItemKeys(body: unknown, day: string): unknown {
  const items = (body as JsonObject | undefined)?.items;
  if (!Array.isArray(items)) return body;
  return {
    ...(body as JsonObject),
    items: items.map((item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const { request, idempotencyKey } = item as JsonObject;
      if (idempotencyKey !== undefined || request === null || typeof request !== 'object' || Array.isArray(request)) return item;
      return { ...(item as JsonObject), idempotencyKey: derivedIdempotencyKey('create_shipment', request as JsonObject, day) };
    }),
  };
}

/** Calls a tool generated from the operations table. */
export async function callOperation(tool: ShipperTool, args: JsonObject, ctx: CallContext): Promise<ToolResult> {
  const spec: OperationSpec = operations[tool.operation!];
  const parts = split(tool, spec, args);
  const { params, query } = parts;
  const day = utcDateOf(ctx.now());
  const body = tool.operation === 'createShipments' || tool.operation === 'previewShipments' ? withItemKeys(parts.body, day) : parts.body;
  const resolved = await Promise.all(tool.params.map((param, index) => (param === 'shipmentId' ? shipmentIdOf(ctx.api, params[index]!) : params[index]!)));
  const method = (ctx.api as unknown as Record<string, Method>)[tool.operation!]!.bind(ctx.api);
  const invoke = (options: JsonObject) => method(...resolved, ...(tool.hasBody ? [body] : []), options);

  if (tool.kind === 'commit' && args.confirm !== true) return wouldDo(tool, resolved, body, args, day, ctx);

  const options: JsonObject = { ...query };
  if (spec.idempotent) {
    const given = args.idempotencyKey;
    options.idempotencyKey = typeof given === 'string' ? given : tool.kind === 'commit' ? derivedIdempotencyKey(tool.name, args, day) : undefined;
  }

  if (!('schema' in spec.response)) return document(tool, spec, resolved, query, args, invoke, ctx);

  const result = await invoke(options);
  const data = result.data as JsonObject;
  const structured: JsonObject = Array.isArray(data) ? { items: data } : { ...data };
  // The same JSON as --json: the warnings travel with the answer.
  if (result.warnings.length > 0 || 'warnings' in structured) structured.warnings = mergedWarnings(structured.warnings as Warning[] | undefined, result.warnings);
  if (result.replayed !== undefined && spec.idempotent) structured.replayed = result.replayed;
  const lines = [summaryOf(tool.operation!, structured), ...warningLines(result.warnings)];
  if (result.replayed) lines.push('(replayed: an earlier call with the same idempotency key did this; nothing new was done)');
  return successResult(structured, lines.join('\n'));
}

/** Without confirm: what the call would do, changing nothing. */
async function wouldDo(tool: ShipperTool, params: string[], body: unknown, args: JsonObject, day: string, ctx: CallContext): Promise<ToolResult> {
  const base = { confirmed: false, tool: tool.name, wouldDo: tool.description.split('\n')[0] };
  const again = `Nothing was changed. To do it, call ${tool.name} again with the same arguments and confirm: true.`;
  if (tool.operation === 'createShipment' || tool.operation === 'createShipments') {
    const items =
      tool.operation === 'createShipment'
        ? [{ request: body, idempotencyKey: typeof args.idempotencyKey === 'string' ? args.idempotencyKey : derivedIdempotencyKey(tool.name, args, day) }]
        : (((body as JsonObject | undefined)?.items as unknown[] | undefined) ?? []);
    const { data, warnings } = await ctx.api.previewShipments({ items: items as never });
    const outcomes = data.items as Array<{ ok: boolean; data?: JsonObject; replayed?: boolean; warnings?: Warning[]; problem?: ProblemDetail }>;
    if (tool.operation === 'createShipment' && outcomes[0] && !outcomes[0].ok && outcomes[0].problem) return errorResult(outcomes[0].problem);
    // Each item's line, then the freight check's warnings it earned.
    const lines = outcomes.flatMap((outcome, index) =>
      outcome.ok && outcome.data
        ? [
            `${outcome.replayed ? 'already booked' : 'would book'}${outcomes.length > 1 ? ` item ${index + 1}` : ''}: ${summaryOf('createQuote', outcome.data)}`,
            ...warningLines(outcome.warnings ?? []),
          ]
        : [`item ${index + 1} would be refused: ${outcome.problem?.detail ?? outcome.problem?.title}`],
    );
    return successResult({ ...base, preview: data, warnings }, [...lines, ...warningLines(warnings), again].join('\n'));
  }
  if (tool.params.includes('shipmentId')) {
    const shipmentId = params[tool.params.indexOf('shipmentId')]!;
    const { data: shipment } = await ctx.api.getShipment(shipmentId);
    const request = body === undefined ? {} : { request: body };
    return successResult({ ...base, shipment, ...request }, [`would ${tool.name.replace(/_/g, ' ')}: ${summaryOf('getShipment', shipment as JsonObject)}`, again].join('\n'));
  }
  return successResult({ ...base, request: body ?? null }, [`would call ${tool.name}`, again].join('\n'));
}

/** A document: written to `path` under the root; in remote mode, its download link too. */
async function document(
  tool: ShipperTool,
  spec: OperationSpec,
  params: string[],
  query: JsonObject,
  args: JsonObject,
  invoke: (options: JsonObject) => Promise<ApiResult<unknown>>,
  ctx: CallContext,
): Promise<ToolResult> {
  const given = typeof args.path === 'string' ? args.path : undefined;
  const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const link = ctx.serverRoot ? new URL(`${pathOf(spec, params)}${search ? `?${search}` : ''}`, ctx.serverRoot).href : undefined;
  if (given === undefined) {
    if (link) {
      // The invoice's PDF shares its path with the JSON invoice: the Accept header chooses.
      const mediaType = 'mediaType' in spec.response ? mediaTypeOf(spec.response, query) : undefined;
      return successResult(
        { url: link, mediaType, authorization: 'Bearer <the API key>' },
        `download: ${link} (GET with Accept: ${mediaType ?? '*/*'} and the API key as Authorization: Bearer)`,
      );
    }
    throw constraintViolation([{ field: 'path', reason: 'path is required: where to write the document, under the directory shipper mcp was started in' }]);
  }
  const target = await pathUnderRoot(ctx.root, given, 'path');
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw constraintViolation([{ field: 'path', reason: `path ${given} is a directory: name the file` }]);
  const result = await invoke(query);
  const bytes = result.data as Uint8Array;
  const written = await ctx.writeFile(target, bytes);
  const shown = relative(ctx.root, written) || written;
  const structured: JsonObject = { path: shown, bytes: bytes.byteLength, ...(link ? { url: link } : {}), warnings: result.warnings };
  return successResult(structured, [`wrote ${shown} (${bytes.byteLength} bytes)`, ...(link ? [`download: ${link}`] : []), ...warningLines(result.warnings)].join('\n'));
}

/** `--read-only` refuses every tool that is not a reading one. */
export function readOnlyRefusal(tool: string): ToolResult {
  return errorResult(makeProblem(403, 'read-only', 'Read-Only', `${tool} is not available: shipper mcp was started with --read-only, which offers the reading tools only`).problem);
}
