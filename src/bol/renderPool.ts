/**
 * BOL PDFs rendered on worker threads, one per core: `shipper bol --all` and a `serve` asked for
 * several BOLs at once render them side by side where one thread rendered them one after another
 * (rendering is most of the time of `bol --all`). Workers start on first use and keep the process
 * alive only while they render. A shipment a worker could not render comes back undefined: the
 * caller renders it in its own thread, which throws the renderer's own error.
 */
import { Worker } from 'node:worker_threads';
import type { Shipment } from '../domain/schemas.js';

interface Job {
  id: number;
  shipment: Shipment;
  template: string;
  originTimeZone: string | null;
  settle: (pdf: Uint8Array | undefined) => void;
}

interface PoolWorker {
  worker: Worker;
  job: Job | undefined;
}

export class BolRenderPool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private broken = false;

  constructor(
    private readonly script: string,
    private readonly templatesDir: string,
    private readonly size: number,
  ) {}

  /** False once workers could not be started or one died (every BOL then comes back undefined). */
  get working(): boolean {
    return !this.broken;
  }

  render(shipment: Shipment, template: string, originTimeZone: string | null): Promise<Uint8Array | undefined> {
    if (this.broken) return Promise.resolve(undefined);
    return new Promise((settle) => {
      this.queue.push({ id: this.nextId++, shipment, template, originTimeZone, settle });
      this.dispatch();
    });
  }

  /** Stops the workers (a server shutting down); what is queued comes back undefined. */
  async close(): Promise<void> {
    this.broken = true;
    for (const job of this.queue.splice(0)) job.settle(undefined);
    await Promise.all(this.workers.splice(0).map(({ worker }) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.workers.find((entry) => entry.job === undefined) ?? this.start();
      if (!idle) return;
      const job = this.queue.shift()!;
      idle.job = job;
      idle.worker.ref();
      idle.worker.postMessage({ id: job.id, shipment: job.shipment, template: job.template, originTimeZone: job.originTimeZone });
    }
  }

  private start(): PoolWorker | undefined {
    if (this.workers.length >= this.size) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.script, { workerData: { templatesDir: this.templatesDir } });
    } catch {
      this.fail();
      return undefined;
    }
    const entry: PoolWorker = { worker, job: undefined };
    worker.on('message', (answer: { id: number; pdf?: Uint8Array; failed?: boolean }) => {
      const job = entry.job;
      if (!job || job.id !== answer.id) return;
      entry.job = undefined;
      worker.unref();
      job.settle(answer.pdf);
      this.dispatch();
    });
    // A worker that dies takes its job back to the caller's thread, and the pool stops using workers.
    const lost = () => {
      const job = entry.job;
      entry.job = undefined;
      job?.settle(undefined);
      this.fail();
    };
    worker.on('error', lost);
    worker.on('exit', lost);
    worker.unref();
    this.workers.push(entry);
    return entry;
  }

  private fail(): void {
    this.broken = true;
    for (const job of this.queue.splice(0)) job.settle(undefined);
  }
}
