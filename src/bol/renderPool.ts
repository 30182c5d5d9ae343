/**
 * BOL PDFs rendered on worker threads, one per core: `shipper bol --all` and a `serve` asked for
 * several BOLs at once render them side by side where one thread rendered them one after another
 * (rendering is most of the time of `bol --all`). Workers start on first use and keep the process
 * alive only while they render. A shipment a worker could not render comes back undefined: the
 * caller renders it in its own thread, which throws the renderer's own error. Each worker is
 * handed a few shipments at once and renders them in turn, so that it goes on rendering while
 * this thread waits for the CPU (a loaded machine) instead of waiting for its next shipment.
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
  /** Handed to the worker, in the order it renders them. */
  jobs: Job[];
}

/** Shipments handed to one worker at most. */
const JOBS_PER_WORKER = 3;

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
      // The least busy worker; a new one while a worker has any job and there is room for one more.
      const least = this.workers.reduce<PoolWorker | undefined>((best, entry) => (!best || entry.jobs.length < best.jobs.length ? entry : best), undefined);
      const target = least && (least.jobs.length === 0 || this.workers.length >= this.size) ? least : (this.start() ?? least);
      if (!target || target.jobs.length >= JOBS_PER_WORKER) return;
      const job = this.queue.shift()!;
      target.jobs.push(job);
      target.worker.ref();
      target.worker.postMessage({ id: job.id, shipment: job.shipment, template: job.template, originTimeZone: job.originTimeZone });
    }
  }

  private start(): PoolWorker | undefined {
    if (this.broken || this.workers.length >= this.size) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.script, { workerData: { templatesDir: this.templatesDir } });
    } catch {
      this.fail();
      return undefined;
    }
    const entry: PoolWorker = { worker, jobs: [] };
    worker.on('message', (answer: { id: number; pdf?: Uint8Array; failed?: boolean }) => {
      const index = entry.jobs.findIndex((job) => job.id === answer.id);
      if (index === -1) return;
      const [job] = entry.jobs.splice(index, 1);
      if (entry.jobs.length === 0) worker.unref();
      job!.settle(answer.pdf);
      this.dispatch();
    });
    // A worker that dies takes its jobs back to the caller's thread, and the pool stops using workers.
    const lost = () => {
      for (const job of entry.jobs.splice(0)) job.settle(undefined);
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
