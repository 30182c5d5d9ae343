/**
 * The graceful drain of `shipper serve`. On SIGTERM or SIGINT:
 *   1. /readyz answers 503 at once, and every answer closes its connection, while the server
 *      still serves for the drain delay (so that a load balancer sees it and stops sending);
 *   2. then it stops accepting connections, closes idle keep-alive connections and lets requests
 *      in flight finish for up to the drain timeout (then cuts what is left);
 *   3. then the admin port closes, and the caller closes the store and exits 0.
 * A second signal, at any step, cuts every connection and ends the drain at once.
 */
import type { Probes } from './probes.js';

export interface Drainable {
  drain(): void;
  close(graceMs: number): Promise<void>;
  readonly server: { closeAllConnections(): void };
}

export interface DrainEvents {
  /** The drain began: readiness is 503 from now on. */
  started(signal: string): void;
  /** The delay is over: no new connection from now on. */
  closing(): void;
  /** A second signal: what was in flight has been cut. */
  forced(signal: string): void;
}

export interface DrainOptions {
  signals: NodeJS.EventEmitter;
  service: Drainable;
  probes: Probes;
  delayMs: number;
  timeoutMs: number;
  /** The admin port, closed last (its probes say 503 until then). */
  admin?: { close(): Promise<void> } | undefined;
  events: DrainEvents;
}

/** Resolves once the drain is over (the listeners are closed); the signal handlers are removed then. */
export function drainOnSignals(options: DrainOptions): Promise<{ signal: string; forced: boolean }> {
  const { signals, service, probes, events } = options;
  return new Promise((resolve) => {
    let first: string | undefined;
    let finished = false;
    let forcing = false;
    let delay: NodeJS.Timeout | undefined;
    let endDelay: (() => void) | undefined;
    const finish = (forced: boolean) => {
      if (finished) return;
      finished = true;
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve({ signal: first!, forced });
    };
    const onSignal = (signal: string) => {
      if (first !== undefined) {
        // A second signal: no more waiting.
        if (forcing) return;
        forcing = true;
        clearTimeout(delay);
        service.server.closeAllConnections();
        events.forced(signal);
        void service.close(0).catch(() => undefined);
        endDelay?.();
        void (options.admin?.close() ?? Promise.resolve()).finally(() => finish(true));
        return;
      }
      first = signal;
      probes.startDrain();
      service.drain();
      events.started(signal);
      void new Promise<void>((wait) => {
        endDelay = wait;
        delay = setTimeout(wait, options.delayMs);
      })
        .then(async () => {
          if (forcing) return;
          events.closing();
          await service.close(options.timeoutMs);
          await options.admin?.close();
        })
        .finally(() => {
          if (!forcing) finish(false);
        });
    };
    const onInt = () => onSignal('SIGINT');
    const onTerm = () => onSignal('SIGTERM');
    signals.on('SIGINT', onInt);
    signals.on('SIGTERM', onTerm);
  });
}
