/**
 * Reading carriers' bills: the values carriers write (dollars, classes, weights, dates), the bill
 * CSV layout (grouping, bill-level values, every problem with its line and column) and X12 210
 * interchanges (the layout of carriers' published guides, several bills, kilograms, refusals).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBillDate, parseDollars, parseFreightClass, parsePounds, ratingClassOf, type BillIssue } from '../../src/audit/bill.js';
import { readCsvBills } from '../../src/audit/csvBills.js';
import { readBillFile, readBillText } from '../../src/audit/readBills.js';
import { readX12Bills } from '../../src/audit/x12Bills.js';
import { x210 } from './fixtures.js';

const HEADER = 'invoiceNumber,proNumber,bolNumber,scac,billDate,billedWeight,billedClass,description,nmfcCode,pieces,linehaul,discount,fuel,accessorials,total';

function bills(text: string) {
  const read = readCsvBills(text, 'bills.csv');
  if (!read.ok) throw new Error(JSON.stringify(read.issues));
  return read.bills;
}
function issues(text: string, file = 'bills.csv'): BillIssue[] {
  const read = readBillText(text, file);
  if (read.ok) throw new Error('expected issues');
  return read.issues;
}

describe('values as carriers write them', () => {
  it('dollars to exact cents', () => {
    const cases: Array<[string, number | null]> = [
      ['1412.94', 141_294],
      ['1,412.94', 141_294],
      ['$1,412.94', 141_294],
      ['-989.06', -98_906],
      ['-$989.06', -98_906],
      ['$-989.06', -98_906],
      ['(989.06)', -98_906],
      ['0', 0],
      ['0.1', 10],
      ['.5', null],
      ['12.345', null],
      ['1,23', null],
      ['1 412.94', null],
      ['', null],
      ['$', null],
      ['NaN', null],
      ['1e3', null],
      ['--5', null],
      ['-$-5', null],
      ['99999999999999999999', null],
    ];
    for (const [text, cents] of cases) expect(parseDollars(text), text).toBe(cents);
  });

  it('freight classes of both scales, normalised; anything else refused', () => {
    expect(parseFreightClass('92.5')).toBe('92.5');
    expect(parseFreightClass('092.50')).toBe('92.5');
    expect(parseFreightClass(' 50 ')).toBe('50');
    expect(parseFreightClass('77.5')).toBe('77.5');
    expect(parseFreightClass('500')).toBe('500');
    for (const bad of ['93', '0', '45', '501', '1000', 'class 70', '', '-70', '70.0.0']) expect(parseFreightClass(bad), bad).toBeNull();
  });

  it('prices an older-scale class at the next class up the tariff has', () => {
    expect(ratingClassOf('92.5')).toBe('92.5');
    expect(ratingClassOf('77.5')).toBe('85');
    expect(ratingClassOf('110')).toBe('125');
    expect(ratingClassOf('150')).toBe('175');
    expect(ratingClassOf('200')).toBe('250');
    expect(ratingClassOf('500')).toBe('400');
  });

  it('weights and dates', () => {
    expect(parsePounds('1,250')).toBe(1250);
    expect(parsePounds('0.5')).toBe(0.5);
    expect(parsePounds('1,000,000')).toBe(1_000_000);
    for (const bad of ['0', '-5', 'heavy', '', '1e400', 'Infinity', '1000000.01', '9'.repeat(400)]) expect(parsePounds(bad), bad).toBeNull();
    expect(parseBillDate('2026-12-01')).toBe('2026-12-01');
    expect(parseBillDate('20261201')).toBe('2026-12-01');
    expect(parseBillDate('12/1/2026')).toBe('2026-12-01');
    for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '1/2/26']) expect(parseBillDate(bad), bad).toBeNull();
  });
});

describe('the bill CSV layout', () => {
  it('reads a bill of two lines, bill-level values on the first row only, accessorial pairs', () => {
    const [bill, ...rest] = bills(
      [
        HEADER,
        'I7204815,720-4815,06141410000000012,rrft,2026-12-01,"1,450",92.5,Machine parts,161030,10,"$1,618.57",-1133.00,145.67,LFT=75.00|RES=95.00,801.24',
        ',720-4815,,,,300,175,Spare belts,,,,,,,',
      ].join('\n'),
    );
    expect(rest).toEqual([]);
    expect(bill).toEqual({
      source: { file: 'bills.csv', line: 2, format: 'csv' },
      invoiceNumber: 'I7204815',
      proNumber: '720-4815',
      bolNumber: '06141410000000012',
      scac: 'RRFT',
      billDate: '2026-12-01',
      lines: [
        { line: 1, poundsWeight: 1450, freightClass: '92.5', description: 'Machine parts', nmfcCode: '161030', pieces: 10 },
        { line: 2, poundsWeight: 300, freightClass: '175', description: 'Spare belts', nmfcCode: null, pieces: null },
      ],
      linehaulInCents: 161_857,
      discountInCents: 113_300,
      fuelSurchargeInCents: 14_567,
      accessorials: [
        { code: 'LFT', description: null, amountInCents: 7_500 },
        { code: 'RES', description: null, amountInCents: 9_500 },
      ],
      totalInCents: 80_124,
    });
  });

  it("groups rows: a row continues the bill above when its keys are that bill's or it gives none; the same key later is another bill", () => {
    const read = bills(
      ['proNumber,billedWeight,billedClass,linehaul,fuel,total', 'P1,100,70,200.00,10.00,210.00', ',50,70,,,', 'P2,500,92.5,300.00,20.00,320.00', 'P1,10,70,20.00,1.00,21.00'].join(
        '\r\n',
      ),
    );
    expect(read.map((bill) => [bill.proNumber, bill.source.line, bill.lines.length, bill.totalInCents])).toEqual([
      ['P1', 2, 2, 21_000],
      ['P2', 4, 1, 32_000],
      ['P1', 5, 1, 2_100],
    ]);
  });

  it('reads the shipped sample, every column of the layout', async () => {
    const read = await readBillFile(fileURLToPath(new URL('../../templates/audit/bills-sample.csv', import.meta.url)));
    expect(read.ok && read.bills.map((bill) => [bill.invoiceNumber, bill.lines.length, bill.accessorials.map((charge) => charge.code), bill.totalInCents])).toEqual([
      ['I7204815', 2, ['LFT'], 70_624],
      ['I7204816', 2, ['LFT', 'RES'], 72_104],
      ['I7204817', 1, [], 11_700],
    ]);
  });

  it('understands other header names, a BOM, semicolons and fuel or discount given as charge codes', () => {
    const [bill] = bills(['\uFEFFPRO Number;Weight;Class;Linehaul Charge;Accessorials;Amount Due', '7204801;1200;92.5;1412.94;DSC=-989.06|FUE=127.16|LFT=75.00;626.04'].join('\n'));
    expect(bill).toMatchObject({
      proNumber: '7204801',
      linehaulInCents: 141_294,
      discountInCents: 98_906,
      fuelSurchargeInCents: 12_716,
      accessorials: [{ code: 'LFT', amountInCents: 7_500 }],
      totalInCents: 62_604,
    });
  });

  it('an empty class cell is a line whose class was not billed', () => {
    const [bill] = bills(['proNumber,billedWeight,billedClass,linehaul,total', 'P1,100,,200.00,200.00'].join('\n'));
    expect(bill!.lines[0]!.freightClass).toBeNull();
  });

  it('names every problem with its line and column', () => {
    const found = issues(
      [
        HEADER,
        ',,,,,100,70,,,,1.00,,,,1.00',
        'I1,P1,,RRFT,2026-12-01,heavy,93,,,2.5,12.345,,,LFT75|RES=abc,',
        'I1,P1,,ODFL,,100,70,,,,,,,,',
        'I2,P 2!,123,RRFTX,2026-02-30,1e400,70,,,,1.00,,,,1.00',
      ].join('\n'),
    );
    expect(found.map((issue) => `${issue.line} ${issue.where}: ${issue.message}`)).toEqual([
      '2 column proNumber: the row names no bill: give its proNumber or bolNumber (or invoiceNumber)',
      '4 column scac: "ODFL" differs from "RRFT" on line 3 of the same bill; give bill-level values once or repeat them unchanged',
      '3 column accessorials: "LFT75" is not CODE=AMOUNT (e.g. LIFTGATE_DELIVERY=75.00; pairs separated by |)',
      '3 column accessorials: "RES=abc" is not CODE=AMOUNT (e.g. LIFTGATE_DELIVERY=75.00; pairs separated by |)',
      '3 column billedWeight: billedWeight must be a weight in pounds above 0 and at most 1,000,000 (got "heavy")',
      '3 column billedClass: "93" is not an NMFC freight class (50 to 500, e.g. 92.5)',
      '3 column pieces: pieces must be a whole number (got "2.5")',
      '3 column linehaul: linehaul must be an amount in dollars, e.g. 1412.94 (got "12.345")',
      '3 column total: total is required (an amount in dollars, e.g. 1412.94)',
      '5 column proNumber: "P 2!" is not a PRO number (letters, digits and dashes)',
      '5 column bolNumber: "123" is not a BOL number (17 digits)',
      '5 column scac: "RRFTX" is not a SCAC (2 to 4 letters)',
      '5 column billDate: "2026-02-30" is not a date (YYYY-MM-DD)',
      '5 column billedWeight: billedWeight must be a weight in pounds above 0 and at most 1,000,000 (got "1e400")',
    ]);
  });

  it('refuses a header it cannot use: unknown columns (with the one meant), missing and repeated ones, an empty file', () => {
    expect(issues('proNumber,billedWieght,billedClass,linehaul,total\nP1,1,70,1,1')[0]!.message).toMatch(/^unknown column "billedWieght" \(did you mean billedWeight\?\)/);
    expect(issues('proNumber,billedWeight\nP1,1').map((issue) => issue.message)).toEqual([
      'missing columns billedClass, linehaul, total (a bill CSV has invoiceNumber,proNumber,bolNumber,scac,billDate,billedWeight,billedClass,description,nmfcCode,pieces,linehaul,discount,fuel,accessorials,total)',
    ]);
    expect(issues('billedWeight,billedClass,linehaul,total\n1,70,1,1').map((issue) => issue.message)).toEqual([
      "a bill CSV needs a proNumber or a bolNumber column to find each bill's shipment",
    ]);
    expect(issues('pro,proNumber,billedWeight,billedClass,linehaul,total\n')[0]!.message).toBe('column "proNumber" is given twice (pro and proNumber)');
    expect(issues('\n\n')[0]).toMatchObject({ line: 1, message: expect.stringMatching(/^the file is empty/) });
    expect(issues('proNumber,billedWeight,billedClass,linehaul,total\n"P1,1,70,1,1\n')[0]!.message).toMatch(/^not a readable CSV file/);
  });
});

/** A carrier's 210 for SO-000001, segment by segment (ST/SE added by x210). */
const BILL_210 = [
  'B3**I7204815*06141410000000012*PP*L*20261201*80124****RRFT~',
  'C3*USD~',
  'N9*BM*06141410000000012~',
  'N9*CN*7204801~',
  'N9*PO*PO-4471~',
  'G62*86*20261119~',
  'N1*SH*ACME MACHINE CO~',
  'N4*CHICAGO*IL*60601*US~',
  'N1*CN*PEACH SUPPLY CO~',
  'N4*ATLANTA*GA*30303*US~',
  'LX*1~',
  'L5*1*MACHINE PARTS*161030*N~',
  'L0*1*1450*FR*1450*G***2*PLT**L~',
  'L1*1*82.25*PH*119263~',
  'L7*1******92.5~',
  'LX*2~',
  'L5*2*SPARE BELTS~',
  'L0*2*300*FR*300*G***1*PLT**L~',
  'L1*2*141.98*PH*42594~',
  'L7*2******175~',
  'LX*3~',
  'L1*3***-113300****DSC~',
  'LX*4~',
  'L1*4***14567****FUE~',
  'LX*5~',
  'L5*5*LIFTGATE SERVICE~',
  'L1*5***7500****LFT~',
  'LX*6~',
  'L5*6*RESIDENTIAL DELIVERY~',
  'L1*6***9500****RES~',
  'L3*1750*G***80124******3*L~',
];

