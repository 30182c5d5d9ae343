/**
 * What priced a quote (issue 26 item 4, issue 25): the tariff (its name and version) or a carrier
 * agreement (its SCAC and number, and how it rated the freight). Stored on the quote and copied to
 * the shipment booked on it, so that the invoice and the bill audit read what was priced instead
 * of re-deriving it from whatever tariff is loaded today. Records written before it existed have
 * none and keep working (they are read with the tariff, as before). Pure: zod only.
 */
import { z } from 'zod';

export const quoteCarrierSchema = z.object({ scac: z.string(), name: z.string() }).meta({ description: 'The carrier whose agreement priced the quote' });

const fuelIndexSchema = z
  .object({
    indexWeek: z.string().meta({ description: "The Monday of the DOE/EIA diesel price the pickup date's percentage is for" }),
    week: z.string().meta({ description: 'The week whose price was used (the index week, or the last known before it)' }),
    usdPerGallon: z.string().meta({ example: '3.712' }),
    percent: z.string().meta({ example: '32.45' }),
    tableFrom: z.string().meta({ description: 'The fuel table version in force on the pickup date' }),
  })
  .meta({ description: 'The fuel surcharge: index week, price and percentage' });

export const agreementRatingSchema = z.object({
  kind: z.literal('AGREEMENT'),
  scac: z.string(),
  carrierName: z.string(),
  agreement: z.string().meta({ description: 'The agreement (pricing) number' }),
  ratedAsPounds: z.number().meta({ description: 'The weight the shipment was rated as (above the actual weight when deficit weight rating was cheaper)' }),
  weightBreak: z.string().meta({ example: 'M5M' }),
  lines: z
    .array(z.object({ actualClass: z.string(), ratedClass: z.string() }))
    .meta({ description: 'Per order component: its class from density and the class it was rated at (FAK)' }),
  grossInCents: z.number().int().meta({ description: 'The base rates at the rated-as weight and break, before discount' }),
  discountPercent: z.string(),
  discountInCents: z.number().int(),
  minimumApplied: z.enum(['NONE', 'MC', 'AMC']).meta({ description: "Whether the carrier's minimum charge (MC) or the absolute minimum charge (AMC) raised the net linehaul" }),
  netLinehaulInCents: z.number().int(),
  fuel: fuelIndexSchema.nullable().meta({ description: 'null: the agreement has no fuel table' }),
  fuelAppliesToAccessorials: z.boolean(),
  service: z.enum(['DIRECT', 'INTERLINE']).nullable().meta({ description: "The carrier's service on the lane (transit.csv); null when it is estimated from distance" }),
  transitEstimated: z.boolean().meta({ description: "The transit days are estimated from distance (no row of the carrier's transit.csv)" }),
  maxLiabilityInCents: z.number().int().nullable().meta({ description: "The carrier's maximum liability for new goods on this shipment; null when the agreement does not say" }),
  expires: z.string().meta({ description: 'The last day the agreement is in force' }),
});
export type AgreementRating = z.infer<typeof agreementRatingSchema>;

export const tariffRatingSchema = z.object({
  kind: z.literal('TARIFF'),
  tariff: z.string().meta({ description: "The tariff's name" }),
  version: z.string().meta({ description: "The tariff's effective date" }),
});

export const pricedBySchema = z
  .discriminatedUnion('kind', [tariffRatingSchema, agreementRatingSchema])
  .meta({ description: 'What priced the quote: the tariff, or a carrier agreement and how it rated the freight' });

export type PricedBy = z.infer<typeof pricedBySchema>;
