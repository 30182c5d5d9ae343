/**
 * Where a text stops being JSON (RFC 8259), found by a small scanner of our own, so that the 400
 * for a malformed body can say where (line and column) without V8's SyntaxError message, which
 * quotes the body back and changes wording between Node versions. Only run once JSON.parse has
 * refused the text. Iterative (an explicit stack): a megabyte of `[` costs no recursion. Pure.
 */

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const SIMPLE_ESCAPES = '"\\/bfnrt';

/**
 * The offset (UTF-16 code units, as V8 counts "at position N") of the first character that makes
 * `text` not JSON, `text.length` when it ends too early; undefined when it is JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  const end = text.length;
  let at = 0;
  const open: number[] = [];
  const code = () => (at < end ? text.charCodeAt(at) : -1);
  const skipSpace = () => {
    while (at < end && isSpace(text.charCodeAt(at))) at++;
  };
  /** Each scanner returns the offset of an error, or -1 having moved past what it read. */
  const string = (): number => {
    at++;
    while (at < end) {
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        at++;
        return -1;
      }
      if (c < 0x20) return at;
      if (c !== 0x5c) {
        at++;
        continue;
      }
      at++;
      if (at >= end) return end;
      if (text[at] === 'u') {
        for (let digit = 1; digit <= 4; digit++) {
          if (at + digit >= end) return end;
          if (!isHex(text.charCodeAt(at + digit))) return at + digit;
        }
        at += 5;
      } else if (SIMPLE_ESCAPES.includes(text[at]!)) at++;
      else return at;
    }
    return end;
  };
  const digits = (): number => {
    if (!isDigit(code())) return at < end ? at : end;
    while (isDigit(code())) at++;
    return -1;
  };
  const number = (): number => {
    if (code() === 0x2d) at++;
    if (code() === 0x30) at++;
    else {
      const error = digits();
      if (error >= 0) return error;
    }
    if (code() === 0x2e) {
      at++;
      const error = digits();
      if (error >= 0) return error;
    }
    if (code() === 0x65 || code() === 0x45) {
      at++;
      if (code() === 0x2b || code() === 0x2d) at++;
      const error = digits();
      if (error >= 0) return error;
    }
    return -1;
  };
  const literal = (word: string): number => {
    for (const char of word) {
      if (at >= end) return end;
      if (text[at] !== char) return at;
      at++;
    }
    return -1;
  };
  /** `"name" :` of an object member. */
  const key = (): number => {
    if (at >= end) return end;
    if (code() !== 0x22) return at;
    const error = string();
    if (error >= 0) return error;
    skipSpace();
    if (at >= end) return end;
    if (code() !== 0x3a) return at;
    at++;
    return -1;
  };

  let wantValue = true;
  for (;;) {
    skipSpace();
    if (wantValue) {
      if (at >= end) return end;
      const c = code();
      if (c === 0x7b || c === 0x5b) {
        at++;
        skipSpace();
        // An empty object or list is a whole value.
        if (code() === (c === 0x7b ? 0x7d : 0x5d)) {
          at++;
          wantValue = false;
          continue;
        }
        open.push(c);
        if (c === 0x7b) {
          const error = key();
          if (error >= 0) return error;
        }
        continue;
      }
      const error = c === 0x22 ? string() : c === 0x2d || isDigit(c) ? number() : c === 0x74 ? literal('true') : c === 0x66 ? literal('false') : c === 0x6e ? literal('null') : at;
      if (error >= 0) return error;
      wantValue = false;
      continue;
    }
    const container = open[open.length - 1];
    if (container === undefined) return at < end ? at : undefined;
    if (at >= end) return end;
    const c = code();
    if (c === 0x2c) {
      at++;
      if (container === 0x7b) {
        skipSpace();
        const error = key();
        if (error >= 0) return error;
      }
      wantValue = true;
      continue;
    }
    if (c === (container === 0x7b ? 0x7d : 0x5d)) {
      at++;
      open.pop();
      continue;
    }
    return at;
  }
}

/** 1-based line and column of an offset (lines end at \n; columns count UTF-16 code units). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Why a request body that JSON.parse refused is not JSON, with where, never quoting it. */
export function malformedJsonDetail(text: string): string {
  const offset = jsonErrorOffset(text) ?? text.length;
  const { line, column } = lineAndColumn(text, offset);
  return offset >= text.length
    ? `the request body is not valid JSON: it ends before the JSON is complete (line ${line}, column ${column})`
    : `the request body is not valid JSON (line ${line}, column ${column})`;
}
