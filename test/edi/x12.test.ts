/**
 * The X12 module itself: text for elements, the settings' rules, and reading an interchange (the
 * audit of issue 17 reads carriers' 210 freight bills with it): separators from the ISA, line
 * breaks between segments, positions for errors, broken files.
 */
import { describe, expect, it } from 'vitest';
import { splitText, toX12Text } from '../../src/edi/text.js';
import { x12InterchangeSettingsSchema } from '../../src/edi/settings.js';
import { elementOf, readX12Interchange, tokenizeX12, componentsOf } from '../../src/edi/x12.js';
import { writeX12LoadTender } from '../../src/edi/x12-204.js';
import { CREATED_AT, fullShipment, x12Settings } from './fixtures.js';

/**
 * A 210 Motor Carrier Freight Details and Invoice (004010) as a carrier sends it, written by hand
 * after the segment layout of carriers' published 210 guides (B3, C3, N9, G62, N1 loops, LX/L5/L0/
 * L1/L7 detail, L3 totals): linehaul, discount, fuel and a liftgate charge adding up to the total.
 */
const INVOICE_210 = [
  'ISA*00*          *00*          *02*RLCA           *ZZ*SHIPPERCO      *261201*0930*U*00401*000004711*0*P*>~',
  'GS*IM*RLCA*SHIPPERCO*20261201*0930*4711*X*004010~',
  'ST*210*0001~',
  'B3**I7204815*06141410000001231*PP*L*20261201*52375****RLCA~',
  'C3*USD~',
  'N9*BM*06141410000001231~',
  'N9*PO*PO-7781~',
  'N9*CN*72048150~',
  'G62*86*20261123~',
  'N1*SH*MIDWEST FIXTURES INC.~',
  'N3*1200 W LAKE ST~',
  'N4*CHICAGO*IL*60607*US~',
  'N1*CN*ATLANTA RETAIL DISTRIBUTION~',
  'N3*455 FULTON INDUSTRIAL BLVD SW~',
  'N4*ATLANTA*GA*30336*US~',
  'N1*BT*MIDWEST FIXTURES INC.~',
  'N3*1200 W LAKE ST~',
  'N4*CHICAGO*IL*60607*US~',
  'LX*1~',
  'L5*1*STEEL SHELVING UNITS*61680*N~',
  'L0*1*1250*FR*1250*G***2*PLT**L~',
  'L1*1*41.60*PH*52000~',
  'L7*1******100~',
  'LX*2~',
  'L1*2***-15600****DSC~',
  'LX*3~',
  'L1*3***10725****FUE~',
  'LX*4~',
  'L1*4***5250****LFT~',
  'L3*1250*G***52375******2*L~',
  'SE*29*0001~',
  'GE*1*4711~',
  'IEA*1*000004711~',
];

const joined = (rows: string[], lineBreak: string) => rows.join(lineBreak) + lineBreak;

