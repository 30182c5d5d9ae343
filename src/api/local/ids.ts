/**
 * Record ids: a prefix and a ULID (`qt_`, `sh_`), so they sort by creation time and lists are
 * newest first without reading other records.
 */
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export class IdFactory {
  private readonly nextUlid = monotonicFactory(pooledRandom());

  quote(now: Date): string {
    return `qt_${this.nextUlid(now.getTime())}`;
  }

  shipment(now: Date): string {
    return `sh_${this.nextUlid(now.getTime())}`;
  }

  /** An uploaded appointment document. */
  document(now: Date): string {
    return `doc_${this.nextUlid(now.getTime())}`;
  }
}

/** The quote a quote-first booking was priced on shares its shipment's ULID: `qt_X` for `sh_X`. */
export const quoteIdOfBooking = (shipmentId: string): string => `qt_${shipmentId.slice(3)}`;

/**
 * ulid's default PRNG asks the OS for one random byte per character (16 calls per id); the same
 * cryptographic bytes drawn 4 KiB at a time cost a batch import far less.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}
