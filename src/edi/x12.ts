/**
 * ASC X12 (version 004010) writing and reading: segments, separators, the ISA with its fixed
 * widths, the GS/ST/SE/GE/IEA envelope with its counts and control numbers, and a tokenizer that
 * takes the separators from the ISA and keeps every segment's line and column (for the freight
 * bills (210) the audit reads). Pure: strings in, strings or structures out.
 *
 * X12 has no escape character: a separator inside a value would split it. Values are converted to
 * the X12 character set (text.ts) and a value that still contains one of the interchange's
 * separators is refused with its field named, so that nothing is silently changed.
 */
import type { Violation } from '../domain/schemas.js';
import { digitCount, formatDecimal, splitText, toX12Text } from './text.js';
import type { X12InterchangeSettings, X12Separators } from './settings.js';
import { checkElementLengths, X12_ELEMENTS, type X12ElementId } from './x12Elements.js';
import type { X12Segment } from './x12Types.js';

/** A segment to write: its tag, then its elements (index 0 is element 01). */
export type { X12Segment } from './x12Types.js';

const SEPARATOR_ROLES: ReadonlyArray<[keyof X12Separators, string]> = [
  ['element', 'element'],
  ['segment', 'segment'],
  ['subElement', 'sub-element'],
];

// ---------------------------------------------------------------------------------------------
// Element values

/**
 * Turns shipment values into element values, collecting one violation per value that cannot be
 * written (a character outside the X12 set, a separator, a length the element cannot hold), with
 * the shipment field it came from. Lengths come from the element table (x12Elements.ts).
 */
export class X12ElementWriter {
  readonly violations: Violation[] = [];

  constructor(readonly separators: X12Separators) {}

  fail(field: string, message: string): void {
    if (!this.violations.some((violation) => violation.field === field && violation.reason === message)) this.violations.push({ field, reason: message });
  }

  /** The value in the X12 character set, checked for separators; '' when absent or unwritable. */
  private convert(value: string | null | undefined, field: string): string {
    if (value === null || value === undefined) return '';
    const converted = toX12Text(value);
    if (!converted.ok) {
      this.fail(
        field,
        `${converted.unwritable.map((character) => JSON.stringify(character)).join(', ')} cannot be written in X12 (printable ASCII; accented Latin, Greek and Cyrillic letters are transliterated)`,
      );
      return '';
    }
    for (const [key, role] of SEPARATOR_ROLES) {
      const separator = this.separators[key];
      if (converted.text.includes(separator)) {
        this.fail(field, `contains ${JSON.stringify(separator)}, the X12 ${role} separator: choose other separators in the X12 settings`);
        return '';
      }
    }
    return converted.text;
  }

  /** One element of text, within the element's lengths. */
  text(value: string | null | undefined, field: string, element: X12ElementId, options: { required?: boolean } = {}): string {
    const { min, max } = X12_ELEMENTS[element];
    const text = this.convert(value, field);
    if (text === '') {
      if (options.required && (value === null || value === undefined || value.trim() === '')) this.fail(field, `is required for ${element}`);
      return '';
    }
    if (text.length > max) {
      this.fail(field, `has ${text.length} characters; ${element} holds at most ${max}`);
      return '';
    }
    if (text.length < min) {
      this.fail(field, `has ${text.length} characters; ${element} needs at least ${min}`);
      return '';
    }
    return text;
  }

  /** Text cut at a space to the element's maximum when longer (`cut` says so); '' when absent or unwritable. */
  shortened(value: string | null | undefined, field: string, element: X12ElementId): { text: string; cut: boolean } {
    const { max } = X12_ELEMENTS[element];
    const text = this.convert(value, field);
    if (text.length <= max) return { text, cut: false };
    return { text: splitText(text, max)[0]!, cut: true };
  }

  /**
   * Text spread over repeated elements (or segments) of the element's maximum, split at spaces; at
   * most `maxPieces`. `where` names the places in messages (`N102 and N201/N202`).
   */
  pieces(value: string | null | undefined, field: string, element: X12ElementId, maxPieces: number, where: string = element): string[] {
    const width = X12_ELEMENTS[element].max;
    const text = this.convert(value, field);
    if (text === '') return [];
    const pieces = splitText(text, width);
    if (pieces.length > maxPieces) {
      this.fail(field, `is too long for ${where}: at most ${maxPieces} pieces of ${width} characters (about ${maxPieces * width} characters)`);
      return [];
    }
    return pieces;
  }

