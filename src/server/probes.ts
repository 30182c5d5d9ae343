/**
 * The probes of a load balancer or an orchestrator: GET /healthz (the process answers: 200) and
 * GET /readyz (the store answers a trivial query within a short timeout and its schema is this
 * version's: 200; otherwise 503 with a ProblemDetail that says which). Readiness turns 503 the
 * moment a drain starts, while the server still serves (drain.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_TYPE } from '../api/operations.js';
import { makeProblem } from '../api/problems.js';
import { DEFAULT_READY_TIMEOUT_MS } from './defaults.js';
import { sendPlain } from './exchange.js';

export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';

/** What the store says about itself (ShipperStore.readiness()). */
export type StoreReadiness = { ok: true } | { ok: false; reason: 'unavailable' | 'schema'; message: string };

export type NotReadyReason = 'draining' | 'store-unavailable' | 'store-schema' | 'store-timeout';
export type Verdict = { ready: true } | { ready: false; reason: NotReadyReason; detail: string; internal?: string | undefined };

export interface ProbesOptions {
  checkStore: () => Promise<StoreReadiness>;
  /** How long the store may take to answer the check (default 2 s). */
  timeoutMs?: number | undefined;
  /** Readiness changed (ready, or not and why): for the operator's log. */
  onChange?: ((verdict: Verdict) => void) | undefined;
}

const DETAILS: Record<NotReadyReason, string> = {
  draining: 'the server is shutting down: send requests to another instance',
  'store-unavailable': 'the store is unavailable',
  'store-schema': "the store's schema is not this version's: its migrations are not current",
  'store-timeout': 'the store did not answer the readiness check in time',
};

export class Probes {
  #draining = false;
  #checking: Promise<Verdict> | undefined;
  #last: boolean | undefined;
  readonly timeoutMs: number;

  constructor(private readonly options: ProbesOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on /readyz answers 503, whatever the store says. */
  startDrain(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#report(this.#notReady('draining'));
  }

  /** One check of the store at a time: probes arriving meanwhile share its answer. */
  readiness(): Promise<Verdict> {
    if (this.#draining) return Promise.resolve(this.#notReady('draining'));
    this.#checking ??= this.#check().finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #check(): Promise<Verdict> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
      timer.unref();
    });
    const checked = this.options
      .checkStore()
      .catch((error: unknown): StoreReadiness => ({ ok: false, reason: 'unavailable', message: error instanceof Error ? error.message : String(error) }));
    const outcome = await Promise.race([checked, timedOut]);
    clearTimeout(timer);
    let verdict: Verdict;
    if (this.#draining) verdict = this.#notReady('draining');
    else if (outcome === 'timeout') verdict = this.#notReady('store-timeout', `no answer within ${this.timeoutMs} ms`);
    else if (outcome.ok) verdict = { ready: true };
    else verdict = this.#notReady(outcome.reason === 'schema' ? 'store-schema' : 'store-unavailable', outcome.message);
    this.#report(verdict);
    return verdict;
  }

  #notReady(reason: NotReadyReason, internal?: string): Verdict {
    return { ready: false, reason, detail: DETAILS[reason], internal };
  }

  #report(verdict: Verdict): void {
    if (this.#last === verdict.ready && verdict.ready) return;
    if (this.#last === false && !verdict.ready && verdict.reason !== 'draining') return;
    this.#last = verdict.ready;
    this.options.onChange?.(verdict);
  }

  /** Answers GET/HEAD /healthz and /readyz; false for any other path. */
  answer(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    if (pathname !== HEALTHZ_PATH && pathname !== READYZ_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const problem = makeProblem(405, 'method-not-allowed', 'Method Not Allowed', `${req.method} is not allowed on ${pathname}; use GET, HEAD`).problem;
      sendPlain(req, res, 405, JSON.stringify({ ...problem, instance: pathname }), `${PROBLEM_TYPE}; charset=utf-8`, { allow: 'GET, HEAD' });
      return true;
    }
    if (pathname === HEALTHZ_PATH) {
      sendPlain(req, res, 200, '{"status":"ok"}', 'application/json; charset=utf-8');
      return true;
    }
    void this.readiness()
      .then((verdict) => {
        if (verdict.ready) return sendPlain(req, res, 200, '{"status":"ready"}', 'application/json; charset=utf-8');
        const problem = makeProblem(503, 'not-ready', 'Not Ready', verdict.detail).problem;
        sendPlain(req, res, 503, JSON.stringify({ ...problem, instance: pathname, reason: verdict.reason }), `${PROBLEM_TYPE}; charset=utf-8`, {
          // Draining: this instance is going away and will not come back; otherwise: look again soon.
          ...(verdict.reason === 'draining' ? { connection: 'close' } : { 'retry-after': '1' }),
        });
      })
      .catch(() => res.destroy());
    return true;
  }
}
