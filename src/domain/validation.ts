/**
 * Turns zod results into the API's shapes: every violation at once, each with its field path
 * written `orderComponents[0].dimensions.height`, plus the deprecation warnings a request earns.
 * An unknown field is a violation on its own path, with the known field it most likely means.
 */
import type { z } from 'zod';
import { warning, type Warning } from './warnings.js';
import { didYouMean } from './didYouMean.js';
import { palletSizeOf } from './publishedLimits.js';
import type { Violation } from './schemas.js';

export type Parsed<T> = { ok: true; value: T; warnings: Warning[] } | { ok: false; violations: Violation[] };

/** A key written as it is (`.height`, `.85` in a tariff); any other key is written in brackets as a JSON string. */
const PLAIN_KEY = /^[\w$-]+$/;

/**
 * `orderComponents[0].dimensions.height`. A key that is not a plain name (an unknown `a.b`, ` `,
 * a control character) is written `["a.b"]`, so that every path reads back one way.
 */
export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let field = '';
  for (const key of path) {
    if (typeof key === 'number') field += `[${key}]`;
    else if (PLAIN_KEY.test(String(key))) field += field === '' ? String(key) : `.${String(key)}`;
    else field += `[${JSON.stringify(String(key))}]`;
  }
  return field === '' ? '(body)' : field;
}

/** `schema` (the one that was parsed) lets an unknown field name the known field it most likely means. */
export function violationsFromZod(error: z.ZodError, schema?: z.ZodType): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  const add = (field: string, message: string) => {
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    violations.push({ field, reason: message });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = schema ? objectKeysAt(schema, issue.path) : [];
      for (const key of issue.keys) {
        const meant = didYouMean(key, known);
        add(formatFieldPath([...issue.path, key]), `unknown field ${PLAIN_KEY.test(key) ? key : JSON.stringify(key)}${meant ? ` (did you mean ${meant}?)` : ''}`);
      }
      continue;
    }
    add(formatFieldPath(issue.path), readableMessage(issue.message));
  }
  return violations;
}

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  items?: unknown[];
}
/** A schema's definition; a lazy schema's is that of the schema it builds (schemas.ts builds some on first use). */
function defOf(schema: unknown): SchemaDef {
  const internals = (schema as { _zod: { def: SchemaDef; innerType?: unknown } })._zod;
  return internals.def.type === 'lazy' ? defOf(internals.innerType) : internals.def;
}

/** Through wrappers (optional, nullable, default...) and pipes to the schema of what the client sends. */
function innermost(schema: unknown): SchemaDef {
  let def = defOf(schema);
  while (def.innerType !== undefined || (def.type === 'pipe' && def.in !== undefined)) def = defOf(def.innerType ?? def.in);
  return def;
}

/** The field names of the object schema found at `path` inside `schema` (through optional, pipes, arrays...). */
function objectKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let node: unknown = schema;
  for (let depth = 0; ; depth++) {
    const def = innermost(node);
    // Fields that are refused whatever their value (freightClass) are never suggested.
    if (depth === path.length) return def.type === 'object' && def.shape ? Object.keys(def.shape).filter((key) => innermost(def.shape![key]).type !== 'never') : [];
    const key = path[depth]!;
    if (def.type === 'object' && def.shape && typeof key === 'string' && Object.hasOwn(def.shape, key)) node = def.shape[key];
    else if (def.type === 'array' && def.element !== undefined) node = def.element;
    else if (def.type === 'tuple' && def.items && typeof key === 'number' && def.items[key] !== undefined) node = def.items[key];
    else return [];
  }
}

function readableMessage(message: string): string {
  if (/received undefined$/.test(message)) return 'is required';
  return message.replace(/^Invalid input: /, '');
}

/**
 * Warnings of how the request was written: deprecated spellings (palletDimensions), and lines
 * sent without dimensions, which the schema gave the published default pallet (DIMENSIONS_ASSUMED:
 * the class then rests on an assumption).
 */
export function deprecationWarnings(raw: unknown): Warning[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const components = (raw as { orderComponents?: unknown }).orderComponents;
  if (!Array.isArray(components)) return [];
  const assumed = components.flatMap((component, index) =>
    component &&
    typeof component === 'object' &&
    (component as { dimensions?: unknown }).dimensions === undefined &&
    (component as { palletDimensions?: unknown }).palletDimensions === undefined
      ? palletSizeOf({ dimensions: null }, { index }).warnings
      : [],
  );
  return [...assumed, ...deprecatedSpellings(components)];
}

function deprecatedSpellings(components: unknown[]): Warning[] {
  const used = components.map((component, index) => (component && typeof component === 'object' && 'palletDimensions' in component ? index : -1)).filter((index) => index >= 0);
  if (used.length === 0) return [];
  const fields = used.map((index) => `orderComponents[${index}].palletDimensions`).join(', ');
  // Written `message (field)`, like every violation the CLI prints.
  return [
    warning(
      'DEPRECATED_PALLET_DIMENSIONS',
      `palletDimensions is deprecated and will be removed in a future major release; send dimensions {length, width, height} instead (${fields})`,
      {
        field: `orderComponents[${used[0]}].palletDimensions`,
      },
    ),
  ];
}

export function parseRequest<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, violations: violationsFromZod(result.error, schema) };
  return { ok: true, value: result.data, warnings: deprecationWarnings(raw) };
}
