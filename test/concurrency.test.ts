import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapInOrder } from '../src/concurrency.js';

describe('mapInOrder', () => {
  it('keeps the order of the items whatever order the calls finish in', async () => {
    const results = await mapInOrder([30, 5, 20, 1, 10], 3, async (ms) => {
      await sleep(ms);
      return ms * 2;
    });
    expect(results).toEqual([60, 10, 40, 2, 20]);
  });

  it('never has more than `concurrency` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await mapInOrder(
      Array.from({ length: 25 }, (_, i) => i),
      4,
      async (i) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep(i % 3);
        inFlight--;
      },
    );
    expect(most).toBe(4);
  });

  it('rejects with the first failure, starts nothing after it and waits for the calls in flight', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = mapInOrder(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (i) => {
        started.push(i);
        if (i === 4) throw new Error('item 4 failed');
        await sleep(5);
        finished++;
      },
    );
    await expect(run).rejects.toThrow('item 4 failed');
    expect(started.length).toBeLessThan(20);
    // Everything that started and did not fail has finished by the time the caller sees the error.
    expect(finished).toBe(started.length - 1);
  });

  it('answers an empty list without calling fn', async () => {
    expect(await mapInOrder([], 8, async () => expect.unreachable())).toEqual([]);
  });
});
