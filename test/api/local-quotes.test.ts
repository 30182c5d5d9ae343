import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalApi } from '../../src/api/local.js';
import { ProblemError } from '../../src/api/problems.js';
import { tempDir } from '../helpers/cli.js';

const now = () => new Date('2026-11-22T12:00:00Z');
const request = (overrides: Record<string, unknown> = {}) => ({
  pickupAddress: { zipCode: '60601' },
  deliveryAddress: { zipCode: '10001' },
  orderComponents: [{ palletCount: 2, poundsWeight: 1200, dimensions: { length: 48, width: 40, height: 48 } }],
  ...overrides,
});

let api: LocalApi;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const temp = await tempDir();
  cleanup = temp.cleanup;
  api = new LocalApi({ storeDir: temp.dir, now });
});
afterEach(() => cleanup());

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a ProblemError');
}

describe('LocalApi quotes', () => {
  it('creates a quote, stores it and reads the same quote back', async () => {
    const { data: quote, warnings } = await api.createLaneQuote(request());
    // No description: the freight check's NO_DESCRIPTION, and nothing else.
    expect(warnings.map((item) => item.code)).toEqual(['NO_DESCRIPTION']);
    expect(quote.id).toMatch(/^qt_[0-9A-Z]{26}$/);
    expect((await api.getQuote(quote.id)).data).toEqual(quote);
  });

  it('takes a date-time pickup as its day at the pickup, on either side of midnight there; refuses one that is no date-time', async () => {
    // Chicago (60601) is UTC-6 in November: 05:59:59Z is still Tuesday the 24th there, 06:00Z Wednesday the 25th.
    expect((await api.createLaneQuote(request({ requiredPickupDate: '2026-11-25T05:59:59Z' }))).data.requiredPickupDate).toBe('2026-11-24');
    expect((await api.createLaneQuote(request({ requiredPickupDate: '2026-11-25T06:00:00Z' }))).data.requiredPickupDate).toBe('2026-11-25');
    expect((await api.createLaneQuote(request({ requiredPickupDate: '2026-11-24T09:00:00-06:00' }))).data.requiredPickupDate).toBe('2026-11-24');
    for (const absurd of ['2026-13-01T00:00:00Z', '2026-11-24T09:00', 'tomorrow']) {
      const problem = await problemOf(api.createLaneQuote(request({ requiredPickupDate: absurd })));
      expect(problem.problem.violations, absurd).toEqual([expect.objectContaining({ field: 'requiredPickupDate' })]);
    }
  });

  it('answers an unknown ZIP as a violation on its path, together with the other violations', async () => {
    const problem = await problemOf(
      api.createLaneQuote(
        request({ deliveryAddress: { zipCode: '00000' }, orderComponents: [{ palletCount: 0, poundsWeight: 1, dimensions: { length: 1, width: 1, height: 1 } }] }),
      ),
    );
    expect(problem.status).toBe(400);
    expect(problem.problem.title).toBe('Constraint Violation');
    expect(problem.problem.violations).toEqual(
      expect.arrayContaining([
        { field: 'deliveryAddress.zipCode', reason: 'unknown ZIP 00000' },
        { field: 'orderComponents[0].palletCount', reason: expect.any(String) },
      ]),
    );
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await problemOf(api.getQuote('qt_01JD3Y7T9Q2W5E8R1T4Y7V0A3B'))).status).toBe(404);
    expect((await problemOf(api.getQuote('../../etc/passwd'))).status).toBe(404);
  });

  it('returns the same quote for the same idempotency key and body, and refuses the key with another body', async () => {
    const first = await api.createLaneQuote(request(), { idempotencyKey: 'k-1' });
    const again = await api.createLaneQuote(request(), { idempotencyKey: 'k-1' });
    expect(again.data.id).toBe(first.data.id);
    expect((await api.listQuotes()).data.items).toHaveLength(1);
    expect((await problemOf(api.createLaneQuote(request({ requiredPickupDate: '2026-11-24' }), { idempotencyKey: 'k-1' }))).status).toBe(409);
  });

  it('lists newest first and pages with the cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.createLaneQuote(request())).data.id);
    const first = await api.listQuotes({ limit: 2 });
    expect(first.data.items.map((quote) => quote.id)).toEqual([ids[4], ids[3]]);
    const second = await api.listQuotes({ limit: 2, cursor: first.data.nextCursor! });
    expect(second.data.items.map((quote) => quote.id)).toEqual([ids[2], ids[1]]);
    const last = await api.listQuotes({ limit: 2, cursor: second.data.nextCursor! });
    expect(last.data.items.map((quote) => quote.id)).toEqual([ids[0]]);
    expect(last.data.nextCursor).toBeNull();
  });

  it('reports a broken tariff naming the file and the field', async () => {
    const temp = await tempDir();
    const { writeFile } = await import('node:fs/promises');
    const file = `${temp.dir}/tariff.json`;
    await writeFile(file, JSON.stringify({ name: 'x' }));
    const broken = new LocalApi({ storeDir: temp.dir, tariffFile: file, now });
    const problem = await problemOf(broken.createLaneQuote(request()));
    // The operator (the local CLI, the server's log) learns the file and the field; an HTTP answer does not.
    expect(problem.internalDetail).toContain(file);
    expect(problem.internalDetail).toMatch(/effectiveDate|currency/);
    expect(problem.problem.detail).not.toContain(temp.dir);
    await temp.cleanup();
  });
});