function read(text: string) {
  const result = readX12Interchange(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe('reading an X12 interchange', () => {
  it('a 210 with one segment per line: envelope, transaction set, elements and positions', () => {
    const { interchange, warnings } = read(joined(INVOICE_210, '\n'));
    expect(warnings).toEqual([]);
    expect(interchange.delimiters).toEqual({ element: '*', subElement: '>', segment: '~', repetition: null });
    expect(interchange.groups).toHaveLength(1);
    const [set] = interchange.groups[0]!.transactionSets;
    expect(elementOf(set!.st, 1)).toBe('210');
    expect(set!.segments).toHaveLength(27);
    const b3 = set!.segments[0]!;
    expect([b3.tag, elementOf(b3, 2), elementOf(b3, 3), elementOf(b3, 7), elementOf(b3, 11)]).toEqual(['B3', 'I7204815', '06141410000001231', '52375', 'RLCA']);
    // Line and column of each segment, for the audit's messages.
    const l3 = set!.segments.find((segment) => segment.tag === 'L3')!;
    expect([l3.line, l3.column]).toEqual([30, 1]);
    const charges = set!.segments.filter((segment) => segment.tag === 'L1').map((segment) => Number(elementOf(segment, 4)));
    expect(charges.reduce((sum, charge) => sum + charge, 0)).toBe(Number(elementOf(l3, 5)));
    expect(elementOf(b3, 40)).toBe('');
  });

  it('the same file with CRLF, with no line breaks, and with other separators read alike', () => {
    const reference = read(joined(INVOICE_210, '\n')).interchange.groups[0]!.transactionSets[0]!.segments.map((segment) => [segment.tag, ...segment.elements]);
    const crlf = read(joined(INVOICE_210, '\r\n')).interchange;
    expect(crlf.groups[0]!.transactionSets[0]!.segments.map((segment) => [segment.tag, ...segment.elements])).toEqual(reference);
    const oneLine = read(joined(INVOICE_210, '')).interchange;
    const oneLineSegments = oneLine.groups[0]!.transactionSets[0]!.segments;
    expect(oneLineSegments.map((segment) => [segment.tag, ...segment.elements])).toEqual(reference);
    expect(oneLineSegments[0]!.line).toBe(1);
    expect(oneLineSegments[0]!.column).toBe(INVOICE_210.slice(0, 3).join('').length + 1);
    // Pipes, carets and a newline as the terminator (ISA16 ^, terminator \n).
    const pipes = INVOICE_210.map((row) => row.replaceAll('*', '|').replace('>~', '^~').replace(/~$/, '\n')).join('');
    const piped = read(pipes).interchange;
    expect(piped.delimiters).toEqual({ element: '|', subElement: '^', segment: '\n', repetition: null });
    expect(piped.groups[0]!.transactionSets[0]!.segments.map((segment) => [segment.tag, ...segment.elements])).toEqual(reference);
    // A UTF-8 byte order mark and blank lines before the ISA are tolerated.
    expect(read(`\uFEFF\n\n${joined(INVOICE_210, '\n')}`).interchange.isa.line).toBe(3);
  });

  it('a 00501 ISA11 repetition separator is reported; composites split on the sub-element separator', () => {
    const rows = [...INVOICE_210];
    rows[0] = rows[0]!.replace('*U*00401*', '*^*00501*');
    rows.splice(4, 0, 'N9*ZZ*A>B>C~');
    rows[rows.length - 3] = 'SE*30*0001~';
    const { interchange } = read(joined(rows, '\n'));
    expect(interchange.delimiters.repetition).toBe('^');
    const n9 = interchange.groups[0]!.transactionSets[0]!.segments.find((segment) => elementOf(segment, 1) === 'ZZ')!;
    expect(componentsOf(elementOf(n9, 2), interchange.delimiters)).toEqual(['A', 'B', 'C']);
  });

  it('a wrong SE count, a mismatched control number and a wrong GE count are each reported at their line', () => {
    const rows = [...INVOICE_210];
    rows[30] = 'SE*28*0002~';
    rows[31] = 'GE*2*4712~';
    rows[32] = 'IEA*1*000004710~';
    const result = readX12Interchange(joined(rows, '\n'));
    expect(result).toEqual({
      ok: false,
      errors: [
        { message: 'SE01 says "28" segments; the transaction set 0001 has 29 (ST and SE included)', line: 31, column: 1, segment: 'SE' },
        { message: 'SE02 "0002" does not match ST02 "0001"', line: 31, column: 1, segment: 'SE' },
        { message: 'GE01 says "2" transaction sets; the group has 1', line: 32, column: 1, segment: 'GE' },
        { message: 'GE02 "4712" does not match GS06 "4711"', line: 32, column: 1, segment: 'GE' },
        { message: 'IEA02 "000004710" does not match ISA13 "000004711"', line: 33, column: 1, segment: 'IEA' },
      ],
    });
  });

  it('a truncated ISA is refused with what was found', () => {
    for (const cut of [2, 3, 50, 104, 105]) {
      const result = tokenizeX12(joined(INVOICE_210, '').slice(0, cut));
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]!.message).toMatch(cut < 3 ? /starts with an ISA/ : /truncated ISA|damaged or truncated/);
        expect([result.errors[0]!.line, result.errors[0]!.column]).toEqual([1, 1]);
      }
    }
    // The ISA broken over two lines is truncated too.
    expect(tokenizeX12(INVOICE_210[0]!.replace('*U*', '\n*U*')).ok).toBe(false);
  });

  it('broken files: empty, not X12, ending inside a segment, missing IEA or SE, segments outside the envelope', () => {
    expect(readX12Interchange('')).toEqual({ ok: false, errors: [{ message: 'the file is empty: an interchange starts with an ISA segment', line: 1, column: 1 }] });
    expect(readX12Interchange('PRO,BOL,WEIGHT\n1,2,3\n')).toMatchObject({ ok: false, errors: [{ message: 'an interchange starts with an ISA segment' }] });
    const noTerminator = joined(INVOICE_210, '\n').replace(/~\n$/, '');
    expect(readX12Interchange(noTerminator)).toMatchObject({ ok: false, errors: [{ line: 33, segment: 'IEA', message: expect.stringContaining('ends inside the segment') }] });
    expect(readX12Interchange(joined(INVOICE_210.slice(0, -1), '\n'))).toMatchObject({
      ok: false,
      errors: [{ message: 'the interchange has no IEA: the file is truncated', line: 32 }],
    });
    const noSe = INVOICE_210.filter((row) => !row.startsWith('SE*'));
    expect(readX12Interchange(joined(noSe, '\n'))).toMatchObject({ ok: false, errors: [{ segment: 'GE', message: expect.stringContaining('its SE is missing') }] });
    const stray = [...INVOICE_210.slice(0, 2), 'N9*BM*1~', ...INVOICE_210.slice(2)];
    stray[stray.length - 3] = 'SE*29*0001~';
    expect(readX12Interchange(joined(stray, '\n'))).toMatchObject({ ok: false, errors: [{ line: 3, segment: 'N9', message: 'N9 outside a transaction set (between ST and SE)' }] });
    const badTag = [...INVOICE_210];
    badTag[4] = 'c3*USD~';
    expect(readX12Interchange(joined(badTag, '\n'))).toMatchObject({ ok: false, errors: [{ line: 5, message: expect.stringContaining('does not start with a segment tag') }] });
    const twice = joined(INVOICE_210, '\n') + joined(INVOICE_210.slice(0, 1), '\n');
    expect(readX12Interchange(twice)).toMatchObject({ ok: false, errors: [{ line: 34, message: 'ISA after the IEA: one interchange per file' }] });
  });

  it('an ISA padded to the wrong width is read, with a warning', () => {
    const rows = [...INVOICE_210];
    rows[0] = rows[0]!.replace('RLCA           ', 'RLCA');
    const result = read(joined(rows, '\n'));
    expect(result.warnings).toEqual([{ message: 'the ISA is 95 characters, not the fixed 106: its fields are padded wrongly', line: 1, column: 1, segment: 'ISA' }]);
    expect(elementOf(result.interchange.isa, 6)).toBe('RLCA');
  });

  it("reads back what the writer wrote: the 204's segments and envelope", () => {
    const written = writeX12LoadTender({
      shipment: fullShipment(),
      settings: x12Settings({ lineBreak: 'crlf' }),
      control: { interchangeControlNumber: 42, groupControlNumber: 43 },
      createdAt: CREATED_AT,
    });
    if (!written.ok) throw new Error('refused');
    const { interchange } = read(written.document);
    const set = interchange.groups[0]!.transactionSets[0]!;
    expect(elementOf(set.se, 1)).toBe(String(set.segments.length + 2));
    expect(elementOf(interchange.isa, 13)).toBe('000000042');
    expect(written.document.slice(0, 106)).toHaveLength(106);
    expect(written.document[105]).toBe('~');
  });
});

