/**
 * How shipments are found by the numbers people have at hand: order numbers, BOL numbers, PRO
 * numbers and references are matched in one normal form, whatever their case, spacing or dashes.
 * Pure: the stores (their indexes) and the engine (its filters) share these.
 */
import { orderNumberFor } from './bolNumber.js';

/** PRO numbers match whatever their case, spaces and dashes: carriers print "123-4567-8" for 12345678. */
export function normalisedProNumber(proNumber: string): string {
  return proNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** References match whatever their case and spacing: "po-4471 " and "PO-4471" are one order. */
export function normalisedReference(refNumber: string): string {
  return refNumber.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** An order number as a path or a person may write it: `SO-000123`, `so123`, `SO-0123`. */
export const ORDER_NUMBER = /^SO-?\d{1,15}$/i;

/** An order number as booked (`SO-000123`), from `so123`, `SO-0123` and the like. */
export function normalisedOrderNumber(orderNumber: string): string {
  return orderNumberFor(Number(orderNumber.trim().replace(/^SO-?/i, '')));
}

/** The serial of an order number as booked (`SO-000123` -> 123), or null. */
export function orderSerialOf(orderNumber: string): number | null {
  const match = /^SO-(\d+)$/.exec(orderNumber);
  return match ? Number(match[1]) : null;
}

/**
 * The order serials a 17-digit BOL number can carry, one per company prefix length (7 to 10
 * digits, then the serial, then the check digit): the candidates of a look-up by BOL number
 * when the prefix in effect when it was booked is not known.
 */
export function serialsOfBolNumber(bolNumber: string): number[] {
  if (!/^\d{17}$/.test(bolNumber)) return [];
  return [...new Set([7, 8, 9, 10].map((prefixLength) => Number(bolNumber.slice(prefixLength, -1))))];
}