  /** A decimal (type R) of at most the element's digits, two decimals at most. */
  decimal(value: number, field: string, element: X12ElementId): string {
    const maxDigits = X12_ELEMENTS[element].max;
    if (!Number.isFinite(value) || value < 0 || value >= 10 ** maxDigits) {
      this.fail(field, `${value} does not fit ${element} (at most ${maxDigits} digits)`);
      return '';
    }
    // Two decimals when they fit, whole units when they do not; a positive value never reads 0.
    let text = formatDecimal(Math.max(value, value > 0 ? 0.01 : 0));
    if (digitCount(text) > maxDigits) text = String(Math.round(value));
    if (digitCount(text) > maxDigits) {
      this.fail(field, `${value} does not fit ${element} (at most ${maxDigits} digits)`);
      return '';
    }
    return text;
  }

  /** Whole number (type N0) of the element's digits. */
  integer(value: number, field: string, element: X12ElementId): string {
    const { min, max } = X12_ELEMENTS[element];
    if (!Number.isInteger(value) || value < 0 || String(value).length > max) {
      this.fail(field, `${value} does not fit ${element} (a whole number of at most ${max} digits)`);
      return '';
    }
    // N2 and N0 elements with a minimum above 1 (L314: 2 digits) are padded with leading zeros.
    return String(value).padStart(min, '0');
  }

  /** Money as X12 type N2 (two implied decimals): the number of cents. */
  cents(amountInCents: number, field: string, element: X12ElementId): string {
    return this.integer(amountInCents, field, element);
  }

