/**
 * Text from data (file names, damaged files, CSV cells, what a server answered) on its way to a
 * terminal: control characters are shown as escapes, never sent. An ESC from a damaged store file
 * must not recolour, move the cursor or retitle the window of whoever reads the error.
 */

/**
 * C0 controls but newline and tab, DEL, C1 controls, and the bidirectional overrides and isolates
 * that make text display in another order than it is stored ("Trojan Source").
 */
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** The text with every unprintable character written as a visible escape: ESC becomes `\x1B`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

/**
 * Why a text is not JSON, without quoting it: V8's SyntaxError message repeats the text itself
 * (`Unexpected token '\x1b', "\x1b[2J..." is not valid JSON`), bytes of a damaged file that would
 * then reach a terminal or a log. Keeps the position when V8 gives one.
 */
export function jsonSyntaxProblem(error: unknown, text: string): string {
  if (text.trim() === '') return 'it is empty';
  if (text.includes('\u0000')) return 'it holds binary data (NUL bytes), not JSON';
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `not valid JSON at byte ${position}`;
  if (/Unexpected end of JSON input/i.test(message)) return 'not valid JSON: it ends too early (cut off?)';
  return 'not valid JSON';
}

/** printable() for a single-line field (a table cell, a detail line): line breaks and tabs are escaped too (`\x0A`). */
export function printableLine(text: string): string {
  return printable(text).replace(/[\n\t]/g, (character) => (character === '\n' ? '\\x0A' : '\\x09'));
}

/**
 * A copy of a record (a shipment, a quote) with every string in it passed through printableLine:
 * what a view shows of data written before input refused control characters, or by another
 * server, never reaches the terminal raw.
 */
export function printableRecord<T>(value: T): T {
  if (typeof value === 'string') return printableLine(value) as T;
  if (Array.isArray(value)) return value.map(printableRecord) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, printableRecord(item)])) as T;
  }
  return value;
}
