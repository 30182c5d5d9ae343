/**
 * The MCP tools of `shipper mcp`, generated from the operations table (api/operations.ts): one tool
 * per operation, named after its method (`createShipment` is `create_shipment`), its input schema
 * the JSON Schema of the OpenAPI document (api/openapi.ts, itself zod 4's output of the domain's
 * schemas): the path parameters, the query parameters and the body's fields side by side.
 * An operation added to the table (the coming `confirm`) becomes a tool by itself; one this module
 * does not know is a writing tool that asks for `confirm: true` until it is classified below.
 *
 * Besides the operation's fields a tool takes:
 * - `confirm` (tools that change a shipment): without `confirm: true` the tool answers what it
 *   would do and changes nothing;
 * - `idempotencyKey` (operations that honour one);
 * - `path` (operations that answer a document: BOL, labels, invoice PDF): where to write it, under
 *   the directory `shipper mcp` was started in.
 */
import { openApiDocument } from '../api/openapi.js';
import { OPERATION_NAMES, operations, type OperationName, type OperationSpec } from '../api/operations.js';

type JsonObject = Record<string, unknown>;

/**
 * What a tool does to the world, which decides its annotations and whether it needs `confirm`:
 * - read: reads, or computes without storing (readOnlyHint);
 * - record: stores something that commits nobody (a quote, which expires; a tender file's control numbers);
 * - document: reads a document and writes it to a file;
 * - commit: books, cancels or otherwise changes a shipment (needs `confirm: true`).
 */
export type ToolKind = 'read' | 'record' | 'document' | 'commit';

/**
 * The operations whose kind their HTTP method does not tell (a POST that only computes, a POST
 * that stores a quote). Every other GET is `read`, every other operation `commit`.
 */
const KINDS: Partial<Record<OperationName, ToolKind>> = {
  createQuote: 'record',
  createLaneQuote: 'record',
  shopRates: 'record',
  // A file for the carrier's systems: it takes X12 control numbers and changes no shipment.
  createTender: 'record',
  transitTimes: 'read',
  previewShipments: 'read',
};

/** Changes that cannot be taken back by calling the tool again (MCP's destructiveHint). */
const ADDITIVE: ReadonlySet<string> = new Set<OperationName>(['createShipment', 'createShipments', 'addShipmentEvents', 'addShipmentEventsBatch']);

/**
 * Calling again with the same arguments changes nothing more (MCP's idempotentHint): bookings too,
 * whose idempotency key is derived from the arguments when none is given (calls.ts).
 */
const REPEATABLE: ReadonlySet<string> = new Set<OperationName>([
  'createShipment',
  'createShipments',
  'cancelShipment',
  'confirmShipment',
  'updateShipment',
  'addShipmentEvents',
  'addShipmentEventsBatch',
]);

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ShipperTool {
  name: string;
  /** The operation it calls; undefined for the tools of this module's own (import). */
  operation?: OperationName;
  kind: ToolKind;
  description: string;
  inputSchema: JsonObject & { type: 'object' };
  annotations: ToolAnnotations;
  /** The operation's path parameters, in order. */
  params: readonly string[];
  /** Query parameter names. */
  query: readonly string[];
  /** The body's fields are the tool's own (false: the body is one `body` argument, or there is none). */
  flatBody: boolean;
  hasBody: boolean;
}

/** `createShipment` -> `create_shipment`. */
export function toolNameOf(operation: string): string {
  return operation.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function kindOf(name: OperationName, spec: OperationSpec): ToolKind {
  const known = KINDS[name];
  if (known) return known;
  if (spec.method === 'GET') return 'schema' in spec.response ? 'read' : 'document';
  return 'commit';
}

function annotationsOf(name: string, kind: ToolKind, title: string, remote: boolean): ToolAnnotations {
  return {
    title,
    readOnlyHint: kind === 'read',
    destructiveHint: kind === 'commit' && !ADDITIVE.has(name),
    idempotentHint: kind === 'read' || kind === 'document' || REPEATABLE.has(name),
    // Remote mode talks to a service; the local engine to the store and files of this machine.
    openWorldHint: remote,
  };
}

/** Keywords of the OpenAPI document that are not JSON Schema (x-extension, example). */
function stripped(value: unknown, refs: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => stripped(item, refs));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value as JsonObject)) {
    if (key.startsWith('x-') || key === 'example') continue;
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
      const id = item.slice('#/components/schemas/'.length);
      refs.add(id);
      out.$ref = `#/$defs/${id}`;
      continue;
    }
    out[key] = stripped(item, refs);
  }
  return out;
}

/** The components a schema refers to, transitively, as `$defs`. */
function definitionsFor(refs: Set<string>, components: Record<string, JsonObject>): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  const pending = [...refs];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (id in defs) continue;
    const found = new Set<string>();
    defs[id] = stripped(components[id] ?? {}, found);
    for (const next of found) if (!(next in defs)) pending.push(next);
  }
  return defs;
}

const SHIPMENT_REFERENCE = 'The shipment: its id (sh_...), its order number (SO-000123) or its 17-digit BOL number';

const CONFIRM_DESCRIPTION = 'true to do it; without it nothing changes and the answer says what would be done';

