/**
 * The tariff: every number the local rating engine uses, as data (templates/tariff/default.json
 * ships; users point at their own). Validated by zod so a broken tariff names the bad field.
 */
import { z } from 'zod';
import { FREIGHT_CLASSES, isoDateSchema } from './schemas.js';
import { DEFAULT_CARRIER_HOLIDAYS, HOLIDAY_RULES } from './transit.js';
import { PUBLISHED_LIMITS } from './publishedLimits.js';

const cents = z.number().int().min(0);
const percent = z.number().min(0).max(100);

export const tariffSchema = z
  .object({
    name: z.string().min(1),
    effectiveDate: isoDateSchema,
    currency: z.literal('USD'),
    /** Road miles are straight-line miles times this circuity factor. */
    routeFactor: z.number().min(1).max(2),
    /** Ascending; the last band is open-ended (maxMiles null). Each band sets the transit days. */
    distanceBands: z.array(z.object({ maxMiles: z.number().positive().nullable(), transitDays: z.number().int().min(0) })).min(1),
    /** Ascending; the first starts at 0 lb. The shipment's total weight picks the break. */
    weightBreaks: z.array(z.object({ minPounds: z.number().min(0), label: z.string().min(1) })).min(1),
    /** cents per hundredweight: ratesPerCwtInCents[class][distanceBand][weightBreak] */
    ratesPerCwtInCents: z.record(z.enum(FREIGHT_CLASSES), z.array(z.array(z.number().positive()))),
    minimumChargeInCents: cents,
    discountPercent: percent,
    fuelSurchargePercent: percent,
    accessorials: z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.object({ description: z.string(), amountInCents: cents })),
    coverage: z.object({ states: z.array(z.string().regex(/^[A-Z]{2}$/)).min(1) }),
    /** The published "valid for 2 days from creation" when a tariff says nothing (the shipped one says 48). */
    quoteLifetimeHours: z
      .number()
      .positive()
      .default(PUBLISHED_LIMITS.quoteValidDays * 24),
    /** Local time at the destination at which deliveries are promised. */
    deliveryCutoff: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be HH:MM' }),
    /** Local time at the origin after which carriers no longer pick up that day (a carrier's own, in the settings, wins). */
    pickupCutoff: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be HH:MM' })
      .default('16:00'),
    holidays: z
      .object({
        rules: z.array(z.enum(HOLIDAY_RULES)),
        extraDates: z.array(isoDateSchema).default([]),
        removedDates: z.array(isoDateSchema).default([]),
      })
      .default({ ...DEFAULT_CARRIER_HOLIDAYS, rules: [...DEFAULT_CARRIER_HOLIDAYS.rules], extraDates: [], removedDates: [] }),
  })
  .superRefine((tariff, ctx) => {
    const bands = tariff.distanceBands;
    bands.forEach((band, index) => {
      const isLast = index === bands.length - 1;
      if (isLast !== (band.maxMiles === null)) {
        ctx.addIssue({
          code: 'custom',
          path: ['distanceBands', index, 'maxMiles'],
          message: isLast ? 'the last band must be open-ended (null)' : 'only the last band may be open-ended',
        });
      }
      const previous = bands[index - 1];
      if (previous?.maxMiles != null && band.maxMiles !== null && band.maxMiles <= previous.maxMiles) {
        ctx.addIssue({ code: 'custom', path: ['distanceBands', index, 'maxMiles'], message: 'bands must ascend' });
      }
    });
    tariff.weightBreaks.forEach((weightBreak, index) => {
      const previous = tariff.weightBreaks[index - 1];
      if (index === 0 && weightBreak.minPounds !== 0) {
        ctx.addIssue({ code: 'custom', path: ['weightBreaks', 0, 'minPounds'], message: 'the first weight break starts at 0' });
      }
      if (previous && weightBreak.minPounds <= previous.minPounds) {
        ctx.addIssue({ code: 'custom', path: ['weightBreaks', index, 'minPounds'], message: 'weight breaks must ascend' });
      }
    });
    for (const freightClass of FREIGHT_CLASSES) {
      const table = tariff.ratesPerCwtInCents[freightClass];
      if (!table) {
        ctx.addIssue({ code: 'custom', path: ['ratesPerCwtInCents', freightClass], message: `class ${freightClass} has no rates` });
        continue;
      }
      if (table.length !== bands.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['ratesPerCwtInCents', freightClass],
          message: `needs one row per distance band (${bands.length}), has ${table.length}`,
        });
      }
      table.forEach((row, bandIndex) => {
        if (row.length !== tariff.weightBreaks.length) {
          ctx.addIssue({
            code: 'custom',
            path: ['ratesPerCwtInCents', freightClass, bandIndex],
            message: `needs one rate per weight break (${tariff.weightBreaks.length}), has ${row.length}`,
          });
        }
      });
    }
  });
export type Tariff = z.output<typeof tariffSchema>;