  /**
   * The last line of defence: every element of the segments against the table. What the writers
   * checked by field already passes; anything else is named by its element.
   */
  checkLengths(segments: readonly X12Segment[]): void {
    for (const violation of checkElementLengths(segments)) this.fail(violation.field, violation.reason);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing an interchange

export interface X12ControlNumbers {
  /** ISA13/IEA02, 1 to 999999999; never reused with the same partner. */
  interchangeControlNumber: number;
  /** GS06/GE02, 1 to 999999999. */
  groupControlNumber: number;
}

export interface X12TransactionSetBody {
  /** ST01, e.g. "204". */
  transactionSetId: string;
  /** GS01: "SM" for a 204, "BL" for a 211. */
  functionalId: string;
  /** The segments between ST and SE. */
  segments: readonly X12Segment[];
}

const CONTROL_NUMBER_MAX = 999_999_999;

function checkControlNumber(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1 || value > CONTROL_NUMBER_MAX) {
    throw new RangeError(`${name} must be a whole number from 1 to ${CONTROL_NUMBER_MAX}, got ${value}`);
  }
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * One interchange (ISA ... IEA) holding one functional group with one transaction set, written
 * with the settings' separators and ids. `createdAt` gives the ISA/GS date and time (UTC).
 */
export function writeX12Interchange(input: { settings: X12InterchangeSettings; control: X12ControlNumbers; createdAt: Date; body: X12TransactionSetBody }): string {
  const { settings, control, createdAt, body } = input;
  checkControlNumber('interchangeControlNumber', control.interchangeControlNumber);
  checkControlNumber('groupControlNumber', control.groupControlNumber);
  if (Number.isNaN(createdAt.getTime())) throw new RangeError('createdAt is not a valid date');
  const { separators } = settings;
  const year = createdAt.getUTCFullYear();
  const date8 = `${year}${pad2(createdAt.getUTCMonth() + 1)}${pad2(createdAt.getUTCDate())}`;
  const time4 = `${pad2(createdAt.getUTCHours())}${pad2(createdAt.getUTCMinutes())}`;
  const interchangeNumber = String(control.interchangeControlNumber).padStart(9, '0');
  const transactionSetControlNumber = '0001';

  const isa: X12Segment = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    settings.senderQualifier,
    settings.senderId.padEnd(15, ' '),
    settings.receiverQualifier,
    settings.receiverId.padEnd(15, ' '),
    date8.slice(2),
    time4,
    'U',
    '00401',
    interchangeNumber,
    settings.acknowledgmentRequested ? '1' : '0',
    settings.usage === 'test' ? 'T' : 'P',
    separators.subElement,
  ];
  const transactionSet: X12Segment[] = [['ST', body.transactionSetId, transactionSetControlNumber], ...body.segments];
  const segments: X12Segment[] = [
    isa,
    [
      'GS',
      body.functionalId,
      settings.applicationSenderCode ?? settings.senderId,
      settings.applicationReceiverCode ?? settings.receiverId,
      date8,
      time4,
      String(control.groupControlNumber),
      'X',
      '004010',
    ],
    ...transactionSet,
    // SE01 counts the segments of the set, ST and SE included.
    ['SE', String(transactionSet.length + 1), transactionSetControlNumber],
    ['GE', '1', String(control.groupControlNumber)],
    ['IEA', '1', interchangeNumber],
  ];
  const lineBreak = settings.lineBreak === 'crlf' ? '\r\n' : settings.lineBreak === 'lf' ? '\n' : '';
  return segments.map((segment, index) => renderSegment(segment, separators, index === 0) + separators.segment + lineBreak).join('');
}

/** Elements joined by the element separator; trailing empty elements are left out (except in the ISA). */
export function renderSegment(segment: X12Segment, separators: X12Separators, keepEmpty = false): string {
  const parts = [...segment];
  if (!keepEmpty) while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  for (const [index, part] of parts.entries()) {
    // The ISA16 element is the sub-element separator itself.
    if (keepEmpty && index === 16) continue;
    for (const [key] of SEPARATOR_ROLES) {
      if (part.includes(separators[key])) throw new Error(`internal: ${segment[0]}${pad2(index)} contains the ${key} separator`);
    }
  }
  return parts.join(separators.element);
}

// ---------------------------------------------------------------------------------------------
// Reading an interchange

export interface X12Delimiters {
  element: string;
  subElement: string;
  segment: string;
  /** ISA11 from version 00402 on; 004010 has none. */
  repetition: string | null;
}

/** A segment as read: tag, elements (index 0 is element 01), where it starts (1-based). */
export interface X12ReadSegment {
  tag: string;
  elements: string[];
  line: number;
  column: number;
  /** 0-based position of the segment in the file. */
  index: number;
}

export interface X12Issue {
  message: string;
  line: number;
  column: number;
  /** The segment's tag, when the issue belongs to one. */
  segment?: string;
}

export type X12TokenizeResult = { ok: true; delimiters: X12Delimiters; segments: X12ReadSegment[]; warnings: X12Issue[] } | { ok: false; errors: X12Issue[] };

/** Element `position` (1-based, as in "SE01") of a segment; '' when absent. */
export function elementOf(segment: X12ReadSegment, position: number): string {
  return segment.elements[position - 1] ?? '';
}

/** The components of a composite element. */
export function componentsOf(value: string, delimiters: X12Delimiters): string[] {
  return value.split(delimiters.subElement);
}

const ISA_LENGTH = 106;
const ISA_ELEMENT_COUNT = 16;
const LINE_BREAK = /[\r\n]/;

/** Position (line, column; 1-based) of every offset, computed once per file. */
function positionFinder(text: string): (offset: number) => { line: number; column: number } {
  const lineStarts = [0];
  for (let index = 0; index < text.length; index += 1) if (text[index] === '\n') lineStarts.push(index + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
}

/**
 * Splits an interchange into segments. The separators come from the ISA: the element separator
 * is its 4th character, the sub-element separator its 16th element, the segment terminator the
 * character after it. Line breaks between segments (LF or CRLF) are allowed. An ISA that is not
 * exactly 106 characters is read (some senders pad it wrongly) with a warning.
 */
export function tokenizeX12(input: string): X12TokenizeResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const positionOf = positionFinder(text);
  let start = 0;
  while (start < text.length && /\s/.test(text[start]!)) start += 1;
  const issueAt = (offset: number, message: string, segment?: string): X12Issue => ({ message, ...positionOf(offset), ...(segment ? { segment } : {}) });

  if (!text.startsWith('ISA', start)) {
    return {
      ok: false,
      errors: [issueAt(start, start >= text.length ? 'the file is empty: an interchange starts with an ISA segment' : 'an interchange starts with an ISA segment')],
    };
  }
  const element = text[start + 3];
  if (element === undefined || /[A-Za-z0-9\s]/.test(element)) {
    return { ok: false, errors: [issueAt(start, `truncated ISA: an ISA segment is ${ISA_LENGTH} characters, this one ends after ${text.length - start}`, 'ISA')] };
  }
  let cursor = start + 3;
  for (let count = 1; count < ISA_ELEMENT_COUNT; count += 1) {
    const next = text.indexOf(element, cursor + 1);
    const lineBreak = text.slice(cursor + 1, next === -1 ? undefined : next).search(LINE_BREAK);
    if (next === -1 || lineBreak !== -1) {
      return {
        ok: false,
        errors: [issueAt(start, `truncated ISA: an ISA segment has ${ISA_ELEMENT_COUNT} elements and is ${ISA_LENGTH} characters, this one ends after ${count} elements`, 'ISA')],
      };
    }
    cursor = next;
  }
  const subElement = text[cursor + 1];
  const segment = text[cursor + 2];
  if (subElement === undefined || segment === undefined) {
    return { ok: false, errors: [issueAt(start, `truncated ISA: an ISA segment is ${ISA_LENGTH} characters, this one ends after ${text.length - start}`, 'ISA')] };
  }
  if (/[A-Za-z0-9 ]/.test(segment) || segment === element || segment === subElement || subElement === element) {
    return {
      ok: false,
      errors: [issueAt(start, `the ISA does not end with a segment terminator after ISA16 (found ${JSON.stringify(segment)}): the ISA is damaged or truncated`, 'ISA')],
    };
  }
  const warnings: X12Issue[] = [];
  const isaLength = cursor + 3 - start;
  if (isaLength !== ISA_LENGTH) warnings.push(issueAt(start, `the ISA is ${isaLength} characters, not the fixed ${ISA_LENGTH}: its fields are padded wrongly`, 'ISA'));
  const version = text.slice(start, cursor).split(element)[12] ?? '';
  const isa11 = text.slice(start, cursor).split(element)[11] ?? '';
  const repetition = version >= '00402' && isa11.length === 1 && !/[A-Za-z0-9 ]/.test(isa11) ? isa11 : null;
  const delimiters: X12Delimiters = { element, subElement, segment, repetition };

  const segments: X12ReadSegment[] = [];
  const errors: X12Issue[] = [];
  let offset = start;
  while (offset < text.length) {
    // Line breaks (and stray spaces) between segments are layout, unless they are the terminator.
    while (offset < text.length && text[offset] !== segment && /\s/.test(text[offset]!)) offset += 1;
    if (offset >= text.length) break;
    const end = text.indexOf(segment, offset);
    const raw = end === -1 ? text.slice(offset) : text.slice(offset, end);
    const parts = raw.split(element);
    const tag = parts[0]!;
    if (end === -1) {
      errors.push(
        issueAt(
          offset,
          `the file ends inside the segment ${JSON.stringify(raw.slice(0, 40))}: no segment terminator ${JSON.stringify(segment)} after it`,
          /^[A-Z][A-Z0-9]{1,2}$/.test(tag) ? tag : undefined,
        ),
      );
      break;
    }
    if (!/^[A-Z][A-Z0-9]{1,2}$/.test(tag)) {
      errors.push(issueAt(offset, `${JSON.stringify(raw.slice(0, 20))} does not start with a segment tag (2 or 3 capitals and digits)`));
    }
    segments.push({ tag, elements: parts.slice(1), ...positionOf(offset), index: segments.length });
    offset = end + segment.length;
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, delimiters, segments, warnings };
}

export interface X12TransactionSet {
  st: X12ReadSegment;
  se: X12ReadSegment;
  /** The segments between ST and SE. */
  segments: X12ReadSegment[];
}
export interface X12FunctionalGroup {
  gs: X12ReadSegment;
  ge: X12ReadSegment;
  transactionSets: X12TransactionSet[];
}
export interface X12Interchange {
  delimiters: X12Delimiters;
  isa: X12ReadSegment;
  iea: X12ReadSegment;
  groups: X12FunctionalGroup[];
}

/**
 * The most segments (ST and SE included) a transaction set may have: one shipment's 214 or one
 * freight bill's 210 has tens; a set beyond this is refused with its line (docs/x12.md).
 */
export const MAX_X12_SET_SEGMENTS = 10_000;

export type X12ReadResult = { ok: true; interchange: X12Interchange; warnings: X12Issue[] } | { ok: false; errors: X12Issue[] };

/**
 * Reads one interchange and checks its envelope: ISA/IEA, GS/GE and ST/SE pairs, IEA01 (groups),
 * GE01 (transaction sets), SE01 (segments, ST and SE included) and the control numbers that must
 * match (ISA13 = IEA02, GS06 = GE02, ST02 = SE02). Every problem found is reported with its line.
 */
export function readX12Interchange(text: string): X12ReadResult {
  const tokens = tokenizeX12(text);
  if (!tokens.ok) return tokens;
  const { segments, delimiters } = tokens;
  const errors: X12Issue[] = [];
  const issue = (segment: X12ReadSegment, message: string): void => {
    errors.push({ message, line: segment.line, column: segment.column, segment: segment.tag });
  };
  const isa = segments[0]!;
  const groups: X12FunctionalGroup[] = [];
  let iea: X12ReadSegment | null = null;
  let group: { gs: X12ReadSegment; transactionSets: X12TransactionSet[] } | null = null;
  // `beyond`: segments past MAX_X12_SET_SEGMENTS, counted (for SE01) and not kept.
  let set: { st: X12ReadSegment; segments: X12ReadSegment[]; beyond: number } | null = null;

  for (const segment of segments.slice(1)) {
    if (iea) {
      issue(segment, `${segment.tag} after the IEA: one interchange per file`);
      break;
    }
    switch (segment.tag) {
      case 'ISA':
        issue(segment, 'a second ISA before the IEA of the first interchange');
        break;
      case 'GS':
        if (set) issue(segment, `GS inside the transaction set ${elementOf(set.st, 2)} (line ${set.st.line}): its SE is missing`);
        if (group) issue(segment, `GS inside the functional group ${elementOf(group.gs, 6)} (line ${group.gs.line}): its GE is missing`);
        group = { gs: segment, transactionSets: [] };
        set = null;
        break;
      case 'ST':
        if (!group) issue(segment, 'ST outside a functional group (no GS before it)');
        if (set) issue(segment, `ST inside the transaction set ${elementOf(set.st, 2)} (line ${set.st.line}): its SE is missing`);
        set = { st: segment, segments: [], beyond: 0 };
        break;
      case 'SE': {
        if (!set) {
          issue(segment, 'SE without an ST');
          break;
        }
        const counted = set.segments.length + set.beyond + 2;
        if (elementOf(segment, 1) !== String(counted)) {
          issue(segment, `SE01 says ${JSON.stringify(elementOf(segment, 1))} segments; the transaction set ${elementOf(set.st, 2)} has ${counted} (ST and SE included)`);
        }
        if (elementOf(segment, 2) !== elementOf(set.st, 2)) {
          issue(segment, `SE02 ${JSON.stringify(elementOf(segment, 2))} does not match ST02 ${JSON.stringify(elementOf(set.st, 2))}`);
        }
        group?.transactionSets.push({ st: set.st, se: segment, segments: set.segments });
        set = null;
        break;
      }
      case 'GE': {
        if (!group) {
          issue(segment, 'GE without a GS');
          break;
        }
        if (set) {
          issue(segment, `GE inside the transaction set ${elementOf(set.st, 2)} (line ${set.st.line}): its SE is missing`);
          // Counted, so that the missing SE is the one error reported.
          group.transactionSets.push({ st: set.st, se: segment, segments: set.segments });
          set = null;
        }
        if (elementOf(segment, 1) !== String(group.transactionSets.length)) {
          issue(segment, `GE01 says ${JSON.stringify(elementOf(segment, 1))} transaction sets; the group has ${group.transactionSets.length}`);
        }
        if (Number(elementOf(segment, 2)) !== Number(elementOf(group.gs, 6)) || elementOf(segment, 2) === '') {
          issue(segment, `GE02 ${JSON.stringify(elementOf(segment, 2))} does not match GS06 ${JSON.stringify(elementOf(group.gs, 6))}`);
        }
        groups.push({ gs: group.gs, ge: segment, transactionSets: group.transactionSets });
        group = null;
        break;
      }
      case 'IEA':
        if (set) issue(segment, `IEA inside the transaction set ${elementOf(set.st, 2)} (line ${set.st.line}): its SE is missing`);
        if (group) issue(segment, `IEA inside the functional group ${elementOf(group.gs, 6)} (line ${group.gs.line}): its GE is missing`);
        if (elementOf(segment, 1) !== String(groups.length)) {
          issue(segment, `IEA01 says ${JSON.stringify(elementOf(segment, 1))} functional groups; the interchange has ${groups.length}`);
        }
        if (elementOf(segment, 2) !== elementOf(isa, 13)) {
          issue(segment, `IEA02 ${JSON.stringify(elementOf(segment, 2))} does not match ISA13 ${JSON.stringify(elementOf(isa, 13))}`);
        }
        iea = segment;
        break;
      default:
        if (!set) issue(segment, `${segment.tag} outside a transaction set (between ST and SE)`);
        else if (set.segments.length + 2 < MAX_X12_SET_SEGMENTS) set.segments.push(segment);
        else {
          // Said once, at the first segment over the bound; the set is refused, the reading goes on to its SE.
          if (set.beyond === 0) {
            issue(
              segment,
              `the transaction set ${elementOf(set.st, 2)} (line ${set.st.line}) has more than ${MAX_X12_SET_SEGMENTS.toLocaleString('en-US')} segments (ST and SE included), more than one shipment's status or bill ever needs: refused`,
            );
          }
          set.beyond += 1;
        }
    }
  }
  if (!iea) {
    const last = segments[segments.length - 1]!;
    errors.push({ message: 'the interchange has no IEA: the file is truncated', line: last.line, column: last.column, segment: last.tag });
  }
  if (errors.length > 0 || !iea) return { ok: false, errors };
  return { ok: true, interchange: { delimiters, isa, iea, groups }, warnings: tokens.warnings };
}
