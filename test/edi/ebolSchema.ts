/**
 * The published eBOL 2.1 `BOL_Request` schema as an ajv validator, read from the copied OpenAPI
 * document (reference/). OpenAPI 3.0 specifics are turned into JSON Schema: local `$ref`s are
 * inlined, `nullable` becomes a null type, `example` is a known annotation. Every object with
 * properties is closed (additionalProperties: false) so that a misspelt field fails instead of
 * passing unnoticed (the published schema leaves objects open); a property the schema requires
 * without declaring it (`commodities.lineItems`) stays allowed and required.
 *
 * The standard's code lists (valid accessorial codes, packaging types, classes...) live in the
 * descriptions of its `*_Codes`/`*_Types` schemas; `codeList` reads them from there.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const document = parse(readFileSync(new URL('../../reference/nmfta-ebol-2.1.0.openapi.yaml', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Json> };
};

function resolve(node: Json, seen: ReadonlySet<string> = new Set()): Json {
  if (Array.isArray(node)) return node.map((item) => resolve(item, seen));
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match || seen.has(ref)) throw new Error(`cannot resolve ${ref}`);
    return resolve(document.components.schemas[match[1]!]!, new Set([...seen, ref]));
  }
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolve(value, seen);
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  delete out.nullable;
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) {
    // The published schema requires `commodities.lineItems` without declaring it (its line items
    // live in each handling unit): the requirement is kept, and closing the object must not forbid it.
    const properties = out.properties as { [key: string]: Json };
    for (const name of (out.required as string[] | undefined) ?? []) if (!(name in properties)) properties[name] = {};
    out.additionalProperties = false;
  }
  return out;
}

let validator: ValidateFunction | undefined;

export function bolRequestValidator(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true, strict: true });
    ajv.addKeyword('example');
    validator = ajv.compile(resolve(document.components.schemas.BOL_Request!) as object);
  }
  return validator;
}

/** The values a code-list schema (`Accessorial_Codes`, `Payment_Terms`...) lists in its description. */
export function codeList(name: string): Set<string> {
  const schema = document.components.schemas[name] as { description?: string } | undefined;
  if (!schema?.description) throw new Error(`no code list ${name}`);
  const codes = schema.description
    .split('\n')
    .map((row) => /^\s*\*\s+(.+?)\s*$/.exec(row)?.[1])
    .filter((value): value is string => value !== undefined)
    .map((value) => value.split(/\s*-\s/)[0]!.trim());
  return new Set(codes);
}

/** A description's "Valid values: a, b, c" list (e.g. `version`). */
export function versionValues(): string[] {
  const version = (document.components.schemas.BOL_Request as { properties: { version: { description: string } } }).properties.version.description;
  return /Valid values:\s*(.+)/
    .exec(version)![1]!
    .split(',')
    .map((value) => value.trim());
}
