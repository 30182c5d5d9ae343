/**
 * A carrier's freight bill as the audit reads it, whatever file it came in (the bill CSV layout or
 * an X12 210): the keys that match it to a shipment (PRO, BOL), the freight lines as billed
 * (weight, class) and the charges (linehaul, discount, fuel, accessorials, total) in cents. Pure:
 * zod, and the parsers of the values carriers write (money in dollars, classes, dates).
 */
import { z } from 'zod';
import { isCalendarDate } from '../domain/dates.js';
import { formatCents } from '../domain/money.js';
import { FREIGHT_CLASSES, type FreightClass } from '../domain/schemas.js';

export const BILL_FORMATS = ['csv', 'x12-210'] as const;

export const billLineSchema = z.object({
  /** 1-based, in the bill's order. */
  line: z.number().int(),
  poundsWeight: z.number(),
  /** As billed, normalised ("92.5"); null when the bill gives none. */
  freightClass: z.string().nullable(),
  description: z.string().nullable(),
  nmfcCode: z.string().nullable(),
  pieces: z.number().int().nullable(),
});
export type BillLine = z.infer<typeof billLineSchema>;

export const billChargeSchema = z.object({ code: z.string(), description: z.string().nullable(), amountInCents: z.number().int() });
export type BillCharge = z.infer<typeof billChargeSchema>;

export const carrierBillSchema = z.object({
  source: z.object({ file: z.string(), line: z.number().int(), format: z.enum(BILL_FORMATS) }),
  invoiceNumber: z.string().nullable(),
  proNumber: z.string().nullable(),
  bolNumber: z.string().nullable(),
  scac: z.string().nullable(),
  billDate: z.string().nullable(),
  lines: z.array(billLineSchema),
  linehaulInCents: z.number().int(),
  /** What the carrier took off the linehaul (>= 0). */
  discountInCents: z.number().int(),
  fuelSurchargeInCents: z.number().int(),
  accessorials: z.array(billChargeSchema),
  totalInCents: z.number().int(),
});
export type CarrierBill = z.infer<typeof carrierBillSchema>;

/** A problem that makes a bill unreadable, where it is: `bills.csv line 4, column billedWeight: ...`. */
export interface BillIssue {
  file: string;
  line: number;
  /** The column (CSV) or element (X12, e.g. "L004") the problem is in. */
  where?: string;
  message: string;
}

export function issueLine(issue: BillIssue): string {
  return `${issue.file} line ${issue.line}${issue.where ? `, ${issue.where}` : ''}: ${issue.message}`;
}

export type BillsRead = { ok: true; bills: CarrierBill[] } | { ok: false; issues: BillIssue[] };

// ---------------------------------------------------------------------------------------------
// Values as carriers write them

const MONEY = /^(-)?\$?(-)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * Dollars as written on a bill, exactly in cents (no floating point): `1412.94`, `1,412.94`,
 * `$1,412.94`, `-989.06`, `-$989.06`, `(989.06)`. Null when the text is not an amount.
 */
export function parseDollars(text: string): number | null {
  let value = text.trim();
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1).trim();
  }
  const match = MONEY.exec(value);
  if (!match || (match[1] && match[2])) return null;
  const [, minus, innerMinus, whole, fraction = ''] = match;
  const cents = Number(whole!.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return (negative || minus || innerMinus ? -1 : 1) * cents;
}

/**
 * The most any amount of a bill may be, either way: $10,000,000, what a shipment may declare or
 * collect (carrier.ts). An LTL freight bill is thousands of dollars; a total of -$10 trillion is a
 * broken file, refused with its line, never audited into the spend report.
 */
export const MAX_BILL_AMOUNT_IN_CENTS = 1_000_000_000;

/** Why an amount (cents) is refused as absurd, or undefined. */
export function absurdAmountProblem(cents: number): string | undefined {
  if (Math.abs(cents) <= MAX_BILL_AMOUNT_IN_CENTS) return undefined;
  return `${formatCents(cents)} is beyond any freight bill (amounts are at most $10,000,000 either way)`;
}

/** Classes of the 13-subprovision scale, plus those of the older 18-class scale carriers may still bill. */
export const BILLABLE_CLASSES = ['50', '55', '60', '65', '70', '77.5', '85', '92.5', '100', '110', '125', '150', '175', '200', '250', '300', '400', '500'] as const;

/** "092.50" -> "92.5"; null when the text is not an NMFC class. */
export function parseFreightClass(text: string): string | null {
  const value = text.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return null;
  const normalised = String(Number(value));
  return (BILLABLE_CLASSES as readonly string[]).includes(normalised) ? normalised : null;
}

/**
 * The tariff class a billed class is rated at: itself on the 13-subprovision scale; a class of the
 * older scale at the next class up that the tariff has (77.5 -> 85, 110 -> 125, 150 -> 175,
 * 200 -> 250, 500 -> 400, the highest).
 */
export function ratingClassOf(billedClass: string): FreightClass {
  if ((FREIGHT_CLASSES as readonly string[]).includes(billedClass)) return billedClass as FreightClass;
  const value = Number(billedClass);
  return FREIGHT_CLASSES.find((freightClass) => Number(freightClass) >= value) ?? '400';
}

/**
 * The most a bill line may weigh: 22 full trailers. A carrier may bill a wrong weight and the
 * audit must dispute it, but beyond this no amount at stake would be meaningful (or exact).
 */
export const MAX_BILLED_POUNDS = 1_000_000;

/** A weight in pounds as written (`1,250`, `1250.5`), above 0 and at most MAX_BILLED_POUNDS; null otherwise. */
export function parsePounds(text: string): number | null {
  const value = text.trim().replaceAll(',', '');
  if (!/^\d+(\.\d+)?$/.test(value)) return null;
  const pounds = Number(value);
  return Number.isFinite(pounds) && pounds > 0 && pounds <= MAX_BILLED_POUNDS ? pounds : null;
}

/** `2026-12-01`, `20261201` or `12/01/2026` as YYYY-MM-DD; null otherwise. */
export function parseBillDate(text: string): string | null {
  const value = text.trim();
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1]!.padStart(2, '0'), us[2]!.padStart(2, '0')] : [];
  if (!year) return null;
  const date = `${year}-${month}-${day}`;
  return isCalendarDate(date) ? date : null;
}

export { billKeyOf, billName } from './names.js';