describe('X12 210 freight bills', () => {
  it('reads the bill: references, freight lines with weight, pieces, class and NMFC, each charge by its code, the total', () => {
    const read = readX12Bills(x210([{ control: '0001', segments: BILL_210 }]), 'RRFT.edi');
    expect(read).toEqual({
      ok: true,
      bills: [
        {
          source: { file: 'RRFT.edi', line: 3, format: 'x12-210' },
          invoiceNumber: 'I7204815',
          proNumber: '7204801',
          bolNumber: '06141410000000012',
          scac: 'RRFT',
          billDate: '2026-12-01',
          lines: [
            { line: 1, poundsWeight: 1450, freightClass: '92.5', description: 'MACHINE PARTS', nmfcCode: '161030', pieces: 2 },
            { line: 2, poundsWeight: 300, freightClass: '175', description: 'SPARE BELTS', nmfcCode: null, pieces: 1 },
          ],
          linehaulInCents: 161_857,
          discountInCents: 113_300,
          fuelSurchargeInCents: 14_567,
          accessorials: [
            { code: 'LFT', description: 'LIFTGATE SERVICE', amountInCents: 7_500 },
            { code: 'RES', description: 'RESIDENTIAL DELIVERY', amountInCents: 9_500 },
          ],
          totalInCents: 80_124,
        },
      ],
    });
  });

  it('reads several bills of one interchange, pipes and carets as separators, the total from B307 without an L3, kilograms', () => {
    const second = ['B3**I7204816*7204802*PP*L*20261202*12345****RRFT~', 'LX*1~', 'L0*1*100*FR*100*G***1*PLT**K~', 'L1*1***12345~', 'L7*1******70~'];
    const text = x210([
      { control: '0001', segments: BILL_210 },
      { control: '0002', segments: second },
    ])
      .replaceAll('*', '|')
      .replaceAll('>~', '^~');
    const read = readBillText(text, 'two.edi');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.bills.map((bill) => [bill.invoiceNumber, bill.proNumber, bill.bolNumber, bill.totalInCents, bill.lines[0]!.poundsWeight])).toEqual([
      ['I7204815', '7204801', '06141410000000012', 80_124, 1450],
      ['I7204816', '7204802', null, 12_345, 220.46],
    ]);
  });

  it('takes B303 as the PRO when it is not a BOL number, and B302 when nothing else names the shipment', () => {
    const withB303 = readX12Bills(x210([{ control: '0001', segments: ['B3**INV9*7204803*PP*L*20261201*100~', 'LX*1~', 'L0*1*100*FR*100*G~', 'L1*1***100~'] }]), 'a.edi');
    expect(withB303.ok && withB303.bills[0]).toMatchObject({ invoiceNumber: 'INV9', proNumber: '7204803', bolNumber: null });
    const onlyB302 = readX12Bills(x210([{ control: '0001', segments: ['B3**7204804**PP*L*20261201*100~', 'LX*1~', 'L0*1*100*FR*100*G~', 'L1*1***100~'] }]), 'b.edi');
    expect(onlyB302.ok && onlyB302.bills[0]).toMatchObject({ invoiceNumber: '7204804', proNumber: '7204804' });
  });

  it('refuses what it cannot audit, each problem at its line', () => {
    const broken = ['B3****PP*L*20261341*abc~', 'C3*CAD~', 'LX*1~', 'L0*1*0*FR*0*G***1*PLT**T~', 'L1*1***12.5~', 'L7*1******93~'];
    expect(issues(x210([{ control: '0001', segments: broken }]), 'x.edi').map((issue) => `${issue.line} ${issue.where}: ${issue.message}`)).toEqual([
      '4 B303: the bill names no shipment: no PRO (N9*CN, B303) and no bill of lading number (N9*BM)',
      '5 C301: the bill is in CAD; shipper audits bills in USD',
      '4 B306: "20261341" is not a date CCYYMMDD',
      '7 L011: weight unit "T" is neither L (pounds) nor K (kilograms)',
      '7 L004: the billed weight must be a number of pounds above 0 and at most 1,000,000 (got "0")',
      '9 L707: "93" is not an NMFC freight class (50 to 500)',
      '8 L104: the charge must be an amount in cents (N2), got "12.5"',
      '4 B307: the bill\'s total must be an amount in cents (N2), got "abc"',
    ]);
  });

  it('refuses other transaction sets, a 210 without B3 or freight, and a broken envelope', () => {
    const tender = x210([{ control: '0001', segments: BILL_210 }]).replace('ST*210*0001', 'ST*204*0001');
    expect(issues(tender)[0]).toMatchObject({ line: 3, where: 'ST01', message: 'transaction set 204 is not a 210 freight bill (Motor Carrier Freight Details and Invoice)' });
    expect(issues(x210([{ control: '0001', segments: ['C3*USD~'] }]))[0]!.message).toBe('the 210 has no B3 segment (invoice number, shipment id, date, amount)');
    expect(issues(x210([{ control: '0001', segments: ['B3**I1*7204801*PP*L*20261201*100~'] }]))[0]!.message).toBe('the 210 bills no freight line (no LX loop with an L0 weight)');
    const wrongCount = x210([{ control: '0001', segments: BILL_210 }]).replace(`SE*${BILL_210.length + 2}*0001`, 'SE*5*0001');
    expect(issues(wrongCount)[0]).toMatchObject({ where: 'segment SE', message: expect.stringMatching(/^SE01 says "5" segments/) });
  });
});
