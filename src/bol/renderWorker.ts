/**
 * A worker thread of the BOL render pool (renderPool.ts): loads pdf-lib, the fonts and the
 * templates once, then renders one shipment at a time as the pool sends them. A failure is
 * answered as such; the pool then renders that shipment in its own thread, which throws the
 * renderer's own error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Shipment } from '../domain/schemas.js';
import { createBolRenderer } from './render.js';

interface RenderJob {
  id: number;
  shipment: Shipment;
  template: string;
  originTimeZone: string | null;
}

const port = parentPort!;
// One job at a time per worker (the pool waits for each answer), so the zone is the job's.
let originTimeZone: string | null = null;
const renderer = createBolRenderer({ templatesDir: (workerData as { templatesDir: string }).templatesDir, timeZoneOf: () => originTimeZone ?? undefined });

port.on('message', (job: RenderJob) => {
  originTimeZone = job.originTimeZone;
  renderer.render(job.shipment, job.template).then(
    // The PDF's memory moves to the pool's thread instead of being copied (pdf-lib saves into a buffer of its own).
    (pdf) => port.postMessage({ id: job.id, pdf }, pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [pdf.buffer as ArrayBuffer] : []),
    () => port.postMessage({ id: job.id, failed: true }),
  );
});
