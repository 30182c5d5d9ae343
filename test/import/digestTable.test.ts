import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestTable } from '../../src/import/digestTable.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

describe('DigestTable', () => {
  it('keeps what was set under each digest, through many doublings, against a Map', () => {
    const table = new DigestTable(2, 2);
    const reference = new Map<string, [number, number]>();
    for (let index = 0; index < 20_000; index++) {
      const key = `order-${index % 15_000}`;
      const numbers: [number, number] = [index, 0xffffffff - index];
      table.set(digest(key), numbers);
      reference.set(key, numbers);
    }
    expect(table.size).toBe(15_000);
    for (const [key, numbers] of reference) expect(Array.from(table.get(digest(key))!)).toEqual(numbers);
    expect(table.get(digest('never set'))).toBeUndefined();
  });

  it('tells digests apart that share their first word (the slot) but not the rest', () => {
    const table = new DigestTable(1, 4);
    const a = new Uint8Array(32);
    const b = new Uint8Array(32);
    b[15] = 1;
    const c = new Uint8Array(32);
    c[16] = 1; // beyond the 128 bits kept: the same key as a
    table.set(a, [1]);
    table.set(b, [2]);
    expect(table.get(a)?.[0]).toBe(1);
    expect(table.get(b)?.[0]).toBe(2);
    expect(table.get(c)?.[0]).toBe(1);
    expect(table.size).toBe(2);
  });

  it('reads a digest inside a larger buffer at its offset, and forgets everything on clear', () => {
    const table = new DigestTable();
    const buffer = Buffer.concat([Buffer.from('prefix--'), digest('x')]);
    table.set(buffer.subarray(8), [7]);
    expect(table.get(digest('x'))?.[0]).toBe(7);
    table.clear();
    expect(table.size).toBe(0);
    expect(table.get(digest('x'))).toBeUndefined();
  });

  it('holds the largest number a slot takes, and 0 for numbers not given', () => {
    const table = new DigestTable(3);
    table.set(digest('k'), [0xffffffff]);
    expect(Array.from(table.get(digest('k'))!)).toEqual([0xffffffff, 0, 0]);
  });
});
