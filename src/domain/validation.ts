/**
 * Turns zod results into the API's shapes: every violation at once, each with its field path
 * written `orderComponents[0].dimensions.height`, plus the deprecation warnings a request earns.
 */
import type { z } from 'zod';
import type { Violation } from './schemas.js';

export type Parsed<T> = { ok: true; value: T; warnings: string[] } | { ok: false; violations: Violation[] };

export function formatFieldPath(path: ReadonlyArray<PropertyKey>): string {
  let field = '';
  for (const key of path) {
    if (typeof key === 'number') field += `[${key}]`;
    else field += field === '' ? String(key) : `.${String(key)}`;
  }
  return field === '' ? '(body)' : field;
}

export function violationsFromZod(error: z.ZodError): Violation[] {
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const issue of error.issues) {
    const field = formatFieldPath(issue.path);
    const message = readableMessage(issue.message);
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push({ field, message });
  }
  return violations;
}

function readableMessage(message: string): string {
  if (/received undefined$/.test(message)) return 'is required';
  return message.replace(/^Invalid input: /, '');
}

/** Warnings for deprecated spellings the request used (palletDimensions). */
export function deprecationWarnings(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const components = (raw as { orderComponents?: unknown }).orderComponents;
  if (!Array.isArray(components)) return [];
  const used = components
    .map((component, index) => (component && typeof component === 'object' && 'palletDimensions' in component ? index : -1))
    .filter((index) => index >= 0);
  if (used.length === 0) return [];
  const fields = used.map((index) => `orderComponents[${index}].palletDimensions`).join(', ');
  // Written `message (field)`, like every violation the CLI prints.
  return [`palletDimensions is deprecated and will be removed in a future major release; send dimensions {length, width, height} instead (${fields})`];
}

export function parseRequest<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, violations: violationsFromZod(result.error) };
  return { ok: true, value: result.data, warnings: deprecationWarnings(raw) };
}
