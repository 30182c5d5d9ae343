/**
 * Control characters in text a person or a client sends. A reference, a trailer number or a
 * name is one line printed on terminals, tables, CSV files and BOLs: an ESC there recolours or
 * retitles the terminal of whoever lists shipments, a CR rewrites the line before it. Single-line
 * fields refuse every C0 and C1 control and DEL; multi-line fields (special instructions) allow
 * tab and line breaks only. Output neutralises what older records hold (printable.ts). Pure.
 */
import type { z } from 'zod';

const SINGLE_LINE_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const NAMES: Record<number, string> = { 0x00: 'NUL', 0x07: 'BEL', 0x08: 'backspace', 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0x1b: 'ESC', 0x7f: 'DEL' };

/** "ESC", "line feed", else U+0085. */
function nameOf(character: string): string {
  const code = character.charCodeAt(0);
  return NAMES[code] ?? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why the text is refused, or undefined when it holds no control character its kind forbids. */
export function controlCharacterProblem(text: string, multiLine = false): string | undefined {
  const match = (multiLine ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).exec(text);
  if (!match) return undefined;
  const found = `${nameOf(match[0])} at character ${match.index + 1}`;
  return multiLine
    ? `must not contain control characters other than tabs and line breaks (found ${found})`
    : `must be one line of text without control characters such as ESC, BEL or a line break (found ${found})`;
}

/** The string schema refusing control characters: every one in a single-line field, all but tab and line breaks in a multi-line one. */
export function withoutControlCharacters(schema: z.ZodString, multiLine = false): z.ZodString {
  // A refinement, not a superRefine: that one gives every value it checks a function of its own (zod's addIssue).
  return schema.refine((value) => (multiLine ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).exec(value) === null, {
    error: (issue) => controlCharacterProblem(issue.input as string, multiLine),
  });
}
