/**
 * The import's progress bar: as a unit (a fake clock and stream), and in a real pseudo-terminal
 * while the built CLI books 1,100 shipments.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressBar, renderProgressLine, type ProgressFrame } from '../../src/cli/progress.js';
import { tempDir } from '../helpers/cli.js';
import { shipmentsCsv } from '../helpers/csv.js';
import { WEDNESDAY } from '../helpers/fixtures.js';
import { spawnCliInPty } from '../helpers/pty.js';

const BOOKING: ProgressFrame = { label: 'Booking', ratio: 0.412, percent: false, counts: '412/1,000 shipments', rate: 180, secondsLeft: 3.2 };

/** The bar of a drawn line: filled and total cells. */
function barOf(line: string): { filled: number; width: number } {
  const bar = /[█░]+/.exec(line)![0];
  return { filled: [...bar].filter((cell) => cell === '█').length, width: [...bar].length };
}

function fakeBar(columns = 100) {
  const clock = { now: 0 };
  const frames: string[] = [];
  const bar = new ProgressBar({ write: (text) => (frames.push(text), true), columns }, () => clock.now);
  return { clock, frames, bar, last: () => frames.at(-1)!.replace('\r\u001b[2K', '') };
}

describe('the progress line', () => {
  it('shows shipments booked of the total, the rate and the time left, with a bar of the same proportion', () => {
    const line = renderProgressLine(BOOKING, 100);
    expect(line).toMatch(/^Booking  [█░]{30}  412\/1,000 shipments  180\/s  4 s left$/);
    expect(barOf(line)).toEqual({ filled: 12, width: 30 });
  });

  it('is full, and says 100%, only when the work is done', () => {
    const almost = renderProgressLine({ ...BOOKING, ratio: 999 / 1000, percent: true }, 100);
    expect(barOf(almost).filled).toBeLessThan(barOf(almost).width);
    expect(almost).toContain(' 99%');
    const done = renderProgressLine({ ...BOOKING, ratio: 1, percent: true }, 100);
    expect(barOf(done)).toEqual({ filled: 30, width: 30 });
    expect(done).toContain('100%');
  });

  it('never fills the terminal width, dropping the time left, then the rate, then the percentage', () => {
    const frame = { ...BOOKING, percent: true, counts: '412,000/1,000,000 shipments', rate: 123_456, secondsLeft: 7_200 };
    for (let columns = 1; columns <= 200; columns++) expect([...renderProgressLine(frame, columns)].length, `${columns} columns`).toBeLessThan(Math.max(columns, 1));
    expect(renderProgressLine(frame, 120)).toMatch(/  41%  412,000\/1,000,000 shipments  123,456\/s  2 h 00 min left$/);
    expect(renderProgressLine(frame, 70)).not.toContain('left');
    expect(renderProgressLine(frame, 70)).toContain('/s');
    expect(renderProgressLine(frame, 60)).not.toContain('/s');
    expect(renderProgressLine(frame, 45)).not.toContain('%');
  });

  it('takes an absurd ratio without breaking', () => {
    for (const ratio of [Number.NaN, -1, 7, Infinity]) expect(() => renderProgressLine({ ...BOOKING, ratio }, 80)).not.toThrow();
    expect(barOf(renderProgressLine({ ...BOOKING, ratio: 7 }, 80)).filled).toBe(barOf(renderProgressLine({ ...BOOKING, ratio: 1 }, 80)).width);
  });

  it('formats the time left', () => {
    expect([0, 0.2, 59, 59.5, 60, 65, 3599, 3600, 7260].map(formatDuration)).toEqual([
      '0 s',
      '1 s',
      '59 s',
      '1 min 00 s',
      '1 min 00 s',
      '1 min 05 s',
      '59 min 59 s',
      '1 h 00 min',
      '2 h 01 min',
    ]);
  });
});

describe('the progress bar', () => {
  it('counts shipments while booking: starts at 0 of the total, redraws at most every 100 ms, always draws the end', () => {
    const { clock, frames, bar, last } = fakeBar();
    bar.start('Booking', 1000, 'shipments');
    expect(last()).toMatch(/^Booking  ░{30}  0\/1,000 shipments$/);
    clock.now = 50;
    bar.update(100, 100);
    expect(frames).toHaveLength(1); // too soon
    clock.now = 2000;
    bar.update(400, 400);
    expect(last()).toMatch(/^Booking  █{12}░{18}  400\/1,000 shipments  200\/s  3 s left$/);
    clock.now = 2010;
    bar.update(1000, 1000);
    expect(last()).toMatch(/^Booking  █{30}  1,000\/1,000 shipments  498\/s$/);
    bar.clear();
    expect(frames.at(-1)).toBe('\r\u001b[2K');
  });

  it('counts bytes while checking, and says how many shipments it has read, in the singular for one', () => {
    const { clock, bar, last } = fakeBar();
    bar.start('Checking', 2000, 'bytes');
    expect(last()).toMatch(/^Checking ░{30}    0%  0 shipments$/);
    clock.now = 500;
    bar.update(1000, 1);
    expect(last()).toMatch(/^Checking █{15}░{15}   50%  1 shipment  2\/s  1 s left$/);
    bar.start('Booking', 1, 'shipments');
    expect(last()).toMatch(/0\/1 shipment$/);
  });

  it('shows no rate or time left in the first quarter second (they would be noise)', () => {
    const { clock, bar, last } = fakeBar();
    bar.start('Booking', 10, 'shipments');
    clock.now = 200;
    bar.update(5, 5);
    expect(last()).toMatch(/5\/10 shipments$/);
  });
});

describe('in a terminal', () => {
  it('books 1,100 shipments with a bar that counts shipments booked of 1,100, in proportion, ending at 1,100/1,100', async () => {
    const { dir, cleanup } = await tempDir('shipper-progress-');
    try {
      const csv = join(dir, 'orders.csv');
      await writeFile(csv, shipmentsCsv(1100, 1));
      const session = spawnCliInPty(['--store', join(dir, 'store'), 'import', csv], { cwd: dir, cols: 100, env: { SHIPPER_NOW: WEDNESDAY, NO_COLOR: '1', CI: '' } });
      await session.waitFor(/Imported .*: 1,100 shipments booked/, 60_000);
      expect(await session.exitCode).toBe(0);
      const frames = session
        .raw()
        .split('\r\u001b[2K')
        .map((frame) => frame.trim())
        .filter(Boolean);
      const checking = frames.filter((frame) => frame.startsWith('Checking'));
      expect(checking.length).toBeGreaterThan(0);
      for (const frame of checking) expect(frame).toMatch(/^Checking [█░]+ +\d+% +[\d,]+ shipments?( |$)/);
      const booking = frames.filter((frame) => frame.startsWith('Booking'));
      expect(booking.length).toBeGreaterThanOrEqual(2);
      let previous = -1;
      for (const frame of booking) {
        const match = /^Booking  ([█░]+)  ([\d,]+)\/1,100 shipments/.exec(frame);
        expect(match, frame).not.toBeNull();
        const done = Number(match![2]!.replace(/,/g, ''));
        expect(done).toBeGreaterThanOrEqual(previous);
        previous = done;
        const { filled, width } = barOf(frame);
        expect(filled, frame).toBe(Math.floor((done / 1100) * width));
        expect([...frame].length).toBeLessThan(100);
      }
      expect(booking[0]).toMatch(/  0\/1,100 shipments$/);
      expect(booking.at(-1)).toMatch(/  1,100\/1,100 shipments/);
    } finally {
      await cleanup();
    }
  }, 90_000);
});
