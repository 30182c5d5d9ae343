/**
 * The one parse of a request body in the local engine: each operation's body is read by the
 * schema the operations table declares for it (operations.ts), at LocalApi's door, so the use
 * cases in this directory take typed values. Checks of the body as sent that the schema cannot
 * make (a ZIP the geodata must know) are judged beside it: every violation comes back at once,
 * a field the schema already faults named once.
 */
import type { z } from 'zod';
import type { Violation } from '../../domain/schemas.js';
import { parseRequest, type Parsed } from '../../domain/validation.js';
import type { Warning } from '../../domain/warnings.js';
import { operations, type OperationName, type Operations } from '../operations.js';
import { constraintViolation } from '../problems.js';

/** The operations whose request has a body. */
export type BodyOperation = { [K in OperationName]: Operations[K] extends { body: { schema: z.ZodType } } ? K : never }[OperationName];

/** An operation's body as its schema reads it. */
export type BodyOf<K extends BodyOperation> = z.output<Operations[K]['body']['schema']>;

/** A parsed body and the warnings it earned as sent (deprecated spellings). */
export interface Input<T> {
  value: T;
  warnings: Warning[];
}

/** The body of operation `name` by the table's schema, with `fieldViolations` of the body as sent; a 400 naming every violation. */
export function parseBody<K extends BodyOperation>(name: K, raw: unknown, fieldViolations: Violation[] = []): Input<BodyOf<K>> {
  const judged = judge(operations[name].body.schema as z.ZodType, raw, fieldViolations);
  if (!judged.ok) throw constraintViolation(judged.violations);
  return { value: judged.value as BodyOf<K>, warnings: judged.warnings };
}

/** The schema's verdict and that of other checks of the body as sent, as one. */
export function judge<S extends z.ZodType>(schema: S, raw: unknown, fieldViolations: Violation[]): Parsed<z.output<S>> {
  const parsed = parseRequest(schema, raw);
  if (!parsed.ok) return { ok: false, violations: mergeViolations(parsed.violations, fieldViolations) };
  if (fieldViolations.length > 0) return { ok: false, violations: fieldViolations };
  return parsed;
}

/** The schema's violations first, then those of other checks on fields the schema found no fault with. */
export function mergeViolations(first: Violation[], second: Violation[]): Violation[] {
  const fields = new Set(first.map((violation) => violation.field));
  return [...first, ...second.filter((violation) => !fields.has(violation.field))];
}
