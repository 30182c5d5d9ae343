/**
 * Schemas built on first use (src/domain/schemaOnFirstUse.ts): nothing is built before a parse
 * or a description needs it, the schema is built once, and it parses, reports and describes as
 * the schema itself does.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { onFirstUse } from '../../src/domain/schemaOnFirstUse.js';
import { shipmentRequestSchema } from '../../src/domain/schemas.js';
import { parseRequest } from '../../src/domain/validation.js';

const makeSchema = () =>
  z
    .strictObject({
      name: z.string().trim().min(2, { message: 'name is at least 2 characters' }).meta({ description: 'Who' }),
      count: z.number().int().default(1),
    })
    .meta({ description: 'A thing' });

describe('onFirstUse', () => {
  it('builds nothing until the schema is used, then builds it once', () => {
    const build = vi.fn(makeSchema);
    const schema = onFirstUse(build);
    expect(build).not.toHaveBeenCalled();
    schema.parse({ name: 'ab' });
    schema.safeParse({ name: 1 });
    z.toJSONSchema(schema);
    expect(schema.unwrap()).toBe(schema.unwrap());
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('parses, reports and describes as the schema it builds', () => {
    const lazy = onFirstUse(makeSchema);
    const direct = makeSchema();
    for (const input of [{ name: ' abc ' }, { name: 'a' }, { name: 'abc', count: 1.5 }, { name: 'abc', extra: true }, null, 'text']) {
      expect(lazy.safeParse(input), JSON.stringify(input)).toEqual(direct.safeParse(input));
    }
    for (const io of ['input', 'output'] as const) expect(z.toJSONSchema(lazy, { io })).toEqual(z.toJSONSchema(direct, { io }));
  });

  it('lets an unknown field of a schema built on first use name the field it most likely means', () => {
    const parsed = parseRequest(shipmentRequestSchema, { refnumber: 'PO-1' });
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.violations).toContainEqual({ field: 'refnumber', reason: 'unknown field refnumber (did you mean refNumber?)' });
  });
});