/** Every tool of the table, with its JSON Schema, in the table's order. */
export function operationTools(options: { remote: boolean }): ShipperTool[] {
  const document = openApiDocument() as { paths: Record<string, Record<string, JsonObject>>; components: { schemas: Record<string, JsonObject> } };
  const components = document.components.schemas;
  // A file upload is no JSON argument, and a signed link's own operation is reached by its link.
  const offered = OPERATION_NAMES.filter((operation) => {
    const spec: OperationSpec = operations[operation];
    return !spec.body?.multipart && !spec.public;
  });
  return offered.map((operation) => {
    const spec: OperationSpec = operations[operation];
    const kind = kindOf(operation, spec);
    const entry = document.paths[spec.path]?.[spec.method.toLowerCase()] ?? {};
    const refs = new Set<string>();
    const properties: JsonObject = {};
    const required: string[] = [];
    const parameters = (entry.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonObject }>;
    for (const parameter of parameters) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      const schema = stripped(parameter.schema ?? {}, refs) as JsonObject;
      if (parameter.in === 'path' && parameter.name === 'shipmentId') {
        // Order and BOL numbers are looked up: the id pattern would refuse them.
        properties.shipmentId = { type: 'string', minLength: 1, maxLength: 128, description: SHIPMENT_REFERENCE };
      } else properties[parameter.name] = { ...schema, ...(parameter.description ? { description: parameter.description } : {}) };
      if (parameter.required) required.push(parameter.name);
    }
    let flatBody = false;
    if (spec.body) {
      const component = components[spec.body.id] ?? {};
      const bodyProperties = component.properties as JsonObject | undefined;
      const clash = bodyProperties && Object.keys(bodyProperties).some((key) => key in properties || key === 'confirm' || key === 'path');
      if (component.type === 'object' && bodyProperties && !clash) {
        flatBody = true;
        Object.assign(properties, stripped(bodyProperties, refs));
        if (!spec.body.optional) required.push(...((component.required as string[] | undefined) ?? []));
      } else {
        properties.body = { $ref: `#/$defs/${spec.body.id}` };
        refs.add(spec.body.id);
        if (!spec.body.optional) required.push('body');
      }
    }
    if (spec.idempotent && !('idempotencyKey' in properties)) {
      properties.idempotencyKey = {
        type: 'string',
        pattern: '^[\\x21-\\x7E]{1,255}$',
        description:
          kind === 'commit'
            ? 'The same key and request are done once. Default: derived from the canonical arguments, so a retried call is done once; give a new key to do the same thing twice on purpose'
            : 'The same key and request are answered once',
      };
    }
    if (kind === 'document') {
      properties.path = {
        type: 'string',
        minLength: 1,
        description:
          'Where to write the document, relative to the directory shipper mcp was started in (and inside it). Remote mode without a path: the answer is the download link',
      };
    }
    if (kind === 'commit') properties.confirm = { type: 'boolean', description: CONFIRM_DESCRIPTION };
    const inputSchema: JsonObject & { type: 'object' } = {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
    const defs = definitionsFor(refs, components);
    if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
    const name = toolNameOf(operation);
    const notes = [
      kind === 'commit' ? 'Changes the shipment only with confirm: true; without it, answers what it would do.' : '',
      operation === 'createShipment' || operation === 'createShipments'
        ? 'The order is created INITIALIZED, as published: then confirm it with confirm_shipment (which checks a contact person and phone on both addresses and a description), as `shipper ship` does in one step.'
        : '',
      kind === 'document' ? 'Writes the document to `path` (under the directory shipper mcp was started in); in remote mode it also gives the download link.' : '',
    ].filter(Boolean);
    return {
      name,
      operation,
      kind,
      description: [spec.summary, spec.description ?? '', ...notes].filter(Boolean).join('\n\n'),
      inputSchema,
      annotations: annotationsOf(operation, kind, spec.summary.split(/[:(;]/)[0]!.trim(), options.remote),
      params: spec.params,
      query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      flatBody,
      hasBody: spec.body !== undefined,
    };
  });
}

/** The CSV import, a tool that is no operation of the table (it books by the rules of create_shipment). */
export function importTool(options: { remote: boolean }): ShipperTool {
  return {
    name: 'import_csv',
    kind: 'commit',
    description: [
      'Book shipments in batch from a CSV file (one row per order component; the columns of `shipper help csv-columns`), as `shipper import` does.',
      'A dry run by default: every shipment is checked and priced, nothing is booked. With confirm: true the valid file is booked; importing the same file again books nothing twice.',
      'Each order booked is also confirmed (CONFIRMED, as `shipper import` does) when it has what the published confirm needs (a contact person and phone on both addresses, a description); one that lacks it is created INITIALIZED with a NOT_CONFIRMED warning naming what it lacks, and counted in summary.initialized: confirm it later with confirm_shipment.',
      'The file must be under the directory shipper mcp was started in.',
    ].join('\n\n'),
    inputSchema: {
      type: 'object',
      properties: {
        file: { type: 'string', minLength: 1, description: 'The CSV file, relative to the directory shipper mcp was started in' },
        confirm: { type: 'boolean', description: 'true to book; without it, a dry run' },
        skipInvalid: { type: 'boolean', description: 'Book the valid shipments and leave the invalid rows out (default: any invalid row imports nothing)' },
        allowDuplicateRef: { type: 'boolean', description: 'Book rows whose refNumber a booked shipment already has (default: refused)' },
        encoding: { type: 'string', enum: ['utf8', 'utf16le', 'utf16be', 'windows-1252'], description: 'The encoding (default: detected)' },
      },
      required: ['file'],
      additionalProperties: false,
    },
    annotations: { title: 'Import shipments from a CSV file', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: options.remote },
    params: [],
    query: [],
    flatBody: false,
    hasBody: false,
  };
}

/** The saved locations (`shipper location`), so that "from chicago-dc" becomes the address a booking takes. */
export function locationsTool(options: { remote: boolean }): ShipperTool {
  return {
    name: 'list_locations',
    kind: 'read',
    description:
      'The saved locations (shipper location add): each name with its address. Give the address as shipper or consignee of create_quote, create_shipment or preview_shipments when the user names a location.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'Saved locations', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: options.remote },
    params: [],
    query: [],
    flatBody: false,
    hasBody: false,
  };
}
