/**
 * Schemas built when they first parse or are described, not when their module loads: the requests
 * and answers of operations a command may never call. Every command that reaches the engine loads
 * the domain's schema modules, and building all their schemas cost a local quote about a tenth
 * of its start-up, where it parses a quote request and its record. zod's lazy schema parses,
 * reports and describes (JSON Schema, the OpenAPI document) exactly as the schema it builds;
 * unwrap() gives that one schema.
 */
import { z } from 'zod';

export function onFirstUse<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  let built: T | undefined;
  return z.lazy(() => (built ??= build()));
}
