/**
 * X12 214 status messages as carriers write them (hand-written files in fixtures/): empty elements
 * holding positions, several transaction sets and interchanges per file with their own separators,
 * line breaks as layout (CRLF, wrapped at 80 columns, none at all), events out of order, a resent
 * status, an unknown PRO; and damaged files. node-x12, a published parser, reads the same files.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { X12Parser } from 'node-x12';
import { describe, expect, it } from 'vitest';
import { readX12StatusMessages } from '../../src/edi/x12-214.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`fixtures/${name}`, import.meta.url)), 'utf8');

interface NodeX12Segment {
  tag: string;
  elements: Array<{ value: string }>;
}

/** The AT7 segments as node-x12 reads them (strict: counts and control numbers checked). */
function at7sByNodeX12(text: string): string[][] {
  const interchange = new X12Parser(true).parse(text) as unknown as { functionalGroups: Array<{ transactions: Array<{ segments: NodeX12Segment[] }> }> };
  return interchange.functionalGroups.flatMap((group) =>
    group.transactions.flatMap((transaction) => transaction.segments.filter((segment) => segment.tag === 'AT7').map((segment) => segment.elements.map((element) => element.value))),
  );
}

describe('reading X12 214 files', () => {
  it('reads every AT7 of a file with two transaction sets, with its keys, place and local time, as node-x12 reads them', () => {
    const text = fixture('odfl-214-a.edi');
    const read = readX12StatusMessages(text, 'odfl-214-a.edi');
    expect(read.issues).toEqual([]);
    const byNodeX12 = at7sByNodeX12(text);
    expect(read.messages.map((message) => message.statusCode)).toEqual(byNodeX12.map((elements) => elements[0]));
    expect(read.messages.map((message) => message.reasonCode)).toEqual(byNodeX12.map((elements) => elements[1]));
    // AG is an ETA: its AT705/AT706 are the ETA, the event is when the group was sent (GS04/GS05).
    expect(read.messages.map((message) => (message.eta ? message.eta.stamp.date : message.stamp.date).replace(/-/g, ''))).toEqual(byNodeX12.map((elements) => elements[4]));
    expect(read.messages[0]).toMatchObject({
      source: 'x12-214',
      line: 11,
      reference: 'odfl-214-a.edi line 11 (ISA 000000101, ST 0001)',
      keys: { proNumber: '1234567897', scac: 'ODFL', bolNumber: '06141410000000012', references: ['PO-4471'], destinationPostalCode: '10001' },
      statusCode: 'X3',
      stamp: { date: '2026-11-24', time: '09:30' },
      zone: 'local',
      place: { city: 'CHICAGO', state: 'IL', zipCode: null, countryCode: 'US' },
    });
    // No AT707 is local time too.
    expect(read.messages[1]).toMatchObject({ statusCode: 'AF', zone: 'local', stamp: { date: '2026-11-24', time: '14:10' } });
    const eta = read.messages.find((message) => message.statusCode === 'AG')!;
    expect(eta).toMatchObject({ stamp: { date: '2026-11-25', time: '06:00' }, eta: { stamp: { date: '2026-11-30', time: '12:00' } }, place: null });
    // The second set names only the PRO: its messages carry its own keys.
    expect(read.messages.find((message) => message.statusCode === 'X6')!.keys).toEqual({
      proNumber: '1234567897',
      scac: 'ODFL',
      bolNumber: '06141410000000012',
      references: [],
      destinationPostalCode: null,
    });
  });

  it('reads other separators with no line breaks at all, and a second shipment in the same interchange', () => {
    const text = fixture('odfl-214-b.edi');
    const read = readX12StatusMessages(text, 'b.edi');
    expect(read.issues).toEqual([]);
    expect(read.messages.map((message) => message.statusCode)).toEqual(at7sByNodeX12(text).map((elements) => elements[0]));
    expect(read.messages.map((message) => [message.statusCode, message.keys.proNumber, message.place?.city])).toEqual([
      ['X6', '1234567897', 'NEW YORK'],
      ['X1', '1234567897', 'NEW YORK'],
      ['D1', '1234567897', 'NEW YORK'],
      ['X3', '9999999999', 'DALLAS'],
    ]);
    expect(read.messages[3]!.keys.references).toEqual(['SOMETHING-ELSE']);
  });

  it('reads two interchanges with different separators, the first wrapped at 80 columns with CRLF, each line as the file has it', () => {
    const text = fixture('saia-two-interchanges.edi');
    const read = readX12StatusMessages(text, 'saia.edi');
    expect(read.issues).toEqual([]);
    expect(read.messages.map((message) => [message.statusCode, message.reasonCode, message.place?.city, message.line])).toEqual([
      ['AF', 'NS', 'PHOENIX', 3],
      ['SD', 'AO', 'ALBUQUERQUE', 4],
      ['X3', 'NS', 'PHOENIX', 13],
    ]);
    // A value split by the wrapping is whole again.
    expect(read.messages[1]!.place).toMatchObject({ city: 'ALBUQUERQUE', state: 'NM' });
    expect(read.messages[0]!.keys).toMatchObject({ proNumber: 'SAIA778812', bolNumber: '06141410000000029' });
    expect(read.messages[2]!.keys).toMatchObject({ proNumber: 'SAIA778899', references: ['PO-9001'], destinationPostalCode: '80202' });
    // MT: Mountain time, whatever the place.
    expect(read.messages[2]!.zone).toEqual({ timeZone: 'America/Denver' });
    expect(read.messages[2]!.reference).toBe('saia.edi line 13 (ISA 000000556, ST 0001)');
  });

  it('says what is wrong with damaged files, each where it is, and reads the interchanges that are whole', () => {
    const good = fixture('odfl-214-a.edi');
    // An element separator that is a letter, a terminator equal to the element separator.
    const letter = readX12StatusMessages(good.replace(/\*/g, 'A'), 'x.edi');
    expect(letter.messages).toEqual([]);
    expect(letter.issues[0]!.message).toMatch(/ISA/);
    const sameTerminator = readX12StatusMessages(good.replace(/~/g, '*'), 'y.edi');
    expect(sameTerminator.messages).toEqual([]);
    expect(sameTerminator.issues.length).toBeGreaterThan(0);
    // A wrong SE count in the second file's interchange: named with its line; the first interchange still reads.
    const broken = fixture('odfl-214-b.edi').replace("SE|11|0001'", "SE|12|0001'");
    const both = readX12StatusMessages(`${good}${broken}`, 'z.edi');
    expect(both.messages.map((message) => message.statusCode)).toEqual(['X3', 'AF', 'X4', 'X6', 'P1', 'AG']);
    expect(both.issues).toEqual([{ file: 'z.edi', line: 34, message: expect.stringContaining('SE01 says "12" segments') }]);
  });

  it('refuses an AT7 without a date or with a time that is none, a 214 that names no shipment, and other transaction sets', () => {
    const text = fixture('odfl-214-a.edi')
      .replace('AT7*X3*NS***20261124*0930*LT', 'AT7*X3*NS***20261131*0930*LT')
      .replace('AT7*AF*NS***20261124*1410', 'AT7*AF*NS***20261124*2561')
      .replace('ST*214*0002', 'ST*210*0002');
    const read = readX12StatusMessages(text, 'a.edi');
    expect(read.issues.map((issue) => `${issue.line}: ${issue.message}`)).toEqual([
      '11: AT705: "20261131" is not a date CCYYMMDD',
      '14: AT706: "2561" is not a time HHMM',
      '21: transaction set 210 is not a 214 shipment status message',
    ]);
    expect(read.messages.map((message) => message.statusCode)).toEqual(['X4']);
    const anonymous = readX12StatusMessages(fixture('odfl-214-a.edi').replace('B10*1234567897*06141410000000012*ODFL~\nL11*PO-4471*PO~', 'B10***ODFL~\nK1*NOTE~'), 'n.edi');
    expect(anonymous.issues[0]).toMatchObject({ line: 3, message: expect.stringContaining('names no shipment') });
  });

  it('an empty file, and a file that is not X12', () => {
    expect(readX12StatusMessages('', 'e.edi').issues[0]!.message).toMatch(/empty/);
    expect(readX12StatusMessages('hello\nworld\n', 'h.edi').issues[0]!.message).toMatch(/starts with an ISA/);
  });
});
