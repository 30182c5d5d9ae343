/**
 * Carrier files of absurd size (issue 39, item 6): a 214 with 100,000 status loops overflowed the
 * stack ("unexpected error: Maximum call stack size exceeded", exit 5) where the reader spread a
 * transaction set's segments into push(). The readers are iterative; a transaction set of more
 * than MAX_X12_SET_SEGMENTS segments is refused with its file and line (docs/x12.md); as many
 * statuses in sets under the bound are all read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readX12Bills } from '../../src/audit/x12Bills.js';
import { MAX_X12_SET_SEGMENTS } from '../../src/edi/x12.js';
import { readX12StatusMessages } from '../../src/edi/x12-214.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inProcess.js';
import { x210 } from '../audit/fixtures.js';

const ISA = 'ISA*00*          *00*          *02*ODFL           *ZZ*ACMESHIPPER    *261125*0600*U*00401*000000101*0*P*>~';

/** A 214 file: `sets` transaction sets of `loops` LX/AT7/MS1 loops each, one segment a line. */
function status214(sets: number, loops: number): string {
  const lines = [ISA, 'GS*QM*ODFL*ACMESHIPPER*20261125*0600*101*X*004010'];
  for (let set = 1; set <= sets; set += 1) {
    const control = String(set).padStart(4, '0');
    lines.push(`ST*214*${control}`, 'B10*1234567897*06141410000000012*ODFL');
    for (let loop = 1; loop <= loops; loop += 1) lines.push(`LX*${loop}`, 'AT7*X4*NS***20261124*0930*LT', 'MS1*CHICAGO*IL*US');
    lines.push(`SE*${loops * 3 + 3}*${control}`);
  }
  lines.push(`GE*${sets}*101`, 'IEA*1*000000101');
  return lines.map((line) => (line.endsWith('~') ? line : `${line}~`)).join('\n') + '\n';
}

/** Loops that make a set of exactly `segments` segments (ST, B10, the loops, SE): 3 a loop. */
const loopsFor = (segments: number) => (segments - 3) / 3;

describe('a 214 of many status loops', () => {
  it('reads 100,028 statuses in 34 sets under the bound, each with its place and line', () => {
    const read = readX12StatusMessages(status214(34, 2_942), 'many.edi');
    expect(read.issues).toEqual([]);
    expect(read.messages).toHaveLength(34 * 2_942);
    const last = read.messages.at(-1)!;
    expect(last).toMatchObject({ statusCode: 'X4', place: { city: 'CHICAGO', state: 'IL' } });
    // Line of the last AT7: ISA, GS, then per set ST, B10, 3 a loop, SE; the last AT7 is 3 lines before the GE.
    expect(last.line).toBe(2 + 34 * (2 + 3 * 2_942 + 1) - 2);
  });

  it('reads a set of exactly MAX_X12_SET_SEGMENTS segments, and refuses one more with the file and the line where it goes over', () => {
    expect(MAX_X12_SET_SEGMENTS).toBe(10_000);
    // 9,999 is not a whole number of loops: 9,999 segments (3,332 loops) and 10,002 (3,333 loops) frame the bound.
    const under = readX12StatusMessages(status214(1, loopsFor(9_999)), 'under.edi');
    expect(under.issues).toEqual([]);
    expect(under.messages).toHaveLength(loopsFor(9_999));
    // One more segment than the bound: a second MS1 in the last loop.
    const onBound = status214(1, loopsFor(9_999)).replace('MS1*CHICAGO*IL*US~\nSE*9999*', () => 'MS1*CHICAGO*IL*US~\nMS1*CHICAGO*IL*US~\nSE*10000*');
    expect(onBound).toContain('SE*10000*0001~');
    const exactly = readX12StatusMessages(onBound, 'exactly.edi');
    expect(exactly.issues).toEqual([]);
    expect(exactly.messages).toHaveLength(loopsFor(9_999));
    const over = readX12StatusMessages(status214(1, loopsFor(10_002)), 'over.edi');
    expect(over.messages).toEqual([]);
    // Line 10,002: the 9,999th segment after the ST, which with the ST and the SE to come makes 10,001.
    expect(over.issues).toEqual([
      { file: 'over.edi', line: 10_002, message: expect.stringContaining('the transaction set 0001 (line 3) has more than 10,000 segments') as string },
    ]);
  });

  it('refuses a 210 freight bill of more than 10,000 segments with its line', () => {
    const segments = ['B3**INV9*7204803*PP*L*20261201*100~'];
    for (let loop = 1; segments.length < 10_000; loop += 1) segments.push(`LX*${loop}~`, 'L0*1*100*FR*100*G~', 'L1*1***100~');
    const read = readX12Bills(x210([{ control: '0001', segments }]), 'huge-210.edi');
    expect(read.ok).toBe(false);
    expect(!read.ok && read.issues).toEqual([
      expect.objectContaining({ file: 'huge-210.edi', line: 10_002, message: expect.stringContaining('more than 10,000 segments') as string }),
    ]);
  });
});

describe('shipper track import of a 214 with 100,000 status loops', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dir = await tempDir('shipper-x12-bounds-');
  });
  afterAll(async () => dir.cleanup());

  it('is refused with the file and the line, exit 1, nothing recorded, no unexpected error (it was exit 5, "Maximum call stack size exceeded")', async () => {
    const file = join(dir.dir, 'loops.edi');
    await writeFile(file, status214(1, 100_000));
    const result = await runInProcess(['--store', join(dir.dir, 'store'), 'track', 'import', file], { env: { SHIPPER_CONFIG_DIR: join(dir.dir, 'config') } });
    expect(result.stderr).not.toMatch(/unexpected error|call stack/);
    expect(result.stderr).toContain(`${file} line 10002: AT7: the transaction set 0001 (line 3) has more than 10,000 segments`);
    expect(result.stdout).toContain('0 status messages in 1 file: 0 events recorded');
    expect(result.code).toBe(1);
  });
});
