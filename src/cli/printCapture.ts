/**
 * A command run inside another one (`bol --print -o DIR` writes the files as `bol -o DIR` does):
 * the same context, whose JSON document is handed to the caller instead of printed, so that one
 * document is printed for the whole command.
 */
import type { CommandContext } from './context.js';
import type { IO } from './output.js';

export function capturingJson(ctx: CommandContext, sink: (value: unknown) => void): CommandContext {
  const io = Object.create(ctx.io) as IO;
  Object.defineProperty(io, 'json', { value: (value: unknown) => sink(value) });
  const inner = Object.create(ctx) as CommandContext;
  Object.defineProperty(inner, 'io', { value: io });
  return inner;
}
