/** Dollars as people type them ($1,250.50, 1250.5, 1250) to whole cents. Pure. */
import { groupedDigits } from './numberText.js';

export type DollarsReading = { cents: number } | { problem: string };

export function parseDollars(text: string): DollarsReading {
  const cleaned = text
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return { problem: `"${text.trim()}" is not an amount in dollars, e.g. 1250 or 1,250.50` };
  const [whole, fraction = ''] = cleaned.split('.');
  return { cents: Number(whole) * 100 + Number(fraction.padEnd(2, '0')) };
}

// Built on first use, for fractions of a cent only: the first currency format loads ICU's currency
// data (3 to 15 ms of a command's start-up).
let usd: Intl.NumberFormat | undefined;

/** Cents as people read dollars: `$1,250.50`, `-$80.20`, `$0.00` (never `-$0.00`). */
export function formatCents(cents: number): string {
  // Whole cents below 10^15 are what Intl prints (their dollars, 15 digits at most, survive the division exactly).
  if (Number.isInteger(cents) && Math.abs(cents) < 1e15) {
    const whole = Math.abs(cents);
    const dollars = groupedDigits(String(Math.floor(whole / 100)));
    // -0 (a rounded -0.4 cents) is no debt.
    return `${cents < 0 ? '-' : ''}$${dollars}.${String(whole % 100).padStart(2, '0')}`;
  }
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usd.format(cents / 100);
}

/** Cents as dollars with 2 decimals, for CSV files accountants read: `1250.50`, `-80.20`, `0.00` (never `1250.5`); X12 and eBOL amounts too. */
export function dollarsText(cents: number): string {
  return (cents / 100).toFixed(2);
}
