import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBolRenderer } from '../../src/bol/render.js';
import { BolRenderPool } from '../../src/bol/renderPool.js';
import { packageRoot, templatesDir } from '../../src/paths.js';
import { makeShipment } from './fixtures.js';
import { readPdf } from './pdf-reader.js';

// The worker is the built one (npm test builds first), as the CLI starts it.
const script = join(packageRoot(), 'dist', 'bol', 'renderWorker.js');
const bolTemplates = join(templatesDir(), 'bol');
const pool = new BolRenderPool(script, bolTemplates, 2);
afterAll(() => pool.close());

const textOf = async (pdf: Uint8Array) => (await readPdf(pdf)).pages.map((page) => page.text).join('\n');

describe('the BOL render pool', () => {
  it('is built where the CLI starts it', () => {
    expect(existsSync(script)).toBe(true);
  });

  it('renders several shipments at once on worker threads, each the PDF this thread renders (same text, same origin time zone)', async () => {
    const shipments = [1, 2, 3, 4, 5].map((serial) => makeShipment({ serial, refNumber: `PO-POOL-${serial}` }));
    const pdfs = await Promise.all(shipments.map((shipment) => pool.render(shipment, 'standard', 'America/Chicago')));
    const inThread = createBolRenderer({ templatesDir: bolTemplates, timeZoneOf: () => 'America/Chicago' });
    for (const [index, shipment] of shipments.entries()) {
      const pdf = pdfs[index];
      expect(pdf).toBeInstanceOf(Uint8Array);
      const text = await textOf(pdf!);
      expect(text).toContain(shipment.bolNumber);
      expect(text).toContain(`PO-POOL-${index + 1}`);
      expect(text).toBe(await textOf(await inThread.render(shipment, 'standard')));
    }
  });

  it('hands one worker several shipments at once, each rendered with its own origin time zone', async () => {
    const single = new BolRenderPool(script, bolTemplates, 1);
    try {
      // Cancelled at 10:30 UTC: the 22nd at the origin 14 hours ahead, the 20th 11 hours behind.
      const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
      const shipments = zones.map((_, index) =>
        makeShipment({ serial: 70 + index, extra: { orderStatus: 'CANCELLED', cancelledAt: '2026-11-21T10:30:00.000Z', cancellationReason: 'order withdrawn' } }),
      );
      const pdfs = await Promise.all(shipments.map((shipment, index) => single.render(shipment, 'standard', zones[index]!)));
      for (const [index, shipment] of shipments.entries()) {
        const inThread = createBolRenderer({ templatesDir: bolTemplates, timeZoneOf: () => zones[index] });
        const text = await textOf(pdfs[index]!);
        expect(text).toBe(await textOf(await inThread.render(shipment, 'standard')));
        expect(text).toContain(index % 2 === 0 ? '2026-11-22' : '2026-11-20');
      }
    } finally {
      await single.close();
    }
  });

  it('gives back undefined for what a worker cannot render (an unknown template), for the caller to render and throw', async () => {
    await expect(pool.render(makeShipment(), 'no-such-template', null)).resolves.toBeUndefined();
    // The pool still renders after a refusal.
    expect(await pool.render(makeShipment({ serial: 9 }), 'standard', null)).toBeInstanceOf(Uint8Array);
  });

  it('after close, renders nothing more in workers (undefined: the caller renders)', async () => {
    const closing = new BolRenderPool(script, bolTemplates, 1);
    expect(await closing.render(makeShipment(), 'standard', null)).toBeInstanceOf(Uint8Array);
    await closing.close();
    await expect(closing.render(makeShipment(), 'standard', null)).resolves.toBeUndefined();
  });
});