describe('text for X12 elements', () => {
  it('printable ASCII passes unchanged; whitespace runs, tabs and line breaks collapse to one space', () => {
    expect(toX12Text('  Bolts, nuts & washers: 10% "zinc" (A/B) ')).toEqual({ ok: true, text: 'Bolts, nuts & washers: 10% "zinc" (A/B)' });
    expect(toX12Text('line one\r\nline\ttwo')).toEqual({ ok: true, text: 'line one line two' });
    expect(toX12Text('')).toEqual({ ok: true, text: '' });
  });

  it('accented Latin, Greek and Cyrillic letters and typographic punctuation are transliterated', () => {
    expect(toX12Text('Café crème brûlée, Größe XL, Zürich, Œuvre, Łódź, Ærø')).toEqual({ ok: true, text: 'Cafe creme brulee, Grosse XL, Zurich, Oeuvre, Lodz, Aero' });
    expect(toX12Text('“Quoted” – ‘single’ … ½ ™')).toEqual({ ok: true, text: '"Quoted" - \'single\' ... 1/2 TM' });
    expect(toX12Text('Жёлтый ящик')).toEqual({ ok: true, text: 'Zheltyy yashchik' });
    // Decomposed accents (e + combining acute) as well as composed ones.
    expect(toX12Text('Cafe\u0301')).toEqual({ ok: true, text: 'Cafe' });
    expect(toX12Text('ＡＢＣ１２３')).toEqual({ ok: true, text: 'ABC123' });
  });

  it('emoji, flags, skin tones and scripts without a Latin reading are refused, each character named once', () => {
    expect(toX12Text('日本製 🚚 日')).toEqual({ ok: false, unwritable: ['日', '本', '製', '🚚'] });
    expect(toX12Text('flag 🇺🇸 ok 👍🏽')).toEqual({ ok: false, unwritable: ['🇺', '🇸', '👍', '🏽'] });
    expect(toX12Text('שלום')).toMatchObject({ ok: false });
    expect(toX12Text('مرحبا')).toMatchObject({ ok: false });
  });

  it('splitText cuts at spaces, and inside a word longer than the width', () => {
    expect(splitText('Heavy-duty industrial shelving components', 20)).toEqual(['Heavy-duty', 'industrial shelving', 'components']);
    expect(splitText('SUPERCALIFRAGILISTIC', 8)).toEqual(['SUPERCAL', 'IFRAGILI', 'STIC']);
    expect(splitText('exactly8', 8)).toEqual(['exactly8']);
    expect(splitText('', 8)).toEqual([]);
  });
});

