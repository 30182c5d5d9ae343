/**
 * The JSON log's writer (src/server/logWriter.ts): a turn's lines in one write, in order; what a
 * full non-blocking descriptor did not take goes first at a later try, nothing lost or repeated; a
 * descriptor that is gone stops the writing without an error; at exit everything held is written.
 * The spawned server's log on its stderr is test/server/production.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { TurnWriter } from '../../src/server/logWriter.js';

/** A descriptor that takes at most `room` bytes a call; with no room, EAGAIN (a full pipe) or another error. */
function fakeDescriptor() {
  const state = { written: [] as Buffer[], calls: 0, room: Infinity, error: 'EAGAIN' };
  const writeSync = (_fd: number, data: Buffer | string): number => {
    state.calls++;
    if (state.room === 0) throw Object.assign(new Error(state.error), { code: state.error });
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const taken = Math.min(state.room, bytes.byteLength);
    state.written.push(Buffer.from(bytes.subarray(0, taken)));
    return taken;
  };
  return { state, writeSync, text: () => Buffer.concat(state.written).toString('utf8') };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the log writer', () => {
  it('writes the lines of one turn with one call, in order, UTF-8 intact', async () => {
    const fd = fakeDescriptor();
    const writer = new TurnWriter(2, fd.writeSync);
    for (let index = 0; index < 50; index++) writer.write(`{"n":${index},"s":"é±"}\n`);
    expect(fd.state.calls).toBe(0);
    await nextTurn();
    expect(fd.state.calls).toBe(1);
    const lines = fd.text().trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([...Array(50).keys()]);
    expect(lines.every((line) => line.includes('é±'))).toBe(true);
  });

  it("makes a later line's text when its turn is written, in its place among the others, once", async () => {
    const fd = fakeDescriptor();
    const writer = new TurnWriter(2, fd.writeSync);
    let made = 0;
    const madeLater = (text: string) => ({ toString: () => (made++, text) });
    writer.write('one\n');
    writer.write(madeLater('two\n'));
    writer.write('three\n');
    expect(made).toBe(0);
    await nextTurn();
    expect(made).toBe(1);
    expect(fd.text()).toBe('one\ntwo\nthree\n');
    // Alone in its turn, too.
    writer.write(madeLater('four\n'));
    await nextTurn();
    expect(made).toBe(2);
    expect(fd.text()).toBe('one\ntwo\nthree\nfour\n');
  });

  it('writes what a descriptor took only in part, and after EAGAIN what it held first, nothing repeated', async () => {
    const fd = fakeDescriptor();
    const writer = new TurnWriter(2, fd.writeSync);
    fd.state.room = 7;
    writer.write('first line\n');
    writer.write('second line\n');
    await nextTurn();
    // A partial write is taken up again at once (7 bytes a call), even inside a character of two bytes.
    expect(fd.text()).toBe('first line\nsecond line\n');
    writer.write('ééééé\n');
    await nextTurn();
    expect(fd.text()).toBe('first line\nsecond line\nééééé\n');
    fd.state.room = 0;
    writer.write('held 1\n');
    await nextTurn();
    writer.write('held 2\n');
    await nextTurn();
    expect(fd.text()).toBe('first line\nsecond line\nééééé\n');
    fd.state.room = Infinity;
    // The retry after RETRY_MS writes both, in order.
    while (!fd.text().endsWith('held 2\n')) await later(5);
    expect(fd.text()).toBe('first line\nsecond line\nééééé\nheld 1\nheld 2\n');
  });

  it('writes everything held at exit, waiting for a full descriptor that takes it again', async () => {
    const fd = fakeDescriptor();
    const writer = new TurnWriter(2, fd.writeSync);
    fd.state.room = 0;
    writer.write('last words\n');
    await nextTurn();
    let tries = 0;
    const writeSync = fd.writeSync;
    // The descriptor takes bytes again at the third try.
    const flaky = new TurnWriter(2, (descriptor, bytes) => {
      tries++;
      if (tries === 3) fd.state.room = Infinity;
      return writeSync(descriptor, bytes);
    });
    fd.state.room = 0;
    flaky.write('exit line\n');
    flaky.writeOut(true);
    expect(tries).toBe(3);
    expect(fd.text()).toBe('exit line\n');
    writer.writeOut(true);
    expect(fd.text()).toBe('exit line\nlast words\n');
  });

  it('stops writing, without an error, once the descriptor is gone', async () => {
    const fd = fakeDescriptor();
    const writer = new TurnWriter(2, fd.writeSync);
    fd.state.room = 0;
    fd.state.error = 'EPIPE';
    writer.write('to nobody\n');
    await nextTurn();
    const calls = fd.state.calls;
    fd.state.room = Infinity;
    writer.write('still nobody\n');
    await nextTurn();
    writer.writeOut(true);
    expect(fd.state.calls).toBe(calls);
    expect(fd.text()).toBe('');
  });
});
