/**
 * A file of several X12 interchanges, each read with the project's reader (x12.ts: separators
 * from its own ISA, envelope counts and control numbers checked). Carriers batch their 214s: one
 * file, many ISA ... IEA, each free to use other separators. Pure.
 *
 * The file is cut at each interchange's IEA (found with that interchange's own separators), and
 * every line and column reported is the file's, not the piece's.
 */
import { readX12Interchange, type X12Interchange, type X12Issue, type X12ReadSegment } from './x12.js';

export type X12InterchangesRead = { interchanges: X12Interchange[]; errors: X12Issue[]; warnings: X12Issue[] };

const isLineBreak = (character: string | undefined) => character === '\r' || character === '\n';

/**
 * Separators of the ISA starting at `start`: the element separator (4th character) and the
 * terminator (after ISA16), line breaks skipped where a file wrapped at a fixed width put them. A
 * line break right after ISA16 followed by the GS is the terminator itself.
 */
function terminatorOf(text: string, start: number): { element: string; segment: string } | null {
  const element = text[start + 3];
  if (element === undefined || /[A-Za-z0-9\s]/.test(element)) return null;
  let cursor = start + 3;
  for (let count = 1; count < 16; count += 1) {
    cursor = text.indexOf(element, cursor + 1);
    if (cursor === -1) return null;
  }
  let index = cursor + 1;
  while (isLineBreak(text[index])) index += 1;
  index += 1; // the sub-element separator
  if (isLineBreak(text[index])) {
    let next = index;
    while (isLineBreak(text[next])) next += 1;
    if (/[A-Z]/.test(text[next] ?? '')) return { element, segment: text[index]! };
    index = next;
  }
  const segment = text[index];
  return segment === undefined ? null : { element, segment };
}

/** Where the interchange starting at `start` ends (after its IEA's terminator); the file's end when it has none. */
function endOf(text: string, start: number): number {
  const separators = terminatorOf(text, start);
  if (!separators) return text.length;
  const { element, segment } = separators;
  let offset = start;
  for (;;) {
    const next = text.indexOf(segment, offset);
    if (next === -1) return text.length;
    const tagStart = next + segment.length;
    let cursor = tagStart;
    while (cursor < text.length && /\s/.test(text[cursor]!) && text[cursor] !== segment) cursor += 1;
    if (text.startsWith(`IEA${element}`, cursor)) {
      const end = text.indexOf(segment, cursor);
      return end === -1 ? text.length : end + segment.length;
    }
    // A second ISA before this one's IEA: this interchange is cut short; the reader says so.
    if (text.startsWith(`ISA${element}`, cursor) || text.startsWith('ISA', cursor)) return cursor;
    offset = tagStart;
  }
}

/** A line break after anything but the terminator (or another line break) is inside a segment. */
function breaksInsideSegments(piece: string, terminator: string): boolean {
  const escaped = terminator.replace(/[\\^\]-]/g, '\\$&');
  return new RegExp(`[^${escaped}\\r\\n][\\r\\n]`).test(piece);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1) if (text[index] === '\n') starts.push(index + 1);
  return starts;
}

function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

export function readX12Interchanges(input: string): X12InterchangesRead {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const starts = lineStarts(text);
  const interchanges: X12Interchange[] = [];
  const errors: X12Issue[] = [];
  const warnings: X12Issue[] = [];
  let offset = 0;
  while (offset < text.length) {
    while (offset < text.length && /\s/.test(text[offset]!)) offset += 1;
    if (offset >= text.length) break;
    const end = endOf(text, offset);
    const base = positionAt(starts, offset);
    // Positions in the piece -> positions in the file.
    // Line breaks are layout when they are not the terminator: dropped, and positions mapped back.
    const piece = text.slice(offset, end);
    const terminator = terminatorOf(text, offset)?.segment;
    const unwrap = terminator !== undefined && !isLineBreak(terminator) && breaksInsideSegments(piece.trimEnd(), terminator);
    const kept: number[] = [];
    if (unwrap) for (let index = 0; index < piece.length; index += 1) if (!isLineBreak(piece[index])) kept.push(index);
    const shift = <T extends { line: number; column: number }>(item: T): T => {
      if (unwrap) {
        const position = positionAt(starts, offset + (kept[item.column - 1] ?? piece.length - 1));
        item.line = position.line;
        item.column = position.column;
        return item;
      }
      if (item.line === 1) item.column += base.column - 1;
      item.line += base.line - 1;
      return item;
    };
    const result = readX12Interchange(unwrap ? kept.map((index) => piece[index]).join('') : piece);
    if (!result.ok) {
      // One push per item: spreading a list of 100,000 into push() overflows the stack.
      for (const error of result.errors) errors.push(shift(error));
      if (!text.startsWith('ISA', offset)) break; // not an interchange: nothing after it can be trusted to start one
    } else {
      const { interchange } = result;
      const segments: X12ReadSegment[] = [interchange.isa, interchange.iea];
      for (const group of interchange.groups) {
        segments.push(group.gs, group.ge);
        for (const set of group.transactionSets) {
          segments.push(set.st, set.se);
          for (const segment of set.segments) segments.push(segment);
        }
      }
      // The same segment objects may appear twice (a GE standing in for a missing SE): shift each once.
      new Set(segments).forEach(shift);
      interchanges.push(interchange);
      for (const warning of result.warnings) warnings.push(shift(warning));
    }
    offset = end;
  }
  if (interchanges.length === 0 && errors.length === 0) errors.push({ message: 'the file is empty: an interchange starts with an ISA segment', line: 1, column: 1 });
  return { interchanges, errors, warnings };
}
