/** The zod schema of a coded warning (warnings.ts), for the API's answers and the OpenAPI document. */
import { z } from 'zod';
import { WARNING_CODES, type Warning } from './warnings.js';

const cents = z.number().int();

const priceAtStakeSchema = z
  .object({
    quotedPriceInCents: cents.meta({ description: 'The price as quoted' }),
    atRiskPriceInCents: cents.meta({ description: 'The same freight re-rated as an inspector would bill it (the risk class or rule)' }),
    differenceInCents: cents.meta({ description: 'atRiskPriceInCents - quotedPriceInCents' }),
    basis: z.string().meta({ description: 'What was re-rated: "class 85", "96 in high", "750 cu ft at 6 pcf"...' }),
  })
  .meta({ description: 'The price at stake: the quote re-rated at the risk class or rule, beside the quoted price' });

export const warningSchema = z
  .object({
    // Open on the wire: a newer server's code must not make an older client refuse the answer.
    code: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,63}$/)
      .meta({ description: `A stable code: ${WARNING_CODES.join(', ')} (docs/warnings.md)` }),
    message: z.string().meta({ description: 'The warning in words' }),
    field: z.string().optional().meta({ description: 'The field it concerns, written as violations are: orderComponents[0].dimensions.height' }),
    line: z.number().int().min(0).optional().meta({ description: 'The index of the order component it concerns' }),
    detail: z
      .record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()]))
      .optional()
      .meta({ description: 'The numbers the rule compared (density, threshold, inches, feet...)' }),
    priceAtStake: priceAtStakeSchema.optional(),
  })
  .meta({ description: 'A warning with a stable code; also sent as an X-Shipper-Warning header `CODE message`' });

// The schema and the interface describe the same object.
export type WarningOutput = z.output<typeof warningSchema>;
const _sameShape: (item: WarningOutput) => Warning = (item) => item;
void _sameShape;
