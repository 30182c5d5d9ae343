/**
 * What the shipper knows of each carrier it books, keyed by SCAC in the settings: the PRO number
 * block the carrier gave it (PROs assigned at booking from it, with its check digit), the carrier's
 * pickup cut-off, and its X12 trading-partner ids. Pure: zod only.
 */
import { z } from 'zod';
import { warning, type Warning } from './warnings.js';
import { localTimeSchema, SCAC_PATTERN } from './carrier.js';
import { proNumberRangeSchema } from './proNumber.js';
import { statusMilestoneOverridesSchema } from './tracking.js';

export const carrierProfileSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional().meta({ description: 'The carrier name printed when a booking gives the SCAC only' }),
    proRange: proNumberRangeSchema.optional().meta({ description: "The PRO block to assign PROs from at booking (its scac must be this carrier's)" }),
    pickupCutoff: localTimeSchema.optional().meta({ description: "The carrier's last pickup, local time at the origin (default the tariff's)" }),
    ebol: z
      .boolean({ error: 'ebol is true or false' })
      .optional()
      .meta({ description: 'The carrier takes eBOL 2.1 requests (shipper tender --format ebol): a booking that lacks what one needs (phones, line descriptions) is warned' }),
    x12: z
      .strictObject({
        receiverQualifier: z
          .string()
          .regex(/^[A-Z0-9]{2}$/, { message: 'a 2-character ISA qualifier, e.g. 02 (SCAC) or ZZ' })
          .optional(),
        receiverId: z.string().trim().min(1).max(15).optional(),
      })
      .optional()
      .meta({ description: "The carrier's X12 ids (default qualifier 02 and its SCAC)" }),
    statusMilestones: statusMilestoneOverridesSchema.optional().meta({
      description: 'Its X12 214 AT7 status codes read otherwise than the standard: code -> milestone, e.g. {"X6": "IN_TRANSIT"} for a carrier that sends X6 for line-haul',
    }),
  })
  .superRefine((profile, ctx) => {
    if (profile.proRange && profile.x12?.receiverId === '') ctx.addIssue({ code: 'custom', path: ['x12', 'receiverId'], message: 'cannot be empty' });
  });

export const carrierProfilesSchema = z
  .record(z.string().regex(SCAC_PATTERN, { message: 'carriers are keyed by SCAC: 2 to 4 capital letters' }), carrierProfileSchema)
  .superRefine((profiles, ctx) => {
    for (const [scac, profile] of Object.entries(profiles)) {
      if (profile.proRange && profile.proRange.scac !== scac) {
        ctx.addIssue({ code: 'custom', path: [scac, 'proRange', 'scac'], message: `the PRO block of ${scac} names ${profile.proRange.scac}` });
      }
    }
  });
export type CarrierProfiles = z.output<typeof carrierProfilesSchema>;

/** The carrier's cut-off, else the tariff's: a pickup window that opens at or after it gets a warning. */
export function pickupWindowWarning(window: { readyTime: string; closeTime: string } | null, cutoff: string, carrier: string | null): Warning | undefined {
  if (!window || window.readyTime < cutoff) return undefined;
  return warning(
    'PICKUP_AFTER_CUTOFF',
    `the freight is ready at ${window.readyTime}, at or after ${carrier ? `${carrier}'s` : "the carriers'"} pickup cut-off ${cutoff}: the pickup may move to the next business day (pickupWindow.readyTime)`,
    { field: 'pickupWindow.readyTime' },
  );
}
