/**
 * A worker thread of the BOL render pool (renderPool.ts): loads pdf-lib, the fonts and the
 * templates once, then renders the shipments the pool sends, one at a time, in order. A failure is
 * answered as such; the pool then renders that shipment in its own thread, which throws the
 * renderer's own error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Shipment } from '../domain/schemas.js';
import { createBolRenderer } from './render.js';
import { useZoneTransitions } from '../domain/dates.js';
import { readZoneTransitions } from '../geo/zoneTransitions.js';

interface RenderJob {
  id: number;
  shipment: Shipment;
  template: string;
  originTimeZone: string | null;
}

const port = parentPort!;
// The dates a BOL prints in its origin's zone come from the build's tables, as in the CLI's thread (src/cli/main.ts).
useZoneTransitions(readZoneTransitions);
// One job at a time (the pool may hand over several: they wait their turn), so the zone is the job's.
let originTimeZone: string | null = null;
const renderer = createBolRenderer({ templatesDir: (workerData as { templatesDir: string }).templatesDir, timeZoneOf: () => originTimeZone ?? undefined });
let turn: Promise<void> = Promise.resolve();

port.on('message', (job: RenderJob) => {
  turn = turn.then(async () => {
    originTimeZone = job.originTimeZone;
    try {
      const pdf = await renderer.render(job.shipment, job.template);
      // The PDF's memory moves to the pool's thread instead of being copied (pdf-lib saves into a buffer of its own).
      port.postMessage({ id: job.id, pdf }, pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : []);
    } catch {
      port.postMessage({ id: job.id, failed: true });
    }
  });
});
