/**
 * Order and BOL numbers: one serial per shipment from the store's `orders` counter, which only
 * ever goes up (the store keeps it so across crashes and restores: src/store/ports.ts Counters).
 * The BOL number is the company prefix, the serial and a check digit.
 */
import { bolNumberFor, DOCUMENTATION_BOL_COMPANY_PREFIX, orderNumberFor } from '../../domain/bolNumber.js';
import { orderSerialOf } from '../../domain/recordKeys.js';
import type { Shipment } from '../../domain/schemas.js';
import type { Counters } from '../../store/ports.js';
import { PROBLEM_TYPE_BASE, ProblemError } from '../problems.js';

export interface NumberingOptions {
  /** GS1 company prefix of BOL numbers (7-10 digits). */
  bolCompanyPrefix?: string | undefined;
}

/** The order serials a shipment carries (for a store that must find the highest one issued). */
const orderSerialsOf = (shipment: Shipment) => [orderSerialOf(shipment.orderNumber)];

export class Numbering {
  readonly bolCompanyPrefix: string;

  constructor(options: NumberingOptions = {}) {
    this.bolCompanyPrefix = options.bolCompanyPrefix ?? DOCUMENTATION_BOL_COMPANY_PREFIX;
  }

  get usesDocumentationPrefix(): boolean {
    return this.bolCompanyPrefix === DOCUMENTATION_BOL_COMPANY_PREFIX;
  }

  /** Reserves `count` consecutive order serials in the unit of work and returns the first. */
  async reserveOrders(counters: Counters, count: number): Promise<number> {
    // Every serial must fit the BOL number after the company prefix: refuse before spending any.
    const serialDigits = 16 - this.bolCompanyPrefix.length;
    const first = await counters.reserve('orders', count, { capacity: 10 ** serialDigits - 1, numbersOf: orderSerialsOf });
    if (first === null) {
      const used = await counters.last('orders', { numbersOf: orderSerialsOf });
      throw new ProblemError({
        type: `${PROBLEM_TYPE_BASE}numbers-exhausted`,
        title: 'Numbers Exhausted',
        status: 500,
        detail: `BOL numbers under company prefix ${this.bolCompanyPrefix} have ${serialDigits} digits of serial, and ${used} are used; a longer prefix leaves fewer, a shorter one more`,
      });
    }
    return first;
  }

  orderNumber(serial: number): string {
    return orderNumberFor(serial);
  }

  bolNumber(serial: number): string {
    return bolNumberFor(this.bolCompanyPrefix, serial);
  }
}
