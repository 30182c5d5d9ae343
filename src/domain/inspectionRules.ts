/**
 * The thresholds of the freight check (issue 21): what a carrier's dock inspection measures a
 * line or a shipment against. A carrier agreement may set its own (`inspection` in
 * agreement.json); without one these defaults apply. Every field has a default so an agreement
 * names only what differs. Pure: zod only.
 */
import { z } from 'zod';
import { FREIGHT_CLASSES } from './schemas.js';

const inches = z.number().positive().max(1200);
const decimalPercent = z.string().regex(/^\d{1,3}(\.\d{1,4})?$/, { message: 'must be a decimal string such as "2" or "2.5"' });
const decimalPcf = z.string().regex(/^\d{1,3}(\.\d{1,4})?$/, { message: 'must be a decimal string such as "6"' });

export const inspectionRulesSchema = z.strictObject({
  /** DENSITY_MARGIN: the class a line would take with one dimension this much larger, or its weight this much lower. */
  densityMargin: z.strictObject({ dimensionInches: inches.default(1), weightPercent: decimalPercent.default('2') }).default({ dimensionInches: 1, weightPercent: '2' }),
  /** NON_STACKABLE_HEIGHT: a non-stackable unit is classed as if it were this high. */
  nonStackableHeightInches: inches.default(96),
  /** WIDE_FREIGHT: a unit at least this wide is classed as if it were `wideRatedWidthInches` wide. */
  wideFreight: z.strictObject({ fromInches: inches.default(70), ratedWidthInches: inches.default(96) }).default({ fromInches: 70, ratedWidthInches: 96 }),
  /**
   * CUBIC_CAPACITY: a shipment of at least this cube and below this density is charged by cube:
   * its constructed weight (cube x `belowDensityPcf`) at `ratedClass` (Dugan item 650 C.1: class
   * 125). A non-stackable unit is cubed at `nonStackableHeightInches` (item 650 B.1: 96 in).
   */
  cubicCapacity: z
    .strictObject({
      minimumCubicFeet: z.number().positive().default(750),
      belowDensityPcf: decimalPcf.default('6'),
      // A class every re-rate prices (the tariff's too): one of the density scale's 13.
      ratedClass: z.enum(FREIGHT_CLASSES, { error: `a class of the density scale, written as a string: ${FREIGHT_CLASSES.join(', ')}` }).default('125'),
    })
    .default({ minimumCubicFeet: 750, belowDensityPcf: '6', ratedClass: '125' }),
  /**
   * LINEAR_FEET: the trailer length a shipment takes, against this limit, on a trailer of this
   * inside size; over it the carrier rates the shipment as if it weighed `minimumPoundsPerFoot`
   * per foot it takes (the price at stake), or as volume LTL.
   */
  linearFeet: z
    .strictObject({
      maximumFeet: z.number().positive().default(12),
      trailerWidthInches: inches.default(98),
      trailerHeightInches: inches.default(108),
      minimumPoundsPerFoot: z.number().positive().default(1000),
    })
    .default({ maximumFeet: 12, trailerWidthInches: 98, trailerHeightInches: 108, minimumPoundsPerFoot: 1000 }),
  /**
   * OVERLENGTH: units at least `fromInches` long, in bands starting at these lengths in feet, each
   * with its fee (`feesInCents[i]` for band i; a band without a fee has none known).
   */
  overlength: z
    .strictObject({
      fromInches: inches.default(96),
      bandsFeet: z.array(z.number().positive()).min(1).default([8, 12, 16, 20]),
      feesInCents: z.array(z.number().int().min(0)).default([9000, 12500, 12500, 19500]),
    })
    .default({ fromInches: 96, bandsFeet: [8, 12, 16, 20], feesInCents: [9000, 12500, 12500, 19500] }),
  /** NO_DESCRIPTION: the class an inspector may apply to a line with neither description nor NMFC. */
  noDescriptionClass: z.string().default('125'),
});

export type InspectionRules = z.output<typeof inspectionRulesSchema>;

/** The defaults of issue 21 (sources in docs). */
export const DEFAULT_INSPECTION_RULES: InspectionRules = inspectionRulesSchema.parse({});
