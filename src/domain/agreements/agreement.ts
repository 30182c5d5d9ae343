/**
 * agreement.json: a shipper's pricing agreement with one LTL carrier (issue 25), on top of the
 * carrier's base rates (base-rates.csv). Percentages are decimal strings, money integer cents,
 * classes strings; unknown keys are refused with a did-you-mean (src/domain/validation.ts).
 * Pure: zod only.
 */
import { z } from 'zod';
import { onFirstUse } from '../schemaOnFirstUse.js';
import { SCAC_PATTERN } from '../carrier.js';
import { withoutControlCharacters } from '../controlCharacters.js';
import { companyIdSchema } from '../credentials.js';
import { DEFAULT_INSPECTION_RULES, inspectionRulesSchema } from '../inspectionRules.js';
import { NMFC_CLASSES, isoDateSchema, type NmfcClass } from '../schemas.js';

/** The weight breaks of a base rate table (CzarLite's), lightest first, and the pounds each starts at. */
export const WEIGHT_BREAKS = ['L5C', 'M5C', 'M1M', 'M2M', 'M5M', 'M10M', 'M20M', 'M30M', 'M40M'] as const;
export type WeightBreak = (typeof WEIGHT_BREAKS)[number];
export const WEIGHT_BREAK_MIN_POUNDS: Readonly<Record<WeightBreak, number>> = {
  L5C: 0,
  M5C: 500,
  M1M: 1000,
  M2M: 2000,
  M5M: 5000,
  M10M: 10000,
  M20M: 20000,
  M30M: 30000,
  M40M: 40000,
};

/** A percentage written as a decimal string, 0 to 100: "72", "31.25". */
export const percentText = z
  .string({ error: 'a percentage is a decimal string, e.g. "72" or "31.25"' })
  .regex(/^\d{1,3}(\.\d{1,6})?$/, { message: 'a percentage is a decimal string, e.g. "72" or "31.25"' })
  .refine((text) => Number(text) <= 100, { message: 'a percentage is at most 100' });

const cents = (field: string) =>
  z
    .number({ error: `${field} is a whole number of cents` })
    .int({ message: `${field} is a whole number of cents` })
    .min(0, { message: `${field} cannot be negative` })
    .max(1_000_000_000, { message: `${field} is at most 1000000000 cents` });

// Every NMFC class: a tariff's FAK ranges name 77.5, 110, 150... though density yields only 13 of them.
const freightClass = z.enum(NMFC_CLASSES, { error: `an NMFC class, written as a string: ${NMFC_CLASSES.join(', ')}` });

const byBreakShape = Object.fromEntries(WEIGHT_BREAKS.map((name) => [name, percentText])) as Record<WeightBreak, typeof percentText>;

export const discountSchema = onFirstUse(() =>
  z
    .strictObject({
      percent: percentText.optional().meta({ description: 'One discount for every weight break' }),
      byBreak: z
        .strictObject({ MC: percentText.default('0'), ...byBreakShape })
        .optional()
        .meta({ description: 'A discount per weight break; MC discounts the minimum charge (default "0")' }),
    })
    .superRefine((discount, ctx) => {
      if ((discount.percent === undefined) === (discount.byBreak === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'give either percent or byBreak' });
      }
    }),
);

const lengthTierSchema = onFirstUse(() =>
  z.strictObject({
    atLeastInches: z.number().positive(),
    amountInCents: cents('amountInCents'),
  }),
);

export const agreementAccessorialSchema = onFirstUse(() =>
  z
    .strictObject({
      description: withoutControlCharacters(z.string().trim().min(1).max(100)).optional(),
      amountInCents: cents('amountInCents').optional(),
      byLength: z.array(lengthTierSchema).min(1).optional().meta({ description: 'OVERLENGTH: the charge of the longest unit, by the longest tier it reaches' }),
    })
    .superRefine((charge, ctx) => {
      if ((charge.amountInCents === undefined) === (charge.byLength === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'give either amountInCents or byLength' });
      }
      charge.byLength?.forEach((tier, index, tiers) => {
        if (index > 0 && tier.atLeastInches <= tiers[index - 1]!.atLeastInches) {
          ctx.addIssue({ code: 'custom', path: ['byLength', index, 'atLeastInches'], message: 'tiers must ascend' });
        }
      });
    }),
);

export const agreementSchema = onFirstUse(() =>
  z
    .strictObject({
      scac: z.string().regex(SCAC_PATTERN, { message: 'a SCAC is 2 to 4 capital letters, e.g. ODFL' }),
      // Printed on terminals, quotes and BOLs: an ESC or a BEL there is refused by tariff check, as in what a client sends.
      carrierName: withoutControlCharacters(z.string().trim().min(1).max(100)),
      agreement: withoutControlCharacters(z.string().trim().min(1).max(64)).meta({ description: 'The agreement (pricing) number' }),
      companyIds: z
        .array(companyIdSchema)
        .min(1, { message: 'companyIds names at least one company; leave it out for an agreement every company prices with' })
        .optional()
        .meta({ description: 'The companies whose keys price with this agreement (shipper serve, issue 41); absent: every company' }),
      effective: isoDateSchema,
      expires: isoDateSchema,
      discount: discountSchema,
      absoluteMinimumChargeInCents: cents('absoluteMinimumChargeInCents'),
      deficitRating: z.boolean({ error: 'deficitRating is true or false' }),
      fak: z.array(z.strictObject({ classes: z.array(freightClass).min(1), ratedAs: freightClass })).default([]),
      accessorials: z
        .record(z.string().regex(/^[A-Z][A-Z0-9_]*$/, { message: 'accessorial codes are written in capitals, e.g. LIFTGATE_DELIVERY' }), agreementAccessorialSchema)
        .default({}),
      fuelAppliesToAccessorials: z.boolean({ error: 'fuelAppliesToAccessorials is true or false' }).default(false),
      liability: z
        .strictObject({
          newCentsPerPound: cents('newCentsPerPound').meta({ description: 'Carrier liability for new goods, cents per pound' }),
          maxPerShipmentInCents: cents('maxPerShipmentInCents').optional(),
        })
        .optional(),
      inspection: inspectionRulesSchema.default(DEFAULT_INSPECTION_RULES),
    })
    .superRefine((agreement, ctx) => {
      if (agreement.expires < agreement.effective)
        ctx.addIssue({ code: 'custom', path: ['expires'], message: `expires (${agreement.expires}) before effective (${agreement.effective})` });
      const mapped = new Map<string, number>();
      agreement.fak.forEach((entry, index) => {
        entry.classes.forEach((name, position) => {
          if (mapped.has(name)) {
            ctx.addIssue({ code: 'custom', path: ['fak', index, 'classes', position], message: `class ${name} is already mapped by fak[${mapped.get(name)}]` });
          }
          mapped.set(name, index);
        });
      });
      for (const [code, charge] of Object.entries(agreement.accessorials)) {
        if (charge.byLength && code !== 'OVERLENGTH') ctx.addIssue({ code: 'custom', path: ['accessorials', code, 'byLength'], message: 'length tiers are for OVERLENGTH only' });
      }
    }),
);
export type Agreement = z.output<typeof agreementSchema>;

/** The class a line is rated at: the FAK class when the agreement maps its class, else its own. */
export function ratedClass(agreement: Pick<Agreement, 'fak'>, actual: NmfcClass): NmfcClass {
  return agreement.fak.find((entry) => entry.classes.includes(actual))?.ratedAs ?? actual;
}