describe('X12 settings', () => {
  it('defaults: ZZ qualifiers, * ~ > separators, test usage (until the user says production), no acknowledgment, LF after segments', () => {
    expect(x12InterchangeSettingsSchema.parse({ senderId: 'ME', receiverId: 'ODFL' })).toEqual({
      senderQualifier: 'ZZ',
      senderId: 'ME',
      receiverQualifier: 'ZZ',
      receiverId: 'ODFL',
      usage: 'test',
      acknowledgmentRequested: false,
      separators: { element: '*', segment: '~', subElement: '>' },
      lineBreak: 'lf',
    });
  });

  it('refuses ids that do not fit the ISA, separators that clash, letters as separators', () => {
    const problems = (input: Record<string, unknown>) => x12InterchangeSettingsSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems({ senderId: 'A'.repeat(15), receiverId: 'B'.repeat(15) })).toBeUndefined();
    expect(problems({ senderId: 'A'.repeat(16), receiverId: 'ODFL' })).toEqual(['senderId: senderId has at most 15 characters']);
    expect(problems({ senderId: '', receiverId: 'ODFL' })).toEqual(['senderId: senderId needs at least 1 characters']);
    expect(problems({ senderId: 'ME', receiverId: 'OD*FL' })).toEqual(['receiverId: receiverId is letters, digits, spaces and . - _ / & @ #']);
    expect(problems({ senderId: 'M', receiverId: 'ODFL' })).toEqual(['applicationSenderCode: GS02 needs 2 characters: set applicationSenderCode or a longer senderId']);
    expect(problems({ senderId: 'ME', receiverId: 'ODFL', separators: { element: '*', segment: '*', subElement: '>' } })).toEqual([
      'separators: the element, segment and sub-element separators must be three different characters',
    ]);
    expect(problems({ senderId: 'ME', receiverId: 'ODFL', separators: { element: 'E' } })).toEqual([
      'separators.element: the element separator is one printable character other than a letter, a digit, a space or "."',
    ]);
    // "." is the decimal point of weights and classes (92.5).
    expect(problems({ senderId: 'ME', receiverId: 'ODFL', separators: { subElement: '.' } })).toEqual([
      'separators.subElement: the sub-element separator is one printable character other than a letter, a digit, a space or "."',
    ]);
    expect(problems({ senderId: 'ME', receiverId: 'ODFL', separators: { element: '-', segment: '/', subElement: ':' } })).toBeUndefined();
    expect(problems({ senderId: 'ME', receiverId: 'OD/FL', separators: { element: '/' } })).toEqual(['receiverId: contains "/", the element separator']);
    expect(problems({ senderId: 'ME', receiverId: 'ODFL', senderQualifier: 'Z' })).toHaveLength(1);
  });
});
