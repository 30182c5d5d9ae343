/**
 * fuel.json: a carrier's fuel surcharge table on the weekly DOE/EIA US on-highway diesel price
 * (series EMD_EPD2D_PTE_NUS_DPG), in thousandths of a dollar ("mills"), versioned by effective
 * date; and the rule that picks a pickup date's index week. Pure: zod and date arithmetic.
 */
import { z } from 'zod';
import { onFirstUse } from '../schemaOnFirstUse.js';
import { isoDateSchema } from '../schemas.js';
import { addDays, daysBetween, weekdayOf } from '../dates.js';
import { add, compare, ofDecimal, ratio, sub, ZERO, mul, type Ratio } from './ratio.js';
import { percentText } from './agreement.js';

const mills = z.number().int({ message: 'a price in mills is a whole number (3712 = $3.712)' }).min(0).max(100_000);
const stepSchema = z.strictObject({ stepMills: mills.min(1), stepPercent: percentText });

export const fuelTableSchema = onFirstUse(() =>
  z
    .strictObject({
      effectiveDaysAfterIndexMonday: z.number().int().min(0).max(6).meta({ description: 'Days after the index Monday on which its percentage takes effect (2: the Wednesday)' }),
      versions: z
        .array(
          z
            .strictObject({
              from: isoDateSchema,
              bands: z.array(z.strictObject({ atLeastMills: mills, lessThanMills: mills, percent: percentText })).min(1),
              below: stepSchema.optional(),
              above: stepSchema.optional(),
            })
            .superRefine((version, ctx) => {
              version.bands.forEach((band, index) => {
                if (band.lessThanMills <= band.atLeastMills) ctx.addIssue({ code: 'custom', path: ['bands', index, 'lessThanMills'], message: 'must be above atLeastMills' });
                const previous = version.bands[index - 1];
                if (previous && band.atLeastMills !== previous.lessThanMills) {
                  ctx.addIssue({
                    code: 'custom',
                    path: ['bands', index, 'atLeastMills'],
                    message: `bands must ascend without gaps: the previous band ends at ${previous.lessThanMills}`,
                  });
                }
              });
            }),
        )
        .min(1),
    })
    .superRefine((table, ctx) => {
      table.versions.forEach((version, index) => {
        const previous = table.versions[index - 1];
        if (previous && version.from <= previous.from) ctx.addIssue({ code: 'custom', path: ['versions', index, 'from'], message: 'versions must ascend by from' });
      });
    }),
);
export type FuelTable = z.output<typeof fuelTableSchema>;
export type FuelTableVersion = FuelTable['versions'][number];

/** The Monday on or before a date. */
export function mondayOnOrBefore(date: string): string {
  return addDays(date, -((weekdayOf(date) + 6) % 7)); // days since Monday
}

/** The latest Monday M with M + effectiveDaysAfterIndexMonday on or before the pickup date. */
export function indexMondayFor(pickupDate: string, effectiveDaysAfterIndexMonday: number): string {
  return mondayOnOrBefore(addDays(pickupDate, -effectiveDaysAfterIndexMonday));
}

/** The table version in force on a date (the latest that starts on or before it). */
export function versionInForce(table: FuelTable, date: string): FuelTableVersion | undefined {
  return table.versions.filter((version) => version.from <= date).at(-1);
}

/**
 * The percentage of a price. Below the first band each step of `stepMills` (a part step counts)
 * takes `stepPercent` off the first band's, never below 0; above the last, each step adds it.
 * Without `below`, no surcharge below the table; without `above`, the last band's percentage holds.
 */
export function fuelPercentFor(version: FuelTableVersion, priceMills: number): Ratio {
  const first = version.bands[0]!;
  const last = version.bands.at(-1)!;
  const band = version.bands.find((candidate) => candidate.atLeastMills <= priceMills && priceMills < candidate.lessThanMills);
  if (band) return ofDecimal(band.percent);
  if (priceMills < first.atLeastMills) {
    if (!version.below) return ZERO;
    const steps = Math.ceil((first.atLeastMills - priceMills) / version.below.stepMills);
    const percent = sub(ofDecimal(first.percent), mul(ratio(BigInt(steps)), ofDecimal(version.below.stepPercent)));
    return compare(percent, ZERO) < 0 ? ZERO : percent;
  }
  if (!version.above) return ofDecimal(last.percent);
  const steps = Math.floor((priceMills - last.lessThanMills) / version.above.stepMills) + 1;
  return add(ofDecimal(last.percent), mul(ratio(BigInt(steps)), ofDecimal(version.above.stepPercent)));
}

/** Weekly index prices: Monday -> mills. */
export type FuelPriceHistory = ReadonlyMap<string, number>;

/** A price older than this (before the index week) is stale. */
export const STALE_PRICE_DAYS = 14;

export interface FuelIndexPrice {
  /** The Monday whose price the pickup date's percentage is for. */
  indexWeek: string;
  /** The week whose price was used: the index week's, else the last before it. */
  week: string;
  mills: number;
  /** The index week had no price: the last price before it was used. */
  substituted: boolean;
  /** The price used is more than STALE_PRICE_DAYS older than the index week. */
  stale: boolean;
}

/** The price of the index week, else the last known before it; undefined when the history has none. */
export function indexPriceFor(history: FuelPriceHistory, indexWeek: string): FuelIndexPrice | undefined {
  const exact = history.get(indexWeek);
  if (exact !== undefined) return { indexWeek, week: indexWeek, mills: exact, substituted: false, stale: false };
  let week: string | undefined;
  for (const candidate of history.keys()) if (candidate <= indexWeek && (week === undefined || candidate > week)) week = candidate;
  if (week === undefined) return undefined;
  return { indexWeek, week, mills: history.get(week)!, substituted: true, stale: daysBetween(week, indexWeek) > STALE_PRICE_DAYS };
}

/** "$3.712" of 3712 mills. */
export const formatMills = (value: number): string => `$${Math.floor(value / 1000)}.${String(value % 1000).padStart(3, '0')}`;
