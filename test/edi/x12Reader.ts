/**
 * Reads the X12 the writers produce with node-x12, a published X12 parser (strict mode: it checks
 * the ISA's 106 characters and the SE/GE/IEA counts and control numbers and throws otherwise),
 * plus envelope checks done here on the raw text, independently of both writer and parser.
 */
import { X12Parser } from 'node-x12';
import { expect } from 'vitest';

export interface ParsedSegment {
  tag: string;
  /** Element values; index 0 is element 01. */
  elements: string[];
}

export interface ParsedInterchange {
  isa: string[];
  gs: string[];
  st: string[];
  /** Between ST and SE. */
  body: ParsedSegment[];
  se: string[];
  ge: string[];
  iea: string[];
}

const values = (segment: { elements: Array<{ value: string }> }): string[] => segment.elements.map((element) => element.value);

/** Parses with node-x12 (strict) and checks the envelope on the raw text; fails the test otherwise. */
export function parseX12(
  text: string,
  expected: { interchangeControlNumber: number; groupControlNumber: number; transactionSet: string; functionalId: string },
): ParsedInterchange {
  const interchange = new X12Parser(true).parse(text) as unknown as {
    header: { elements: Array<{ value: string }> };
    trailer: { elements: Array<{ value: string }> };
    functionalGroups: Array<{
      header: { elements: Array<{ value: string }> };
      trailer: { elements: Array<{ value: string }> };
      transactions: Array<{
        header: { elements: Array<{ value: string }> };
        trailer: { elements: Array<{ value: string }> };
        segments: Array<{ tag: string; elements: Array<{ value: string }> }>;
      }>;
    }>;
  };
  expect(interchange.functionalGroups).toHaveLength(1);
  const group = interchange.functionalGroups[0]!;
  expect(group.transactions).toHaveLength(1);
  const transaction = group.transactions[0]!;
  const parsed: ParsedInterchange = {
    isa: values(interchange.header),
    gs: values(group.header),
    st: values(transaction.header),
    body: transaction.segments.map((segment) => ({ tag: segment.tag, elements: values(segment) })),
    se: values(transaction.trailer),
    ge: values(group.trailer),
    iea: values(interchange.trailer),
  };

  // Independently of the parser: the raw ISA, the counts and the control numbers.
  const separator = text[3]!;
  const terminator = text[105]!;
  expect(text.slice(0, 3)).toBe('ISA');
  expect(text.slice(0, 106).split(separator)).toHaveLength(17);
  const raw = text
    .split(terminator)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '');
  const tags = raw.map((segment) => segment.split(separator)[0]);
  expect(tags[0]).toBe('ISA');
  expect(tags.slice(1, 3)).toEqual(['GS', 'ST']);
  expect(tags.slice(-3)).toEqual(['SE', 'GE', 'IEA']);
  const isa13 = raw[0]!.split(separator)[13];
  expect(isa13).toBe(String(expected.interchangeControlNumber).padStart(9, '0'));
  expect(raw.at(-1)).toBe(['IEA', '1', isa13].join(separator));
  expect(raw.at(-2)).toBe(['GE', '1', String(expected.groupControlNumber)].join(separator));
  expect(raw[1]!.split(separator)[6]).toBe(String(expected.groupControlNumber));
  expect(raw[1]!.split(separator)[1]).toBe(expected.functionalId);
  expect(raw[1]!.split(separator)[8]).toBe('004010');
  const st = raw[2]!.split(separator);
  expect(st[1]).toBe(expected.transactionSet);
  // SE01: ST through SE; SE02 = ST02.
  expect(raw.at(-3)).toBe(['SE', String(raw.length - 4), st[2]].join(separator));
  return parsed;
}

/** The body's segments cut into groups, each starting at a segment with `tag`. */
export function groupsStartingAt(body: ParsedSegment[], tag: string, until?: string): ParsedSegment[][] {
  const groups: ParsedSegment[][] = [];
  for (const segment of body) {
    if (until && segment.tag === until) break;
    if (segment.tag === tag) groups.push([segment]);
    else if (groups.length > 0) groups.at(-1)!.push(segment);
  }
  return groups;
}

export const find = (segments: ParsedSegment[], tag: string): ParsedSegment | undefined => segments.find((segment) => segment.tag === tag);
export const findAll = (segments: ParsedSegment[], tag: string): ParsedSegment[] => segments.filter((segment) => segment.tag === tag);
export const el = (segment: ParsedSegment | undefined, position: number): string => segment?.elements[position - 1] ?? '';
